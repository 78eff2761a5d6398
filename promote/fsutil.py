"""Atomic file writes: a temp file beside the target, fsync, then rename over it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace `path` with `data` so that readers see the old file or the new one, never half.

    `mode`: the permission bits the file gets (the temp file is private until then)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if mode is not None:
            os.fchmod(handle, mode)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """Text form of `atomic_write_bytes` (UTF-8, newlines as given)."""
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)
