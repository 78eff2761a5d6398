"""Scrub one block of records: the unit of work of every batch path (in-process, pool, Dask).

A block is `window` consecutive records of one export. Placeholder contexts live for one block (one
context per trace id in it), which is what bounds memory; the local and the Dask paths cut the same
blocks, so they write the same bytes. A trace spread over more than one block gets a fresh numbering in
each block (keyed mode, `--key-file`, gives the same token everywhere).
"""

from __future__ import annotations

import io
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
    slots = []
    records: list[Record] = []
    skipped: list[Skipped] = []
    spans = 0
    for item in job.items:
        if isinstance(item, Skipped):
            skipped.append(item)
            records.append(_redacted(item, job.framing))
            continue
        spans += sum(1 for _ in codec.spans(item))
        codec.rewrite_strings(item, lambda slot: slots.append(slot))  # collect only: returns None
        records.append(item)
    items = [(contexts.setdefault(slot.trace_id, engine.new_context()), slot.key, slot.value) for slot in slots]
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
