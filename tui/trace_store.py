"""The turns the browser lists, read and scrubbed off the UI thread (no Textual in here).

`read_rows` streams the exports and yields one `TurnRow` per agent turn with its metadata only (time,
agent, tool names, tokens, duration, errors): structure, never text. The raw traces wait in
`TraceStore` until `scrub_next` has scrubbed them; only then does a row get its input snippet, and only
the scrubbed trace is ever handed to the UI. Raw text never leaves this module.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from promote.ingest import iter_trace_groups
from promote.ingest.turns import build_trace
from promote.trace_model import Skipped, Trace, Turn

if TYPE_CHECKING:
    from promote.case.fingerprints import ValueFingerprints
    from promote.case.model import ScrubInfo


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


@dataclass
class ScrubbedTrace:
    """A trace after scrubbing, what the draft needs of it, and where it was read."""

    trace: Trace
    replaced: dict[str, int]
    export: Path
    scrub: ScrubInfo | None = None
    """The engine, version and policy that scrubbed it, with the counts (what provenance records)."""
    fingerprints: ValueFingerprints | None = None
    """Salted fingerprints of the raw values the trace held, for the write gate (`save_case`'s
    known values): the values themselves never leave the loader process."""


def row_key(trace_id: str, turn: int) -> str:
    return f"{trace_id}:{turn}"


def turn_row(trace: Trace, turn: Turn, export: Path) -> TurnRow:
    tokens = None if turn.input_tokens is None and turn.output_tokens is None else (
        (turn.input_tokens or 0) + (turn.output_tokens or 0))
    return TurnRow(
        key=row_key(trace.trace_id, turn.index), trace_id=trace.trace_id, turn=turn.index, export=export,
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


class TraceStore:
    """Raw traces waiting to be scrubbed and the scrubbed ones, shared by the reader and scrubber threads."""

    def __init__(self, window: int = 256) -> None:
        self.window = window
        self.salt = os.urandom(16)
        """One salt for the fingerprints of every trace of this run."""
        self._lock = threading.Condition()
        self._raw: dict[str, tuple[Trace, Path]] = {}
        self._order: deque[str] = deque()
        self._scrubbed: dict[str, ScrubbedTrace] = {}
        self._wanted: list[str] = []
        self._ever_wanted: set[str] = set()
        self.reading_done = False
        self.skipped: list[Skipped] = []

    def read_rows(self, paths: Iterable[Path]) -> Iterator[list[TurnRow]]:
        """Stream the exports; yield the rows of each agent trace as soon as it is rebuilt.

        A trace is complete once `window` records have passed without one of its spans: a small window
        lists turns sooner, a trace spread wider than it is listed in pieces."""
        try:
            yield from self._read_rows(paths)
        finally:
            with self._lock:
                self.reading_done = True
                self._lock.notify_all()

    def _read_rows(self, paths: Iterable[Path]) -> Iterator[list[TurnRow]]:
        for path in paths:
            for spans in iter_trace_groups([path], window=self.window, skipped=self.skipped):
                trace = build_trace(spans)
                if trace.producer is None or not trace.turns:
                    continue
                trace.spans = []  # only the turns are needed from here on
                first = self._export_of(trace.trace_id)
                if first is not None:
                    # The same id again: in another export, a trace of its own named by that file; in the
                    # same one, a trace spread wider than the reading window, its later piece listed apart.
                    suffix = path.name if first != path else str(len(self._order))
                    trace = trace.model_copy(update={"trace_id": f"{trace.trace_id}~{suffix}"})
                with self._lock:
                    self._raw[trace.trace_id] = (trace, path)
                    self._order.append(trace.trace_id)
                    self._lock.notify_all()
                yield [turn_row(trace, turn, path) for turn in trace.turns]

    def _export_of(self, trace_id: str) -> Path | None:
        with self._lock:
            if trace_id in self._raw:
                return self._raw[trace_id][1]
            done = self._scrubbed.get(trace_id)
            return done.export if done is not None else None

    def wake(self) -> None:
        with self._lock:
            self._lock.notify_all()

    def want(self, trace_id: str) -> None:
        """Scrub this trace next (the user opened one of its turns)."""
        with self._lock:
            self._wanted.append(trace_id)
            self._ever_wanted.add(trace_id)
            self._lock.notify_all()

    def was_wanted(self, trace_id: str) -> bool:
        with self._lock:
            return trace_id in self._ever_wanted

    def scrubbed(self, trace_id: str) -> ScrubbedTrace | None:
        with self._lock:
            return self._scrubbed.get(trace_id)

    def scrub_next(self, engine: Any, stop: threading.Event | None = None) -> ScrubbedTrace | None:
        """Scrub the next waiting trace (a wanted one first); None once everything is scrubbed."""
        with self._lock:
            while True:
                if stop is not None and stop.is_set():
                    return None
                trace_id = self._next_waiting()
                if trace_id is not None:
                    trace, path = self._raw[trace_id]
                    break
                if self.reading_done:
                    return None
                self._lock.wait(timeout=0.2)
        done = scrubbed_trace(trace, path, engine, self.salt)
        with self._lock:
            del self._raw[trace_id]
            self._scrubbed[trace_id] = done
        return done

    def _next_waiting(self) -> str | None:
        while self._wanted:
            wanted = self._wanted.pop()
            if wanted in self._raw:
                return wanted
        while self._order:
            trace_id = self._order.popleft()
            if trace_id in self._raw:
                return trace_id
        return None


def scrubbed_trace(trace: Trace, export: Path, engine: Any, salt: bytes) -> ScrubbedTrace:
    """Scrub one raw trace; what it held raw travels on only as salted fingerprints."""
    from promote.case.fingerprints import ValueFingerprints
    from promote.draft.export import replaced_values
    from promote.draft.provenance import scrub_info
    from promote.scrub_trace import scrub_trace_fully

    scrubbed, replaced, known = scrub_trace_fully(trace, engine)
    prints = ValueFingerprints.of([*known, *replaced_values(trace, scrubbed)], salt=salt)
    return ScrubbedTrace(trace=scrubbed, replaced=replaced, export=export, scrub=scrub_info(engine, replaced),
                         fingerprints=prints)


def snippet_updates(done: ScrubbedTrace, duplicate: Any = None) -> list[tuple[str, str, str | None]]:
    """(row key, scrubbed snippet, promoted case path) for each turn of a freshly scrubbed trace.

    `duplicate(user_input, tool_names)` is the eval repo's duplicate finder (None: no repo)."""
    updates = []
    for turn in done.trace.turns:
        promoted = None
        if turn.user_input is not None and duplicate is not None:
            found = duplicate(turn.user_input, [call.name for call in turn.tool_calls])
            promoted = str(found) if found else None
        updates.append((row_key(done.trace.trace_id, turn.index), snippet_of(turn), promoted))
    return updates
