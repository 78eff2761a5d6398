"""Bytes in and out: opening a source and the framings that cut a stream into records.

Framings: JSON lines, a stream of JSON values (a pretty-printed document, console spans one after
another, the elements of a JSON array), and length-prefixed messages (4-byte big-endian length, the
Collector file exporter's protobuf and legacy-zstd output). Readers never hold more than one record
plus a read buffer, and turn a broken stream (truncated gzip, a bad zstd frame) into a `Broken` item
after the records before the break. Whole-stream compression (gzip, zstd) lives in `compression`.
"""

from __future__ import annotations

import codecs
import io
import json
import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import zstandard

from promote.errors import PromoteError
from promote.ingest.compression import READ_ERRORS

MAX_MESSAGE = 1 << 30
"""Largest length prefix taken as real (1 GiB); anything bigger means the file is not length-prefixed."""


@dataclass(slots=True)
class Frame:
    """One record's bytes: `number` is the line (text framings) or the record number (binary)."""

    number: int
    prefix: bytes
    raw: bytes
    doc: Any = None
    """The decoded value when the framing had to parse it anyway (JSON value streams)."""


@dataclass(slots=True)
class Broken:
    """Input that could not be cut into records (`number` as in Frame, None when unknown)."""

    number: int | None
    why: str


@dataclass(slots=True)
class Tail:
    """Bytes after the last record (trailing newline, closing bracket)."""

    data: bytes


def open_source(path: str | Path) -> BinaryIO:
    """The raw bytes of `path` (`-` is stdin); PromoteError when it cannot be read."""
    if str(path) == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")  # noqa: SIM115 - the caller closes it when the records are read
    except FileNotFoundError:
        raise PromoteError("file not found", where=str(path), hint="check the path") from None
    except IsADirectoryError:
        raise PromoteError("is a directory, not a trace export", where=str(path),
                           hint="name the export files") from None
    except OSError as error:
        raise PromoteError(f"cannot read file: {error.strerror}", where=str(path)) from None


class Replay(io.RawIOBase):
    """A stream that first returns bytes already read (for sniffing) and then the rest of `stream`."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        self._head = memoryview(head)
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        if self._head:
            count = min(len(buffer), len(self._head))
            buffer[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        data = self._stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def read_head(stream: BinaryIO, size: int) -> tuple[bytes, str | None]:
    """Up to `size` bytes, and the error that stopped the read early, if any."""
    parts: list[bytes] = []
    total = 0
    try:
        while total < size:
            data = stream.read(min(size - total, 1 << 16))  # small reads: a damaged stream loses little
            if not data:
                break
            parts.append(data)
            total += len(data)
    except READ_ERRORS as error:
        return b"".join(parts), str(error) or type(error).__name__
    return b"".join(parts), None


MAX_RECORD = 64 << 20
"""Longest line or JSON value taken as one record (64 MiB): a longer one is reported and skipped, never held
whole (a decompression bomb is one endless line)."""


def _lines(stream: BinaryIO, limit: int) -> Iterator[bytes | None]:
    """The stream's lines; None for a line longer than `limit`, whose bytes are read and dropped."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith(b"\n"):
            yield line
            continue
        while line and not line.endswith(b"\n"):
            line = stream.readline(1 << 20)
        yield None


def iter_lines(stream: BinaryIO, limit: int = MAX_RECORD) -> Iterator[Frame | Broken | Tail]:
    """JSON lines; blank lines and line ends go into the next record's prefix.

    A last line without its newline is held back until the stream has ended cleanly: when a read error
    follows it, it is the cut-off part of a record and is reported with the error, not as a record.
    """
    gap = b""
    number = 0
    held: Frame | None = None
    try:
        for line in _lines(stream, limit):
            number += 1
            if line is None:
                yield Broken(number, f"line longer than {limit >> 20} MiB: skipped (a record this long is "
                             "not a trace export's; split the export, or check the file)")
                continue
            body = line[:-1] if line.endswith(b"\n") else line
            if body.endswith(b"\r"):
                body = body[:-1]
            if not body.strip():
                gap += line
                continue
            frame = Frame(number, gap, body)
            gap = line[len(body) :]
            if line.endswith(b"\n"):
                yield frame
            else:
                held = frame
    except READ_ERRORS as error:
        where = held.number if held is not None else number + 1
        yield Broken(where, f"input ends early or is damaged ({error}); records from here on are lost")
        return
    if held is not None:
        yield held
    yield Tail(gap)


_GAP_CHARS = frozenset(" \t\r\n[],")
"""What may stand between top-level values: whitespace and the punctuation of an enclosing array."""


