"""Paths the tool writes or removes stay inside the folder the user gave it, never through a symlink.

The eval repo and compile's output folder are the user's: a symlink committed in the repo
(`evals/cases -> /elsewhere`) or placed in the output folder (`OUT/checks -> ~`) would make a write or a
clean-up land outside them. Every path the tool is about to write or remove is checked part by part
below the folder (the folder itself may be a link the user chose), and refused when a part is a
symlink or the path leaves the folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from promote.errors import PromoteError


def symlink_in(root: Path, relative: Path) -> Path | None:
    """The first part of `root / relative` below `root` that is a symlink (None: there is none)."""
    current = Path(root)
    for part in Path(relative).parts:
        if part in ("", "."):
            continue
        if part == "..":
            return current / part
        current = current / part
        if current.is_symlink():
            return current
    return None


def refuse_symlinks(root: Path, relative: Path, *, what: str, hint: str) -> None:
    """PromoteError (exit 2) when writing or removing `root / relative` would pass through a symlink or
    leave `root`; `what` says what the path is for ("the case file", "compile's output")."""
    root = Path(root)
    relative = Path(relative)
    if relative.is_absolute():
        relative = _relative_or_refuse(root, relative, what, hint)
    found = symlink_in(root, relative)
    if found is not None:
        target = os.readlink(found) if found.is_symlink() else ".."
        shown = found.relative_to(root) if found.is_relative_to(root) else found
        raise PromoteError(f"{what} would go through a symlink: {shown.as_posix()} -> {target}",
                           where=str(root), hint=hint)
    resolved = (root / relative).resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise PromoteError(f"{what} would leave {root}", where=str(root / relative), hint=hint)


def _relative_or_refuse(root: Path, path: Path, what: str, hint: str) -> Path:
    try:
        return path.relative_to(root)
    except ValueError:
        raise PromoteError(f"{what} would leave {root}", where=str(path), hint=hint) from None
