"""What the browser shows of a turn: a `TurnRow` of metadata, built from a trace as soon as it is read.

Rows are structure, never text of the trace (time, agent, tool names, tokens, duration, errors); a row
gets its input snippet only from the scrubbed trace (`snippet_of`). Reading and scrubbing are the core's
(`promote.source`); the loader child (`tui.loader`) builds the rows and sends them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the UI process unpickles rows at start: the trace model loads only in the loader child
    from promote.trace_model import Trace, Turn


@dataclass(frozen=True)
class TurnRow:
    """What the browser shows of one turn. `snippet` is None until the trace is scrubbed."""

    key: str
    trace_id: str
    turn: int
    export: Path
    started: str
    agent: str
    tools: tuple[str, ...]
    errors: int
    tokens: int | None
    duration_ms: float | None
    has_input: bool
    snippet: str | None = None
    promoted: str | None = None
    """Path of the eval-repo case with the same input and tool trajectory, when there is one."""

    def matches(self, text: str, agent: str | None, tool: str | None, errors_only: bool) -> bool:
        if agent and self.agent != agent:
            return False
        if tool and tool not in self.tools:
            return False
        if errors_only and not self.errors:
            return False
        if text:
            wanted = text.lower()
            haystack = " ".join([self.snippet or "", self.agent, *self.tools, self.trace_id]).lower()
            return wanted in haystack
        return True


def row_key(trace_id: str, turn: int) -> str:
    return f"{trace_id}:{turn}"


def turn_row(trace: Trace, turn: Turn) -> TurnRow:
    tokens = None if turn.input_tokens is None and turn.output_tokens is None else (
        (turn.input_tokens or 0) + (turn.output_tokens or 0))
    return TurnRow(
        key=row_key(trace.trace_id, turn.index), trace_id=trace.trace_id, turn=turn.index,
        export=Path(trace.export or "-"),
        started=turn.started_at.strftime("%Y-%m-%d %H:%M:%S") if turn.started_at else "-",
        agent=trace.agent or trace.service or "-", tools=tuple(call.name for call in turn.tool_calls),
        errors=sum(1 for call in turn.tool_calls if call.error), tokens=tokens, duration_ms=turn.duration_ms,
        has_input=turn.user_input is not None,
    )


def snippet_of(turn: Turn, width: int = 400) -> str:
    if turn.user_input is None:
        return "(no content captured)"
    flat = " ".join(turn.user_input.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
