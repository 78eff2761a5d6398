"""The sha256 of an export file (a draft's provenance names the export by it)."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from promote.errors import PromoteError


def file_sha256(path: str | Path) -> str:
    """Hex sha256 of a file's bytes, read in blocks (exports can be large) and once per file version:
    batch drafting asks for it once per turn."""
    path = Path(path)
    try:
        stat = path.stat()
    except OSError as exc:
        raise PromoteError(f"cannot read the export: {exc.strerror}", where=str(path)) from None
    return _sha256_of(path.resolve(), stat.st_mtime_ns, stat.st_size)


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
