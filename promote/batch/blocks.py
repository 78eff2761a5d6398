"""Scrub one block of records: the unit of work of every batch path (in-process, pool, Dask).

A block is `window` consecutive records of one export. Placeholder contexts live for one block (one
context per trace id in it), which is what bounds memory; the local and the Dask paths cut the same
blocks, so they write the same bytes. A trace spread over more than one block gets a fresh numbering in
each block (keyed mode, `--key-file`, gives the same token everywhere), but what it *detects* does not
depend on blocks: the values its spans hold under personal keys anywhere before are carried into every
block as the trace's known values (`KnownValues`), so a bare first name is caught in a later block too.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from promote.ingest import Record, write_export
from promote.ingest.reader import Export
from promote.trace_model import Skipped

# A bad input line is never copied: an empty request keeps the line count and every OTLP reader
# accepts it. Binary framings drop the bad message (there is no neutral filler for them).
REDACTED_LINE = b"{}"


@dataclass
class BlockJob:
    """What a worker needs to scrub one block (picklable: it crosses process and machine borders)."""

    index: int
    """Position of the block in its file, so results can be put back in order."""
    path: str
    """The input export, for messages."""
    format: str
    """The export's format (see promote.ingest.reader.FORMATS)."""
    framing: str
    """lines, values or length-prefixed."""
    part_compression: str | None
    """None, or zstd-framed when every message is compressed on its own (concatenable parts)."""
    items: list[Record | Skipped]
    """The block's records and bad records, in file order."""
    known: dict[str | None, list[tuple[str, str]]] = field(default_factory=dict)
    """Per trace id: (entity, value) found under personal keys in this and earlier blocks."""


@dataclass
class BlockResult:
    """A scrubbed block: its bytes (ready to concatenate) and counts, never values."""

    index: int
    data: bytes
    spans: int = 0
    records: int = 0
    strings: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)


def cut_blocks(export: Export, window: int, part_compression: str | None) -> Iterator[BlockJob]:
    """Stream an export as blocks of at most `window` records (bad records count too)."""
    items: list[Record | Skipped] = []
    index = 0
    for item in export.records():
        items.append(item)
        if len(items) >= window:
            yield BlockJob(index, export.path, export.format, export.framing, part_compression, items)
            items, index = [], index + 1
    if items:
        yield BlockJob(index, export.path, export.format, export.framing, part_compression, items)


def scrub_block(job: BlockJob, engine: Any) -> BlockResult:
    """Scrub every string value of a block with one placeholder context per trace."""
    codec = Export(job.path, job.format, None, job.framing)
    before = engine.report.model_copy(deep=True)
    contexts: dict[str | None, Any] = {}
    records: list[Record] = []
    skipped: list[Skipped] = []
    spans = 0
    for item in job.items:
        if isinstance(item, Skipped):
            skipped.append(item)
            records.append(_redacted(item, job.framing))
            continue
        spans += sum(1 for _ in codec.spans(item))
        records.append(item)
    slots = string_slots(codec, records)
    items = [(_context(contexts, slot.trace_id, job, engine), slot.key, slot.value) for slot in slots]
    # Learn first: every value found anywhere in the block is known to its trace's context before
    # any string is written, so a name detected late (the user's message) is also caught where it
    # came earlier (the root span's output).
    engine.learn(items)
    replacements = iter(engine.scrub_many(items))
    scrubbed = [
        record if record.raw is REDACTED_LINE else codec.rewrite_strings(record, lambda _: next(replacements))
        for record in records
    ]
    return BlockResult(
        index=job.index,
        data=encode_records(
            [r for r in scrubbed if job.framing == "lines" or r.raw is not REDACTED_LINE],
            job.format,
            job.part_compression,
        ),
        spans=spans,
        records=sum(1 for r in records if r.raw is not REDACTED_LINE),
        strings=len(slots),
        skipped=skipped,
        report=_report_delta(before, engine.report),
    )


def string_slots(codec: Export, records: Iterable[Record]) -> list[Any]:
    """Every string slot of the records, in write order (rewrite_strings asked to change nothing)."""
    slots: list[Any] = []
    for record in records:
        if record.raw is not REDACTED_LINE:
            codec.rewrite_strings(record, lambda slot: slots.append(slot))  # appending returns None
    return slots


def _context(contexts: dict, trace_id: str | None, job: BlockJob, engine: Any) -> Any:
    if trace_id not in contexts:
        ctx = contexts[trace_id] = engine.new_context()
        for entity, value in job.known.get(trace_id, ()):
            ctx.remember(entity, value)
    return contexts[trace_id]


class KnownValues:
    """Per trace, the values under personal keys seen so far in an export (the last `limit` traces)."""

    def __init__(self, engine: Any, limit: int = 20_000) -> None:
        self._engine = engine
        self._limit = limit
        self._contexts: OrderedDict[str | None, Any] = OrderedDict()

    def annotate(self, job: BlockJob) -> BlockJob:
        """Harvest the block (keys only, no NER) and attach each of its traces' known values."""
        codec = Export(job.path, job.format, None, job.framing)
        slots = string_slots(codec, [item for item in job.items if isinstance(item, Record)])
        self._engine.harvest([(self._context(slot.trace_id), slot.key, slot.value) for slot in slots])
        job.known = {trace_id: self._contexts[trace_id].known_values() for trace_id in {s.trace_id for s in slots}}
        return job

    def _context(self, trace_id: str | None) -> Any:
        if trace_id in self._contexts:
            self._contexts.move_to_end(trace_id)
        else:
            self._contexts[trace_id] = self._engine.new_context()
            if len(self._contexts) > self._limit:
                self._contexts.popitem(last=False)
        return self._contexts[trace_id]


def _redacted(item: Skipped, framing: str) -> Record:
    # The line break before a bad line is kept; its content is not.
    return Record(where=item.where, raw=REDACTED_LINE, doc={}, prefix=b"\n" if framing == "lines" else b"")


def encode_records(records: Iterable[Record], format: str, compression: str | None) -> bytes:
    """The block's bytes in the export's framing, ready to be concatenated with the next block's."""
    buffer = io.BytesIO()
    write_export(records, buffer, format=format, compression=compression)
    return buffer.getvalue()


def _report_delta(before: Any, after: Any) -> dict[str, Any]:
    """What this block added to the engine's running report (counts only)."""
    delta: dict[str, Any] = {}
    for name, value in after.model_dump().items():
        previous = getattr(before, name)
        if isinstance(value, dict):
            delta[name] = {k: v - previous.get(k, 0) for k, v in value.items() if v - previous.get(k, 0)}
        elif isinstance(value, (int, float)):
            delta[name] = value - previous
    return delta
