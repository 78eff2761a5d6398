"""Open any trace export by content, read it as records and spans, rewrite it, write it back.

This is the one place where an export format becomes our `Span` ("convert at the boundary"); the
batch scrubber uses the same `Export` to rewrite string values in place and `write_export` to write
the result in the input's own format, framing and compression.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import stat
import shutil
import struct
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

import zstandard

from promote.errors import PromoteError
from promote.ingest.containers import (
    MAX_MESSAGE,
    Broken,
    CompressedWriter,
    Frame,
    Replay,
    Tail,
    decompressed,
    framed,
    iter_length_prefixed,
    iter_lines,
    iter_values,
    open_source,
    read_head,
    sniff_compression,
)
from promote.ingest.formats import CODECS
from promote.ingest.formats.base import Path as SlotPath
from promote.ingest.formats.base import Record, StringSlot, place
from promote.ingest.formats.otlp_proto import looks_like_request
from promote.trace_formats import FORMAT_NAMES
from promote.trace_model import Skipped, Span

FORMATS = tuple(FORMAT_NAMES)
COMPRESSIONS = (None, "gzip", "zstd", "zstd-framed")
NOTHING_FOUND = (
    "no trace data found: not OTLP JSON/JSON lines/protobuf, Jaeger, Tempo, console output, a Monocle "
    "JSON array or a Langfuse trace export"
)
_MONOCLE_MARK = b'"monocle_apptrace.'
MAX_DEPTH = 64
"""Deepest nesting read in a record (OTLP's own nesting is under 15 levels; an AnyValue kvlist may add
some): deeper documents are skipped with their file:line, and `scrub` redacts them whole."""
_HEAD = 1 << 20
_MAX_FIRST_LINE = 64 << 20
_KEY = re.compile(rb'"([A-Za-z_][A-Za-z0-9_.]*)"\s*:')
_ADK_DEV_ID = re.compile(rb'"span_id"\s*:\s*\d')


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
        return hidden is not None and hidden(record.doc, record.raw)

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
                 stream: BinaryIO | None = None) -> None:
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
        doc = frame.doc
        if doc is None:
            try:
                doc = self._codec.decode(frame.raw)
            except RecursionError:
                return Skipped(where=where, why=f"nested deeper than {MAX_DEPTH} levels: not read")
            except ValueError as error:
                what = "not JSON" if self.format != "otlp-proto" else "not readable"
                return Skipped(where=where, why=f"{what}: {error}")
        if self.format != "otlp-proto" and too_deep(doc, MAX_DEPTH):
            return Skipped(where=where, why=f"nested deeper than {MAX_DEPTH} levels: not read")
        why = self._codec.check(doc)
        if why is not None:
            return Skipped(where=where, why=why)
        return Record(where=where, raw=frame.raw, doc=doc, prefix=frame.prefix)


def open_export(path: str | Path) -> Export:
    """Sniff an export's compression and format from its content (never its name); `-` is stdin.

    Raises PromoteError when the file cannot be read, is empty, or is no known trace format.
    """
    name = str(path)
    source = open_source(name)
    if not is_stream(name, source):
        try:
            format, compression, framing = _sniff(name, source)
        finally:
            source.close()
        return Export(name, format, compression, framing)
    recorded = _Recording(source)
    try:
        format, compression, framing = _sniff(name, recorded)  # type: ignore[arg-type]
    except BaseException:
        if name != "-":
            source.close()
        raise
    replay = io.BufferedReader(Replay(recorded.data, source), buffer_size=1 << 20)  # type: ignore[arg-type]
    return Export(name, format, compression, framing, replay)


def too_deep(doc: object, limit: int) -> bool:
    """True when lists and objects nest more than `limit` levels (walked without recursion)."""
    stack = [(doc, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            stack.extend((child, depth + 1) for child in node.values() if isinstance(child, (dict, list)))
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node if isinstance(child, (dict, list)))
    return False


def is_stream(name: str, source: BinaryIO) -> bool:
    """True for stdin, a FIFO, a process substitution or a character device: a source that is read
    once, in order, and cannot be reopened or sought (a regular file can)."""
    if name == "-":
        return True
    try:
        return not stat.S_ISREG(os.fstat(source.fileno()).st_mode)
    except (OSError, ValueError):
        return True


class _Recording(io.RawIOBase):
    """Keeps what sniffing read from stdin, so that the records can be read from the start."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._parts: list[bytes] = []

    @property
    def data(self) -> bytes:
        return b"".join(self._parts)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        data = self._stream.read(len(buffer))
        self._parts.append(data)
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:  # sniffing must not close stdin
        pass


