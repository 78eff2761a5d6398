"""Atomic file writes: a temp file beside the target, fsync, then rename over it.

Every file the tool writes goes through here (or through `TargetFile` for streamed output), so each
write keeps the same promises: readers see the old file or the new one, never half; a replaced file
keeps its mode, a new one gets the umask's; a symlink is written through, not replaced by a file;
an error names the path and what to do, instead of ending in a traceback.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import BinaryIO

from promote.errors import PromoteError

PARTIAL_SUFFIX = ".partial"


def resolve_target(path: Path) -> Path:
    """The file a write to `path` must replace: a symlink's target (the link stays a link)."""
    path = Path(path)
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def target_mode(path: Path) -> int:
    """The mode the written file gets: the replaced file's own, else what the umask allows."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def write_error(path: Path, error: OSError) -> PromoteError:
    """An OSError from writing `path` as a message a user can act on."""
    hints = {
        errno.ENOSPC: "free some space on that disk, or write elsewhere",
        errno.EFBIG: "the file is larger than this system allows (a file-size limit, or a full disk)",
        errno.EDQUOT: "the disk quota is used up",
        errno.EACCES: "check the folder's permissions, or write elsewhere",
        errno.EPERM: "the folder or file is protected (immutable or read-only); write elsewhere",
        errno.EROFS: "the file system is read-only; write elsewhere",
        errno.EISDIR: "name a file, not a folder",
        errno.ENOTDIR: "a part of the path is a file, not a folder",
    }
    return PromoteError(f"cannot write: {error.strerror or error}", where=str(path),
                        hint=hints.get(error.errno or 0))


class TargetFile:
    """A file written in pieces and committed at the end: a temp file beside the target, renamed over
    it by `commit()`, removed by `discard()` (and on any error in a `with` block)."""

    def __init__(self, path: Path) -> None:
        self.target = resolve_target(Path(path))
        if self.target.is_dir():
            raise PromoteError("is a folder", where=str(path), hint="name a file to write")
        self._mode = target_mode(self.target)
        try:
            self.target.parent.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(prefix=f".{self.target.name}.{os.getpid()}.",
                                            suffix=PARTIAL_SUFFIX, dir=self.target.parent)
        except OSError as error:
            raise write_error(self.target, error) from None
        self.temp = Path(temp)
        self.stream: BinaryIO = os.fdopen(handle, "wb")

    def __enter__(self) -> "TargetFile":
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()

    def commit(self) -> None:
        try:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            os.chmod(self.temp, self._mode)
            os.replace(self.temp, self.target)
        except OSError as error:
            self.discard()
            raise write_error(self.target, error) from None

    def discard(self) -> None:
        try:
            self.stream.close()
        except OSError:
            pass
        self.temp.unlink(missing_ok=True)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that readers see the old file or the new one, never half."""
    target = TargetFile(path)
    try:
        target.stream.write(data)
    except OSError as error:
        target.discard()
        raise write_error(target.target, error) from None
    except BaseException:
        target.discard()
        raise
    target.commit()


def atomic_write_text(path: Path, text: str) -> None:
    """Text form of `atomic_write_bytes` (UTF-8, newlines as given)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def remove_stale_partials(target: Path) -> int:
    """Remove the temp files an earlier, killed run left beside `target` (its own name only, and only
    those whose writing process is gone); the count removed."""
    target = resolve_target(Path(target))
    removed = 0
    try:
        candidates = list(target.parent.glob(f".{target.name}.*{PARTIAL_SUFFIX}"))
    except OSError:
        return 0
    for path in candidates:
        pid = _writer_pid(path.name[len(target.name) + 2 :])
        if pid is not None and pid != os.getpid() and _alive(pid):
            continue
        try:
            path.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def _writer_pid(rest: str) -> int | None:
    head = rest.split(".", 1)[0]
    return int(head) if head.isdigit() else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
