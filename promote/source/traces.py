"""Export files → traces with their turns, streamed: the one rule for what a trace is.

**The rule.** A trace is the spans of one trace id *in one file*. While a file streams, its spans are
held by trace id; a trace is handed on (its turns rebuilt, `promote.ingest.turns`)
- at the end of its file, or
- once it looks whole (a root span came, and every span's parent is there) and `SETTLE` records have
  passed without a span of it (an SDK exports a trace's root last: a whole trace rarely grows again), or
- once `WINDOW` records have passed without a span of it (memory stays bounded however long the file).

A trace is therefore never cut between the blocks (records, batches) of one file that hold it, as long as
they follow each other within those bounds. Spans of a trace that come later still are a trace of their
own, named `<id>~2` (then `~3`, ...), with a note in `skipped` saying so. The same trace id in two files
is two traces: the first file's keeps its id, a later file's is named `<id>~<file name>`. Every front end
(`promote traces`, `draft`, `check`, the terminal UI) reads through here, so all of them name and cut the
same export the same way.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import closing
from pathlib import Path

from promote.ingest import iter_record_spans
from promote.ingest.turns import build_trace
from promote.trace_model import Skipped, Span, Trace

WINDOW = 2_000
"""Records after which a trace no span came for is handed on, whole-looking or not."""
SETTLE = 64
"""Records after which a trace that looks whole (a root span, no parent missing) is handed on."""


class _Open:
    """The spans of one trace id read so far in a file, and whether they look whole."""

    __slots__ = ("spans", "missing", "has_root", "last")

    def __init__(self) -> None:
        self.spans: dict[str, Span] = {}
        self.missing: set[str] = set()
        self.has_root = False
        self.last = 0

    def add(self, span: Span, record: int) -> None:
        self.last = record
        if span.span_id in self.spans:
            return  # a span exported twice counts once
        self.spans[span.span_id] = span
        self.missing.discard(span.span_id)
        parent = span.parent_span_id
        if parent is None:
            self.has_root = True
        elif parent not in self.spans:
            self.missing.add(parent)

    @property
    def whole(self) -> bool:
        return self.has_root and not self.missing


def read_traces(paths: Iterable[str | Path], *, skipped: list[Skipped] | None = None,
                digests: dict[str, str] | None = None, window: int = WINDOW,
                settle: int = SETTLE) -> Iterator[Trace]:
    """Every trace of every file, in the order each is complete (see the module note), turns rebuilt.

    Traces without agent spans come too (`producer` None, no turns): callers count them. `skipped`
    receives what could not be read, and a note for each trace cut by the window; `digests` each file's
    sha256 once it is read or the caller stops reading (a stream's rest is then hashed, not parsed).
    Raises PromoteError for a file that cannot be read or holds no span at all.
    """
    if window < 1 or settle < 1:
        raise ValueError("window and settle must be at least 1 record")
    first_file: dict[str, str] = {}  # trace id -> the file that held it first (ids only: memory is small)
    names: set[str] = set()
    for path in paths:
        with closing(_file_traces(path, skipped, digests, window, settle)) as traces:
            yield from _named(traces, path, first_file, names)


def _named(traces: Iterator[Trace], path: str | Path, first_file: dict[str, str],
           names: set[str]) -> Iterator[Trace]:
    """The traces of one file, named where an earlier file held the same id."""
    for trace in traces:
        real = trace.trace_id.split("~", 1)[0]
        held_by = first_file.setdefault(real, str(path))
        if held_by != str(path):
            name = f"{trace.trace_id}~{Path(path).name}"
            trace.trace_id = name if name not in names else f"{trace.trace_id}~{path}"
        names.add(trace.trace_id)
        trace.export = str(path)
        yield trace


def _file_traces(path: str | Path, skipped: list[Skipped] | None, digests: dict[str, str] | None,
                 window: int, settle: int) -> Iterator[Trace]:
    records = iter_record_spans([path], skipped=skipped, digests=digests)
    with closing(records):
        yield from _grouped(records, skipped, window, settle)


def _grouped(records: Iterator[list[Span]], skipped: list[Skipped] | None, window: int,
             settle: int) -> Iterator[Trace]:
    """Spans of one file's records → its traces, by the rule of the module note."""
    groups: OrderedDict[str, _Open] = OrderedDict()  # least recently extended first
    pieces: dict[str, int] = {}  # trace id -> pieces handed on so far
    for record, spans in enumerate(records):
        for span in spans:
            group = groups.get(span.trace_id)
            if group is None:
                group = groups[span.trace_id] = _Open()
            else:
                groups.move_to_end(span.trace_id)
            group.add(span, record)
        ready = []
        for trace_id, group in groups.items():  # oldest first: stop at the first one still settling
            if group.last > record - settle:
                break
            if group.whole or group.last <= record - window:
                ready.append(trace_id)
        for trace_id in ready:
            yield _handed_on(trace_id, groups.pop(trace_id), pieces, skipped, window)
    for trace_id in list(groups):
        yield _handed_on(trace_id, groups.pop(trace_id), pieces, skipped, window)


def _handed_on(trace_id: str, group: _Open, pieces: dict[str, int], skipped: list[Skipped] | None,
               window: int) -> Trace:
    trace = build_trace(list(group.spans.values()))
    count = pieces[trace_id] = pieces.get(trace_id, 0) + 1
    if count > 1:
        trace.trace_id = f"{trace_id}~{count}"
        if skipped is not None:
            first = min(group.spans.values(), key=lambda span: span.start_ns)
            skipped.append(Skipped(where=first.where or "-", why=(
                f"trace {trace_id} goes on after it looked complete (or after {window} records without "
                f"one of its spans): its spans from here on are listed as trace {trace.trace_id}")))
    return trace
