"""The library side of `promote traces`: read exports, rebuild turns, list them as JSON or a table.

`list_traces` returns the `--json` shape of docs/cli.md (`TraceListing.model_dump(mode="json")`) of the
traces `promote.source` reads; `render_table` is the human view. Neither prints. `scrub` is applied to
every trace before it is listed, so nothing unscrubbed reaches the listing when the caller passes one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import Field

from promote.models import Model
from promote.source import read_traces
from promote.trace_model import Skipped, Trace, Turn

Scrub = Callable[[Trace], Trace]


class TraceListing(Model):
    """What `promote traces --json` prints."""

    traces: list[Trace] = Field(default_factory=list)
    """Agent traces with their turns, earliest first."""
    skipped: list[Skipped] = Field(default_factory=list)
    """Input that could not be read, with `file:line` and the reason."""
    other_traces: int = 0
    """Traces read without any agent span (no key of a known agent convention); not listed."""
    without_turns: list[Skipped] = Field(default_factory=list)
    """Every trace that gave no turn: where its first span was read and why (what its spans carry,
    which conventions were tried)."""

    @property
    def turn_count(self) -> int:
        return sum(len(trace.turns) for trace in self.traces)


def list_traces(paths: Iterable[str | Path], *, scrub: Scrub | None = None) -> TraceListing:
    """Every agent trace in the exports (`promote.source.read_traces`: one trace id in one file is one
    trace), earliest first.

    Raises PromoteError (from the reader) for a file that cannot be read or holds no span at all.
    """
    skipped: list[Skipped] = []
    listing = TraceListing()
    for trace in read_traces(paths, skipped=skipped):
        if not trace.turns:
            where = next((s.where for s in trace.spans if s.where), "-")
            why = f"trace {trace.trace_id}: {trace.no_turns_reason}"
            listing.without_turns.append(Skipped(where=where, why=why))
        if trace.producer is None:
            listing.other_traces += 1
            continue
        listing.traces.append(scrub(trace) if scrub is not None else trace)
    listing.skipped = skipped  # (a model copies a list it is given: filled while reading, set after)
    listing.traces.sort(key=_started)
    return listing


def _started(trace: Trace) -> float:
    if trace.turns and trace.turns[0].started_at is not None:
        return trace.turns[0].started_at.timestamp()
    return min(s.start_ns for s in trace.spans) / 1e9 if trace.spans else 0.0


def render_table(listing: TraceListing, *, width: int = 160) -> str:
    """A header line per trace (id, agent, session, producer), then one line per turn: time, input
    snippet, tools (a failed one ends in `!`), tokens, errors and the gist of each warning."""
    fixed = [("turn", 4), ("time (UTC)", 19)]
    tail = [("tokens in/out", 13), ("errors", 6)]
    flexible = max(width - 2 - sum(w + 2 for _, w in fixed + tail) - 4, 40)
    columns = [*fixed, ("input", flexible * 4 // 9), ("tools", flexible * 3 // 9), *tail]
    columns.append(("warnings", flexible - columns[2][1] - columns[3][1]))
    right = {"turn", "tokens in/out", "errors"}

    def line(cells: list[str]) -> str:
        parts = [
            _fit(cell, w).rjust(w) if name in right else _fit(cell, w).ljust(w)
            for cell, (name, w) in zip(cells, columns, strict=True)
        ]
        return ("  " + "  ".join(parts)).rstrip()

    turns = sum(len(trace.turns) for trace in listing.traces)
    lines = [f"{len(listing.traces)} trace(s), {turns} turn(s)"]
    if turns:
        lines += [line([name for name, _ in columns]), line(["-" * w for _, w in columns])]
    for trace in listing.traces:
        about = [f"agent {trace.agent or '-'}", f"session {trace.session_id or '-'}", f"[{trace.producer}]"]
        lines.append(_fit(f"trace {trace.trace_id}  " + "  ".join(about), width))
        lines += [line(_row(turn)) for turn in trace.turns]
    lines += [_fit(f"skipped {skip.where}: {skip.why}", width) for skip in listing.skipped]
    if listing.other_traces:
        lines.append(f"{listing.other_traces} trace(s) without agent spans not listed")
    lines += [f"no turn in {note.where}: {note.why}" for note in listing.without_turns]
    return "\n".join(lines) + "\n"


def _row(turn: Turn) -> list[str]:
    errors = sum(1 for c in turn.tool_calls if c.error)
    tokens = "-" if turn.input_tokens is None and turn.output_tokens is None else (
        f"{turn.input_tokens or 0}/{turn.output_tokens or 0}"
    )
    return [
        str(turn.index),
        turn.started_at.strftime("%Y-%m-%d %H:%M:%S") if turn.started_at else "-",
        turn.user_input if turn.user_input is not None else "(no content)",
        ", ".join(f"{c.name}!" if c.error else c.name for c in turn.tool_calls) or "-",
        tokens,
        str(errors) if errors else "",
        "; ".join(w.split(":", 1)[0].split(" (", 1)[0] for w in turn.warnings),
    ]


def _fit(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"
