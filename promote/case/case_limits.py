"""Bounds on reading a case file: what is read, how much, how deep and how large its numbers.

A case path is the user's input and may be anything: `/dev/zero` never ends, a FIFO blocks until a
writer comes, a 2 GiB file would be read whole before a size check after reading. So the file is opened
without blocking, refused unless it is a regular file, and read up to the size limit and no further.
Once parsed, nesting depth and integer size are bounded before anything walks the tree (validation,
copies, the merge are recursive; `int` of 5,000 digits is refused by Python itself).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from promote.errors import PromoteError
from scrubbers.yaml_limits import MAX_YAML_BYTES

MAX_DEPTH = 64
"""Deepest nesting of mappings and lists a case may have (real ones are under 10 levels deep)."""
MAX_INT_DIGITS = 64
"""Most digits an integer in a case may have (a card number has 19)."""
_CHUNK = 1 << 16


def read_case_text(path: Path) -> str:
    """The file's text, read with the size limit; PromoteError for what is not a readable case file."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | os.O_CLOEXEC
    try:
        handle = os.open(path, flags)
    except FileNotFoundError:
        kind = "a symlink to nothing (dangling)" if os.path.islink(path) else "no such file"
        raise PromoteError(kind, where=str(path)) from None
    except IsADirectoryError:
        raise PromoteError("is a folder, not a case file", where=str(path)) from None
    except OSError as exc:
        raise PromoteError(f"cannot read: {exc.strerror}", where=str(path)) from None
    try:
        data = _bounded_read(handle, path)
    finally:
        os.close(handle)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PromoteError(f"not UTF-8 text (byte {exc.start})", where=str(path)) from None


def _bounded_read(handle: int, path: Path) -> bytes:
    mode = os.fstat(handle).st_mode
    if stat.S_ISDIR(mode):
        raise PromoteError("is a folder, not a case file", where=str(path))
    if not stat.S_ISREG(mode):
        raise PromoteError("not a regular file (a FIFO, device or socket): not read as a case",
                           where=str(path), hint="pass the case file itself")
    chunks: list[bytes] = []
    size = 0
    while True:
        try:
            chunk = os.read(handle, _CHUNK)
        except OSError as exc:
            raise PromoteError(f"cannot read: {exc.strerror}", where=str(path)) from None
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_YAML_BYTES:
            raise PromoteError(f"larger than {MAX_YAML_BYTES >> 20} MiB: not read as a case", where=str(path),
                               hint="a case is a few KB; check the file")
        chunks.append(chunk)


def refuse_deep_or_huge(tree: Any, path: Path) -> None:
    """PromoteError when the parsed tree nests deeper than MAX_DEPTH or holds an integer (value or key)
    of more than MAX_INT_DIGITS digits. Iterative: the check itself cannot run out of stack, and each
    node is visited again only when reached deeper (aliases share nodes)."""
    limit = 10 ** MAX_INT_DIGITS
    deepest: dict[int, int] = {}
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, int) and not isinstance(node, bool) and abs(node) >= limit:
            raise PromoteError(f"a number of more than {MAX_INT_DIGITS} digits", where=str(path),
                               hint="write it as text in quotes if it is an identifier")
        if not isinstance(node, (dict, list)):
            continue
        if depth > MAX_DEPTH:
            raise PromoteError(f"nested deeper than {MAX_DEPTH} levels", where=str(path),
                               hint="a case is a few levels deep; check the file")
        if deepest.get(id(node), 0) >= depth:
            continue
        deepest[id(node)] = depth
        children = [*node.keys(), *node.values()] if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children)
