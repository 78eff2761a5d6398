"""compile's output folder (`-o`): the user's folder, of which compile owns only the files it wrote.

`OUT/.promote-compile.json` (the manifest) lists every file compile wrote there, relative to OUT. A
clean-up removes only those of them no case produces any more; a file of the user's in a target's
folder (notes, a hand-written config) is never touched, only reported as kept. Every path written or
removed is checked first: a symlink anywhere below OUT (`OUT/checks -> ~`) is refused, so nothing
outside OUT is ever written or removed. OUT itself may be a link the user chose; a file as OUT is
refused before anything is read.
"""

from __future__ import annotations

import json
from pathlib import Path

from promote.confined import refuse_symlinks
from promote.errors import PromoteError
from promote.fsutil import atomic_write_text

MANIFEST = ".promote-compile.json"
_HINT = "remove the symlink (or pass another -o): compile writes and removes only inside the output folder"


def refuse_unusable(out_dir: Path) -> None:
    """A file (or a FIFO, a device) as the output folder is bad input: nothing to compare or write."""
    if out_dir.exists() and not out_dir.is_dir():
        raise PromoteError("is a file, not a folder", where=str(out_dir),
                           hint="pass -o the folder the artifacts go to")


def guard(out_dir: Path, relative: str | Path) -> Path:
    """`out_dir / relative`, once it is known not to pass through a symlink or leave `out_dir`."""
    refuse_symlinks(out_dir, Path(relative), what="compile's output", hint=_HINT)
    return out_dir / relative


def read_manifest(out_dir: Path) -> set[str]:
    """The files compile wrote in `out_dir` (none when there is no manifest, or it is not one)."""
    path = guard(out_dir, MANIFEST)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return set()
    except (OSError, ValueError):
        raise PromoteError("the manifest of compiled files is unreadable", where=str(path),
                           hint="delete it and compile again (files it listed are then left in place)"
                           ) from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        return set()
    return {item for item in files if isinstance(item, str) and _plain_relative(item)}


def _plain_relative(item: str) -> bool:
    path = Path(item)
    return not path.is_absolute() and ".." not in path.parts and item != MANIFEST


def write_manifest(out_dir: Path, files: set[str]) -> None:
    """Record the files compile wrote (sorted: the manifest changes only when the set does)."""
    text = json.dumps({"written_by": "promote compile", "note": "compile removes only files listed here",
                       "files": sorted(files)}, indent=2) + "\n"
    path = guard(out_dir, MANIFEST)
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    atomic_write_text(path, text)


def files_under(out_dir: Path, folder: str) -> list[str]:
    """Regular files under `out_dir/folder`, relative to `out_dir` (symlinks are not followed)."""
    root = guard(out_dir, folder)
    if not root.is_dir():
        return []
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            found.append(path.relative_to(out_dir).as_posix())
    return found


def remove_written(out_dir: Path, relative: str) -> None:
    """Remove a file compile wrote, then the folders it leaves empty (up to `out_dir`)."""
    path = guard(out_dir, relative)
    if path.is_symlink() or not path.is_file():
        return
    path.unlink()
    folder = path.parent
    while folder != out_dir and folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
