"""Whole-stream compression of an export: telling it from the first bytes, reading through it, writing it.

gzip and zstd, one stream member after another; the Collector's per-message zstd behind a length
prefix ("zstd-framed") is a framing, read in `containers`.
"""

from __future__ import annotations

import gzip
import io
import zlib
from typing import Any, BinaryIO

import zstandard

GZIP_MAGIC = b"\x1f\x8b"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
READ_ERRORS = (EOFError, OSError, zlib.error, zstandard.ZstdError)  # TruncatedInput is an EOFError
"""What a decompressing stream raises on damaged input."""


def sniff_compression(head: bytes) -> str | None:
    """gzip, zstd (one stream), zstd-framed (length prefix + zstd frame per message) or None."""
    if head.startswith(GZIP_MAGIC):
        return "gzip"
    if head.startswith(ZSTD_MAGIC):
        return "zstd"
    if len(head) >= 8 and head[4:8] == ZSTD_MAGIC:
        return "zstd-framed"
    return None


def decompressed(stream: BinaryIO, compression: str | None) -> BinaryIO:
    """A buffered stream of the content (for zstd-framed: the raw stream; frames are read one by one)."""
    if compression in ("gzip", "zstd"):
        content = _Decompressing(stream, compression)
        return io.BufferedReader(content, buffer_size=1 << 20)  # type: ignore[arg-type]
    if isinstance(stream, io.BufferedIOBase):
        return stream
    return io.BufferedReader(stream, buffer_size=1 << 20)  # type: ignore[arg-type]


class TruncatedInput(EOFError):
    """The compressed input ends (or breaks) before its end-of-stream marker."""


class _Decompressing(io.RawIOBase):
    """gzip or zstd content, one stream member after another, that hands out everything decompressed
    before a cut or a damaged block and only then raises `TruncatedInput` (Python's GzipFile and
    zstandard's reader drop the data of the unfinished block)."""

    def __init__(self, stream: BinaryIO, compression: str) -> None:
        self._stream = stream
        self._compression = compression
        self._member = self._new_member()
        self._pending = b""
        self._started = False
        self._done = False
        self._error: TruncatedInput | None = None
        self._told_eof = False
        self._handed_out = False

    def _new_member(self) -> Any:
        if self._compression == "gzip":
            return zlib.decompressobj(wbits=31)
        return zstandard.ZstdDecompressor().decompressobj()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        while not self._pending and not self._done:
            self._pending = self._step()
        if not self._pending and self._error is not None:
            # First an end of file, so that a buffered reader hands out what it holds; the error on the
            # read after it, so that the reader's caller learns where the data stops.
            if not self._told_eof and self._handed_out:
                self._told_eof = True
                return 0
            error, self._error = self._error, None
            raise error
        count = min(len(buffer), len(self._pending))
        buffer[:count] = self._pending[:count]
        self._pending = self._pending[count:]
        self._handed_out = self._handed_out or count > 0
        return count

    def _step(self) -> bytes:
        chunk = self._stream.read(1 << 16)
        if not chunk:
            self._done = True
            if self._started:
                self._error = TruncatedInput(f"the {self._compression} data ends before its end "
                                             "marker (truncated)")
            return b""
        out = []
        while chunk:
            if not self._started and not chunk.strip(b"\0"):
                break  # zero padding after the last member, as some writers leave it
            self._started = True
            try:
                out.append(self._member.decompress(chunk))
            except (zlib.error, zstandard.ZstdError) as error:
                self._done = True
                self._error = TruncatedInput(f"damaged {self._compression} data ({error})")
                break
            if not self._member.eof:
                break
            chunk = self._member.unused_data
            self._member = self._new_member()
            self._started = False
        return b"".join(out)


class CompressedWriter:
    """Writes content to `out` with the given whole-stream compression (gzip, zstd or none)."""

    def __init__(self, out: BinaryIO, compression: str | None) -> None:
        self._out = out
        self._inner: BinaryIO
        if compression == "gzip":
            gzip_writer = gzip.GzipFile(filename="", fileobj=out, mode="wb", mtime=0)
            self._inner = gzip_writer  # type: ignore[assignment]
        elif compression == "zstd":
            zstd_writer = zstandard.ZstdCompressor().stream_writer(out, closefd=False)
            self._inner = zstd_writer  # type: ignore[assignment]
        else:
            self._inner = out
        self.write = self._inner.write

    def finish(self) -> None:
        """Flush the compressor's end of stream; `out` itself stays open."""
        if self._inner is not self._out:
            self._inner.close()
        self._out.flush()