def _sniff(name: str, raw: BinaryIO) -> tuple[str, str | None, str]:
    magic, _ = read_head(raw, 8)
    compression = sniff_compression(magic)
    stream = io.BufferedReader(Replay(magic, raw))  # type: ignore[arg-type]
    if compression == "zstd-framed":
        first = next(iter_length_prefixed(stream, zstd_frames=True), None)
        if isinstance(first, Frame):
            kind = _sniff_content(first.raw, complete=True)
            if kind is not None:
                format, _ = kind
                return ("otlp-jsonl" if format == "otlp-json" else format), compression, "length-prefixed"
        raise PromoteError(NOTHING_FOUND, where=name, hint="the file looks like zstd frames behind length "
                                                           "prefixes, but the first frame holds no traces")
    content = decompressed(stream, compression)
    head, error = read_head(content, _HEAD)
    while (
        error is None
        and len(head) < _MAX_FIRST_LINE
        and b"\n" not in head.strip()
        and len(head) % _HEAD == 0
        and head
    ):
        more, error = read_head(content, len(head))
        if not more:
            break
        head += more
    complete = error is None and len(head) % _HEAD != 0
    if not head.strip() and error is not None:
        raise PromoteError(f"cannot read: {error}; nothing readable comes before that point", where=name,
                           hint="the file was cut or damaged in transfer: export it again")
    if not head.strip():
        raise PromoteError("empty file" + (" after decompression" if compression else ""), where=name,
                           hint="the exporter wrote nothing here; check its output path")
    kind = _sniff_content(head, complete)
    if kind is None and not head.lstrip()[:1] in (b"{", b"["):
        kind = _sniff_proto(head, content)
    if kind is None:
        raise PromoteError(NOTHING_FOUND, where=name, hint="see `promote traces --help` for the formats read")
    format, framing = kind
    return format, compression, framing


def _sniff_proto(head: bytes, content: BinaryIO) -> tuple[str, str] | None:
    if len(head) < 5:
        return None
    (length,) = struct.unpack(">I", head[:4])
    # An ExportTraceServiceRequest opens with field 1 (resource_spans, length-delimited): tag 0x0a.
    # Checking it first keeps random bytes from making us read a "message" of up to 1 GiB.
    if not 0 < length <= MAX_MESSAGE or head[4] != 0x0A:
        return None
    if len(head) - 4 < length:
        more, _ = read_head(content, length - (len(head) - 4))
        head += more
    return ("otlp-proto", "length-prefixed") if looks_like_request(head[4 : 4 + length]) else None


