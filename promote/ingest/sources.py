"""Sources that are read once, in order: stdin, a FIFO, a process substitution, a character device.

Such a source cannot be opened a second time without losing or waiting for data: `Recording` keeps
what sniffing read so the records can be read from the start, `Digesting` hashes it as it is read (the
sha256 a draft names its export by), and `as_regular_file` gives readers that need the bytes twice a
private copy. `file_sha256` is the digest of a regular file.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

from promote.errors import PromoteError
from promote.ingest.containers import open_source


def is_stream(name: str, source: BinaryIO) -> bool:
    """True for stdin, a FIFO, a process substitution or a character device: a source that is read
    once, in order, and cannot be reopened or sought (a regular file can)."""
    if name == "-":
        return True
    try:
        return not stat.S_ISREG(os.fstat(source.fileno()).st_mode)
    except (OSError, ValueError):
        return True


class _Tap(io.RawIOBase):
    """A stream passed through as it is read, each piece shown to `_seen` on the way."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        data = self._stream.read(len(buffer))
        self._seen(data)
        buffer[: len(data)] = data
        return len(data)

    def _seen(self, data: bytes) -> None:
        raise NotImplementedError


class Recording(_Tap):
    """Keeps what sniffing read from stdin, so that the records can be read from the start."""

    def __init__(self, stream: BinaryIO) -> None:
        super().__init__(stream)
        self._parts: list[bytes] = []

    @property
    def data(self) -> bytes:
        return b"".join(self._parts)

    def _seen(self, data: bytes) -> None:
        self._parts.append(data)

    def close(self) -> None:  # sniffing must not close stdin
        pass


class Digesting(_Tap):
    """A source read once, hashed as it is read: `sha256` reads what is left into the hash, unparsed (a
    draft names its export by the digest of all of it, yet parses it only up to its trace)."""

    def __init__(self, stream: BinaryIO) -> None:
        super().__init__(stream)
        self._hash = hashlib.sha256()

    def _seen(self, data: bytes) -> None:
        self._hash.update(data)

    def sha256(self) -> str:
        for block in iter(lambda: self._stream.read(1 << 20), b""):
            self._hash.update(block)
        return self._hash.hexdigest()

    def close(self) -> None:  # stdin stays open (whoever opened a FIFO closes it)
        pass


def file_sha256(path: str | Path) -> str:
    """Hex sha256 of a regular file's bytes, read in blocks (exports can be large) and once per file
    version: batch drafting asks for it once per turn."""
    path = Path(path)
    try:
        stat_result = path.stat()
    except OSError as exc:
        raise PromoteError(f"cannot read the export: {exc.strerror}", where=str(path)) from None
    return _sha256_of(path.resolve(), stat_result.st_mtime_ns, stat_result.st_size)


@lru_cache(maxsize=16)
def _sha256_of(path: Path, _mtime_ns: int, _size: int) -> str:
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise PromoteError(f"cannot read the export: {exc.strerror}", where=str(path)) from None
    return digest.hexdigest()


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
