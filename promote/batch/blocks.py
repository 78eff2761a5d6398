"""Scrub one block of records: the unit of work of every batch path (in-process, pool, Dask).

A block is at most `window` consecutive records, and at most `block_bytes` of input, of one export.
Placeholder contexts live for one block (one context per trace id in it), which is what bounds memory;
the local and the Dask paths cut the same blocks, so they write the same bytes. A trace spread over more
than one block gets a fresh numbering in each block (keyed mode, `--key-file`, gives the same token
everywhere), but what it *detects* barely depends on blocks: the values a trace holds under personal
keys in the blocks just before (`CARRY_BLOCKS`) are carried into the next block as its known values
(`KnownValues`), so a bare first name is caught in a later block too.

Jobs cross process borders as raw record bytes (a worker decodes them again: far cheaper than pickling
the decoded documents), so the parent process only reads, cuts, and harvests the few traces that span
blocks.
"""

from __future__ import annotations

import io
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from promote.ingest import Record, write_export
from promote.ingest.reader import Export, RecordCodec
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
    """The export's format (see promote.ingest.sniff.FORMATS)."""
    framing: str
    """lines, values or length-prefixed."""
    part_compression: str | None
    """None, or zstd-framed when every message is compressed on its own (concatenable parts)."""
    items: list[Record | Skipped]
    """The block's records and bad records, in file order."""
    known: dict[str | None, list[tuple[str, str]]] = field(default_factory=dict)
    """Per trace id: (entity, value) found under personal keys in earlier blocks."""
    traces: set[str] = field(default_factory=set)
    """The trace ids of the block's spans."""

    def __getstate__(self) -> dict[str, Any]:
        # Decoded documents are large to pickle and cheap to rebuild from the bytes: ship the bytes.
        state = dict(self.__dict__)
        state["items"] = [
            Record(item.where, item.raw, None, item.prefix, item.suffix) if isinstance(item, Record) else item
            for item in self.items
        ]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


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


def cut_blocks(export: Export, window: int, part_compression: str | None, block_bytes: int | None = None
               ) -> Iterator[BlockJob]:
    """Stream an export as blocks of at most `window` records (bad records count too).

    With `block_bytes`, a block also ends once it holds that many bytes of records, at the first record
    that shares no trace with it (so that traces are rarely split), and at four times that size at most.
    """
    items: list[Record | Skipped] = []
    traces: set[str] = set()
    index = size = 0
    for item in export.records():
        item_traces = _traces(export, item)
        if items and (len(items) >= window or (block_bytes is not None and (
                size >= 4 * block_bytes or (size >= block_bytes and not item_traces & traces)))):
            yield _job(export, index, part_compression, items, traces)
            items, traces, index, size = [], set(), index + 1, 0
        items.append(item)
        traces |= item_traces
        size += len(item.raw) if isinstance(item, Record) else 0
    if items:
        yield _job(export, index, part_compression, items, traces)


def _job(export: Export, index: int, part_compression: str | None, items: list[Record | Skipped],
         traces: set[str]) -> BlockJob:
    return BlockJob(index, export.path, export.format, export.framing, part_compression, items, traces=traces)


def _traces(codec: RecordCodec, item: Record | Skipped) -> set[str]:
    if isinstance(item, Skipped):
        return set()
    return {trace_id for trace_id in codec.trace_ids(item) if trace_id is not None}


_UNSEEN = object()