def iter_values(stream: BinaryIO, chunk: int = 1 << 16) -> Iterator[Frame | Broken | Tail]:
    """JSON values one after another (console spans, a pretty document) or the elements of an array.

    A value that does not parse is reported and reading resumes at the next line that opens an object
    at the same indentation as the first value.
    """
    decoder = json.JSONDecoder()
    text_decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    buf, pos, gap_start = "", 0, 0
    line, counted = 1, 0  # `line` is the line number at buffer offset `counted`
    eof, read_error, want = False, None, chunk
    resync: str | None = None

    def fill(size: int) -> None:
        nonlocal buf, eof, read_error
        try:
            data = stream.read(size)
        except READ_ERRORS as error:
            data, read_error = b"", str(error) or type(error).__name__
        eof = not data
        buf += text_decoder.decode(data, final=eof)

    def line_at(offset: int) -> int:
        nonlocal line, counted
        line += buf.count("\n", counted, offset)
        counted = offset
        return line

    fill(want)
    while True:
        while True:
            while pos < len(buf) and buf[pos] in _GAP_CHARS:
                pos += 1
            if pos < len(buf) or eof:
                break
            fill(want)
        if pos >= len(buf):
            break
        try:
            try:
                value, value_end = decoder.raw_decode(buf, pos)
            except RecursionError:
                raise json.JSONDecodeError("nested too deeply to read", buf, len(buf)) from None
        except json.JSONDecodeError as error:
            incomplete = error.pos >= len(buf) - 1 or error.msg.startswith("Unterminated string")
            incomplete = incomplete and not error.msg.startswith("nested")
            if incomplete and not eof:
                if len(buf) - pos > MAX_RECORD:
                    yield Broken(line_at(pos),
                                 f"a JSON value longer than {MAX_RECORD >> 20} MiB: the rest of "
                                 "the file is not read (split the export, or check the file)")
                    return
                want *= 2  # doubling keeps re-parsing a large value linear overall
                fill(want)
                continue
            if read_error is None:
                yield Broken(line_at(pos), f"not valid JSON ({error.msg})")
            marker = resync or "\n{"
            next_start = buf.find(marker, pos + 1)
            while next_start < 0 and not eof:
                pos = max(pos, len(buf) - len(marker))
                fill(want)
                next_start = buf.find(marker, pos + 1)
            if next_start < 0:
                break
            gap_start = pos = next_start + 1
            continue
        if resync is None:
            indent_start = buf.rfind("\n", 0, pos) + 1
            resync = "\n" + buf[indent_start:pos] + "{"
        prefix = buf[gap_start:pos].encode("utf-8", "surrogateescape")
        yield Frame(line_at(pos), prefix, buf[pos:value_end].encode("utf-8", "surrogateescape"), value)
        pos = gap_start = value_end
        want = chunk
        if pos > chunk and pos * 2 > len(buf):
            line_at(pos)
            buf, pos, gap_start, counted = buf[pos:], 0, 0, 0
    if read_error is not None:
        yield Broken(line_at(pos),
                     f"input ends early or is damaged ({read_error}); records after this point are lost")
    yield Tail(buf[gap_start:].encode("utf-8", "surrogateescape"))


def iter_length_prefixed(stream: BinaryIO, *, zstd_frames: bool) -> Iterator[Frame | Broken]:
    """4-byte big-endian length + message; with `zstd_frames` each message is a zstd frame of its own."""
    decompressor = zstandard.ZstdDecompressor()
    number = 0
    while True:
        number += 1
        try:
            header = stream.read(4)
            if not header:
                return
            if len(header) < 4:
                yield Broken(number, "the file ends inside a length prefix (truncated)")
                return
            (length,) = struct.unpack(">I", header)
            if length > MAX_MESSAGE:
                yield Broken(number,
                             f"length prefix {length} is not plausible; the rest of the file is not readable")
                return
            body = stream.read(length)
        except READ_ERRORS as error:
            yield Broken(number, f"input ends early or is damaged ({error})")
            return
        if len(body) < length:
            yield Broken(number, f"truncated message: {len(body)} of {length} bytes")
            return
        if zstd_frames:
            try:
                body = decompressor.decompressobj().decompress(body)
            except zstandard.ZstdError as error:
                yield Broken(number, f"zstd frame does not decompress ({error})")
                continue
        yield Frame(number, b"", body)


def framed(raw: bytes, compressor: zstandard.ZstdCompressor | None) -> bytes:
    """One length-prefixed message, zstd-compressed first when a compressor is given."""
    body = compressor.compress(raw) if compressor is not None else raw
    return struct.pack(">I", len(body)) + body
