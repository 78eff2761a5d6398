"""Open any trace export by content, read it as records and spans, rewrite it.

This is the one place where an export format becomes our `Span` ("convert at the boundary"); the
batch scrubber uses the same `Export` to rewrite string values in place and `write_export` to write
the result in the input's own format, framing and compression. What an export is comes from
`promote.ingest.sniff`; sources read once (stdin, FIFOs) from `promote.ingest.sources`; writing from
`promote.ingest.writer`.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from promote.errors import PromoteError
from promote.ingest.compression import decompressed
from promote.ingest.containers import (
    Broken,
    Frame,
    Replay,
    Tail,
    iter_length_prefixed,
    iter_lines,
    iter_values,
    open_source,
)
from promote.ingest.formats import CODECS
from promote.ingest.formats.base import Path as SlotPath
from promote.ingest.formats.base import Record, StringSlot, place
from promote.ingest.sniff import sniff
from promote.ingest.sources import Digesting, Recording, file_sha256, is_stream
from promote.trace_model import Skipped, Span

MAX_DEPTH = 64
"""Deepest nesting read in a record (OTLP's own nesting is under 15 levels; an AnyValue kvlist may add
some): deeper documents are skipped with their file:line, and `scrub` redacts them whole."""


class RecordCodec:
    """What can be done with the records of one format without the file: decode a record's bytes, list
    its spans, trace ids and string values, and re-encode it with replacements (batch workers get
    records as bytes and need only this)."""

    def __init__(self, format: str) -> None:
        self.format = format
        """otlp-json, otlp-jsonl, otlp-proto, jaeger, tempo, console or adk-dev."""
        self._codec = CODECS[format]

    def decode(self, raw: bytes) -> object:
        """A record's document from its bytes (a record shipped to another process as bytes only)."""
        return self._codec.decode(raw)

    def trace_ids(self, record: Record) -> set[str | None]:
        """The trace ids the record's string values belong to (a codec may list them without a walk)."""
        listed = getattr(self._codec, "trace_ids", None)
        if listed is not None:
            return listed(record.doc)
        return {slot.trace_id for slot, _ in self._codec.slots(record.doc)}

    def count_spans(self, record: Record) -> int:
        """How many spans the record holds, for counts: what `spans` gives, without building them where
        the codec can tell (OTLP JSON counts every span with valid ids, also one with other bad fields)."""
        counted = getattr(self._codec, "count_spans", None)
        if counted is not None:
            return counted(record.doc)
        return sum(1 for _ in self._codec.spans(record.doc, record.where, None))

    def spans(self, record: Record, skipped: list[Skipped] | None = None) -> Iterator[Span]:
        """Our spans of one record; spans that cannot be used are noted in `skipped`."""
        return self._codec.spans(record.doc, record.where, skipped)

    def hidden(self, record: Record) -> bool:
        """True when the record's bytes hold what its decoded document does not (the first copy of a
        duplicate JSON key, unknown protobuf fields, which are dropped): it must be written anew."""
        hidden = getattr(self._codec, "hidden", None)
        return hidden is not None and hidden(record.doc, record.raw, members=record.members)

    def slots(self, record: Record) -> Iterator[tuple[StringSlot, SlotPath]]:
        """Every string, key and number of the record (names, trace state, unknown fields, ids and times
        too: see `StringSlot`), with the path to each; which are structure is the scrub policy's call."""
        return self._codec.slots(record.doc)

    def rewrite(self, record: Record, changes: list[tuple[SlotPath, str, str]], *, in_place: bool = False,
                force: bool = False) -> Record:
        """The record with each (path, replacement, slot form) applied and re-encoded the way it came.

        No change (and not `force`): the record itself, with its original bytes. `in_place` changes the
        record's own document (for a caller that no longer needs it) instead of decoding a copy; `force`
        re-encodes the document even unchanged (its bytes held what the document does not: a
        duplicate key's first copy, unknown protobuf fields).
        """
        if not changes and not force:
            return record
        # a fresh copy is cheaper than deepcopy, and leaves `record` intact
        doc = record.doc if in_place else self._codec.decode(record.raw)
        # keys are renamed last, the deepest first: the paths of the other changes name the old keys
        renames = sorted((c for c in changes if c[2] == "key"), key=lambda c: -len(c[0]))
        for path, replacement, form in [*(c for c in changes if c[2] != "key"), *renames]:
            place(doc, path, form, replacement)
        raw = self._codec.encode(doc, record.raw)
        return Record(where=record.where, raw=raw, doc=doc, prefix=record.prefix, suffix=record.suffix)