def scrub_block(job: BlockJob, engine: Any) -> BlockResult:
    """Scrub every value of a block with one placeholder context per trace (fail closed: every string
    of a record is scrubbed unless the policy's structural allow list keeps it)."""
    codec = RecordCodec(job.format)
    contexts: dict[str | None, Any] = {}
    records: list[Record] = []
    skipped: list[Skipped] = []
    rewritten: set[int] = set()  # records whose bytes hold what their document does not
    spans = 0
    for item in job.items:
        if isinstance(item, Skipped):
            skipped.append(item)
            records.append(_redacted(item, job.framing))
            continue
        if item.doc is None:  # shipped as bytes (see BlockJob.__getstate__)
            item = Record(item.where, item.raw, codec.decode(item.raw), item.prefix, item.suffix)
        if codec.hidden(item):
            rewritten.add(len(records))
        spans += codec.count_spans(item)
        records.append(item)
    slots, plain_keys, misfits = [], [], 0
    # a 100 MB export has a million slots: the loops below look their methods up once
    is_structure, keep, note_key = engine.is_structure, slots.append, plain_keys.append
    for position, record in enumerate(records):
        if record.raw is REDACTED_LINE:
            continue
        for slot, path in codec.slots(record):
            field = slot.field
            if field is not None:
                if slot.value == "" or is_structure(field, slot.value):
                    if field == "key":
                        note_key((position, slot, path))
                    continue
                misfits += 1
            keep((position, slot, path))
    items = [(_context(contexts, slot.trace_id, job, engine),
              engine.object_key if slot.field == "key" else slot.key, slot.value) for _, slot, path in slots]
    # Learn first: every value found anywhere in the block is known to its trace's context before
    # any string is written, so a name detected late (the user's message) is also caught where it
    # came earlier (the root span's output).
    done = engine.scrub_items(items, learn=True)
    counts = done.report
    changes: dict[int, list[tuple[Any, str, str]]] = {}
    leaks = engine.leaks
    for (position, slot, path), (ctx, _, _), replacement in zip(slots, items, done.values):
        if type(replacement) is str and leaks(replacement, ctx):
            # the output check: a value this trace is known to hold is never written, whatever rule missed it
            replacement = engine.redacted
            counts.output_check_redacted += 1
        elif slot.field is not None and replacement == slot.value:
            # a structural field without its shape, in which nothing was recognised: not understood
            replacement = engine.redacted
            counts.misfits_redacted += 1
        if replacement != slot.value:
            changes.setdefault(position, []).append((path, replacement, slot.form))
    # The output check on the plain keys, once per key and trace (the same keys come back in every span):
    # a key in the shape of a name in code that is a value of this trace (a map keyed by user names) is
    # written as the value's placeholder, or redacted where it is not found as such.
    key_outputs: dict[tuple[str | None, str], str | None] = {}
    for position, slot, path in plain_keys:
        seen = (slot.trace_id, slot.value)
        replacement = key_outputs.get(seen, _UNSEEN)  # one lookup: every span repeats the same keys
        if replacement is _UNSEEN:
            ctx = _context(contexts, slot.trace_id, job, engine)
            replacement = None
            if engine.leaks(slot.value, ctx):
                replacement = engine.scrub_text(slot.value, ctx, counts=counts)
                replacement = engine.redacted if replacement == slot.value else replacement
            key_outputs[seen] = replacement
        if replacement is not None:
            changes.setdefault(position, []).append((path, replacement, slot.form))
            counts.output_check_redacted += 1
    # The records were decoded for this block alone: rewrite their documents in place.
    scrubbed = [codec.rewrite(record, changes.get(position, []), in_place=True, force=position in rewritten)
                for position, record in enumerate(records)]
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
        skipped=[scrubbed_skip(item, engine) for item in skipped],
        report=counts.model_dump(),
    )


def scrubbed_skip(item: Skipped, engine: Any) -> Skipped:
    """A skip note whose reason passes the same scrubber as data (a reason may quote a bad value)."""
    return Skipped(where=item.where, why=engine.scrub_text(item.why, engine.new_context()))


def string_slots(codec: RecordCodec, records: Iterable[Record]) -> list[Any]:
    """Every string slot of the records, in write order."""
    return [slot for record in records if record.raw is not REDACTED_LINE for slot, _ in codec.slots(record)]


def _context(contexts: dict, trace_id: str | None, job: BlockJob, engine: Any) -> Any:
    ctx = contexts.get(trace_id)  # one lookup: every slot of a block asks
    if ctx is None:
        ctx = contexts[trace_id] = engine.new_context()
        for entity, value in job.known.get(trace_id, ()):
            ctx.remember(entity, value)
    return ctx


CARRY_BLOCKS = 4
"""How many blocks back a trace's values under personal keys are looked for."""


class KnownValues:
    """Per trace, the values under personal keys its spans held in the last `CARRY_BLOCKS` blocks.

    Only traces that span blocks need them, so only their slots are harvested (keys only, no NER): the
    parent's share of the work stays small however many workers scrub.
    """

    def __init__(self, engine: Any, limit: int = 20_000) -> None:
        self._engine = engine
        self._limit = limit
        self._contexts: OrderedDict[str | None, Any] = OrderedDict()
        # the last blocks: their records, the traces in them, and the traces already harvested there
        self._recent: deque[tuple[list[Record], set[str], set[str]]] = deque(maxlen=CARRY_BLOCKS)
        self._split: OrderedDict[str | None, None] = OrderedDict()
        self.split_traces = 0
        """Traces seen in more than one block so far."""

    def annotate(self, job: BlockJob) -> BlockJob:
        """Attach to the job the known values of each of its traces that earlier blocks also hold."""
        codec = RecordCodec(job.format)
        records = [item for item in job.items if isinstance(item, Record)]
        traces = job.traces
        continuing: set[str] = set()
        for earlier, earlier_traces, harvested in self._recent:
            wanted = (traces & earlier_traces) - harvested
            continuing |= traces & earlier_traces
            if wanted:
                decoded = [Record(r.where, r.raw, codec.decode(r.raw)) for r in earlier]
                slots = [slot for slot in string_slots(codec, decoded) if slot.trace_id in wanted]
                self._engine.harvest([(self._context(slot.trace_id), slot.key, slot.value) for slot in slots])
                harvested |= wanted
        for trace_id in continuing - self._split.keys():
            self.split_traces += 1
            self._split[trace_id] = None
            if len(self._split) > self._limit:
                self._split.popitem(last=False)
        job.known = {t: self._contexts[t].known_values() for t in continuing if t in self._contexts}
        # Bytes only: the block's documents are scrubbed in place, and few blocks are ever harvested.
        self._recent.append(([Record(r.where, r.raw, None) for r in records], traces, set()))
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