def _sniff_content(head: bytes, complete: bool) -> tuple[str, str] | None:
    """(format, framing) of decompressed text, or None when it is not a known JSON shape."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:1] not in (b"{", b"["):
        return None
    lines = text.split(b"\n", 64)
    whole_lines = lines if complete else lines[:-1]
    filled = [line for line in whole_lines[:64] if line.strip()]
    for line in filled:
        try:
            doc = json.loads(line)
        except RecursionError:
            continue
        except ValueError:
            if line.strip() in (b"{", b"["):
                break  # a pretty-printed document
            continue
        family = _family(doc)
        if family is None:
            continue
        if family == "console" and _MONOCLE_MARK in text[:_HEAD]:
            family = "monocle"
        if isinstance(doc, list):
            return family, "values"
        if family == "otlp-json":
            return ("otlp-json" if complete and len(filled) == 1 else "otlp-jsonl"), "lines"
        return family, "lines"
    family = _family_from_keys(text[:_HEAD])
    if family == "console" and text[:1] == b"[" and _MONOCLE_MARK in text[:_HEAD]:
        family = "monocle"
    return (family, "values") if family else None


def _family(doc: object) -> str | None:
    if isinstance(doc, list):
        return next((_family(item) for item in doc[:1] if isinstance(item, dict)), None)
    if not isinstance(doc, dict):
        return None
    if "batches" in doc:
        return "tempo"
    if any(key in doc for key in ("resourceSpans", "resource_spans", "scopeSpans", "scope_spans",
                                  "instrumentationLibrarySpans")):
        return "otlp-json"
    if isinstance(doc.get("data"), list):
        return "jaeger"
    if isinstance(doc.get("context"), dict):
        return "console"
    if isinstance(doc.get("observations"), list) and (isinstance(doc.get("trace"), dict) or "id" in doc):
        return "langfuse"  # {"trace", "observations"}, or the API's TraceWithFullDetails
    if "span_id" in doc and "trace_id" in doc:
        return "adk-dev"
    return None


def _family_from_keys(text: bytes) -> str | None:
    """The format of a pretty-printed document from the keys near its start."""
    keys = [match.group(1) for match in _KEY.finditer(text, 0, 1 << 16)]
    first = keys[0] if keys else b""
    if first == b"batches":
        return "tempo"
    if first in (b"resourceSpans", b"resource_spans", b"resource"):
        return "otlp-json"
    if first == b"data" and b"traceID" in keys:
        return "jaeger"
    if b"context" in keys and b"trace_id" in keys:
        return "console"
    if b"observations" in keys and (first in (b"trace", b"observations") or b"parentObservationId" in keys):
        return "langfuse"
    if _ADK_DEV_ID.search(text, 0, 1 << 16):
        return "adk-dev"
    return None


def write_export(records: Iterable[Record], out: BinaryIO | str | Path, *, format: str,
                 compression: str | None) -> None:
    """Write records in the framing, format and compression they were read with.

    Unchanged records are written as their original bytes, so rewriting with nothing changed
    reproduces the decompressed input byte for byte (a compressed container is compressed anew).
    `out` is a binary stream (left open), a path, or `-` for stdout.
    """
    if format not in FORMATS or compression not in COMPRESSIONS:
        raise ValueError(f"unknown format {format!r} or compression {compression!r}")
    to_close = None
    if isinstance(out, (str, Path)):
        if str(out) == "-":
            out = sys.stdout.buffer
        else:
            out = to_close = open(out, "wb")  # noqa: SIM115 - closed below
    try:
        if compression == "zstd-framed":
            compressor = zstandard.ZstdCompressor()
            for record in records:
                out.write(framed(record.raw, compressor))
            out.flush()
            return
        writer = CompressedWriter(out, compression)
        if format == "otlp-proto":
            for record in records:
                writer.write(framed(record.raw, None))
        else:
            for record in records:
                writer.write(record.prefix + record.raw + record.suffix)
        writer.finish()
    finally:
        if to_close is not None:
            to_close.close()


@contextlib.contextmanager
def as_regular_file(path: str | Path) -> Iterator[Path]:
    """`path` itself when it is a regular file; for stdin, a FIFO or a process substitution, a private
    temporary copy of the whole stream (for readers that need the bytes twice, e.g. a draft that
    records the export's sha256), removed afterwards."""
    name = str(path)
    source = open_source(name)
    try:
        if not is_stream(name, source):
            source.close()
            yield Path(name)
            return
        with tempfile.TemporaryDirectory(prefix="promote-stream-") as folder:
            copy = Path(folder) / ("stdin" if name == "-" else Path(name).name or "stream")
            with open(copy, "wb") as out:
                shutil.copyfileobj(source, out, 1 << 20)
            yield copy
    finally:
        if name != "-":
            source.close()