class Export(RecordCodec):
    """One export file: its format and compression, read lazily record by record."""

    def __init__(self, path: str, format: str, compression: str | None, framing: str,
                 stream: BinaryIO | None = None, digest: Digesting | None = None) -> None:
        super().__init__(format)
        self.path = path
        """The file as given (`-` for stdin)."""
        self.compression = compression
        """None, gzip, zstd or zstd-framed (the Collector's per-message zstd behind a length prefix)."""
        self.framing = framing
        """How records are cut: lines, values (JSON values / array elements) or length-prefixed."""
        self._stream = stream
        """For stdin, a FIFO or a process substitution: the one open stream, replaying what sniffing
        read (such a source cannot be opened a second time without losing or waiting for data)."""
        self._digest = digest

    def sha256(self) -> str:
        """The sha256 of the whole export: a file's, or a stream's (what was read, and the rest, read
        now without being parsed)."""
        return self._digest.sha256() if self._digest is not None else file_sha256(self.path)

    def __repr__(self) -> str:
        return f"Export({self.path!r}, format={self.format!r}, compression={self.compression!r})"

    def _open(self) -> BinaryIO:
        if self._stream is None and self.path != "-":
            return open_source(self.path)
        if self._stream is None:
            raise PromoteError("a stream can be read only once", where=self.path,
                               hint="save it to a file to read it twice")
        stream, self._stream = self._stream, None
        return stream

    def records(self) -> Iterator[Record | Skipped]:
        """The records in file order, with a Skipped entry for each part that cannot be read.

        Streaming: only the current record (and, to attach the file's trailing bytes, the one before it)
        is held in memory.
        """
        binary = self.framing == "length-prefixed"
        stream = self._open()
        try:
            if self.compression == "zstd-framed":
                items: Iterator[Frame | Broken | Tail] = iter_length_prefixed(stream, zstd_frames=True)
            else:
                content = decompressed(stream, self.compression)
                if binary:
                    items = iter_length_prefixed(content, zstd_frames=False)
                else:
                    items = (iter_lines if self.framing == "lines" else iter_values)(content)
            pending: Record | None = None
            for item in items:
                if isinstance(item, Tail):
                    if pending is not None:
                        pending.suffix = item.data
                    continue
                where = f"{self.path}:#{item.number}" if binary else f"{self.path}:{item.number}"
                if isinstance(item, Broken):
                    if pending is not None:
                        yield pending
                        pending = None
                    yield Skipped(where=where if item.number is not None else self.path, why=item.why)
                    continue
                record_or_skip = self._record(item, where)
                if isinstance(record_or_skip, Skipped):
                    if pending is not None:  # file order: the record before the bad one comes first
                        yield pending
                        pending = None
                    yield record_or_skip
                    continue
                if pending is not None:
                    yield pending
                pending = record_or_skip
            if pending is not None:
                yield pending
        finally:
            stream.close()

    def _record(self, frame: Frame, where: str) -> Record | Skipped:
        doc, decoded_here = frame.doc, frame.doc is None
        if doc is None:
            try:
                doc = self._codec.decode(frame.raw)
            except RecursionError:
                return Skipped(where=where, why=f"nested deeper than {MAX_DEPTH} levels: not read")
            except ValueError as error:
                what = "not JSON" if self.format != "otlp-proto" else "not readable"
                return Skipped(where=where, why=f"{what}: {error}")
        members = None
        if self.format != "otlp-proto":
            members = object_members(doc, MAX_DEPTH)
            if members is None:
                return Skipped(where=where, why=f"nested deeper than {MAX_DEPTH} levels: not read")
        why = self._codec.check(doc)
        if why is not None:
            return Skipped(where=where, why=why)
        # the members counted are those of what `raw` decodes to only where it was decoded here
        return Record(where=where, raw=frame.raw, doc=doc, prefix=frame.prefix,
                      members=members if decoded_here else None)


def open_export(path: str | Path) -> Export:
    """Sniff an export's compression and format from its content (never its name); `-` is stdin.

    Raises PromoteError when the file cannot be read, is empty, or is no known trace format.
    """
    name = str(path)
    source = open_source(name)
    if not is_stream(name, source):
        try:
            format, compression, framing = sniff(name, source)
        finally:
            source.close()
        return Export(name, format, compression, framing)
    digesting = Digesting(source)
    recorded = Recording(digesting)  # type: ignore[arg-type]
    try:
        format, compression, framing = sniff(name, recorded)  # type: ignore[arg-type]
    except BaseException:
        if name != "-":
            source.close()
        raise
    replay = io.BufferedReader(Replay(recorded.data, digesting),  # type: ignore[arg-type]
                               buffer_size=1 << 20)
    return Export(name, format, compression, framing, replay, digest=digesting)


def object_members(doc: object, limit: int) -> int | None:
    """How many members the objects of `doc` hold in all, or None when lists and objects nest more than
    `limit` levels (one walk, level by level and without recursion, tells both)."""
    level = [doc] if isinstance(doc, (dict, list)) else []
    members = depth = 0
    while level:
        if depth > limit:
            return None
        below: list = []
        append = below.append
        for node in level:  # plain loops: 40 % faster here than a comprehension per node
            if isinstance(node, dict):
                members += len(node)
                node = node.values()
            for child in node:
                if isinstance(child, (dict, list)):
                    append(child)
        level, depth = below, depth + 1
    return members
