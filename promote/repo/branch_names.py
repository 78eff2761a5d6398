"""Branch names checked by git's own rules, in Python, before any git command sees them.

`git check-ref-format --branch` is not a check alone: it *expands* `@{-1}` (the branch you were on
before) and `@` (HEAD), so a name that passes it may stand for one of the user's branches, and a later
`git branch -D <name>` would delete that one. So the rules of git-check-ref-format(1) are applied here
to the name as typed, and a name that only means something once expanded (`@`, anything with `@{`) is
refused; so are names that are refs rather than branches (`refs/...`, `HEAD`) and names git would take
for an option (`-D`). Every git command later gets the full ref (`refs/heads/<name>`), never the name.
"""

from __future__ import annotations

import re

# Characters git-check-ref-format forbids anywhere: control characters, space, ~ ^ : ? * [ and \ .
_FORBIDDEN = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]")
_MAX_LENGTH = 200  # git has no limit; a file name does (a ref is a file under .git/refs/heads)


def branch_name_problem(name: str) -> str | None:
    """Why `name` is not a branch name git would take as written (None: it is one)."""
    if not name:
        return "an empty branch name"
    if len(name.encode("utf-8")) > _MAX_LENGTH:
        return f"a branch name longer than {_MAX_LENGTH} bytes"
    if name == "@" or "@{" in name:
        return "a name git expands (@ and @{...} stand for other branches and commits)"
    if name.startswith("-"):
        return "a name starting with '-' (git would read it as an option)"
    if name == "HEAD" or name.startswith("refs/"):
        return "a ref, not a branch name (name the branch itself, e.g. promote/my-case)"
    if _FORBIDDEN.search(name):
        return "a character git forbids in branch names (space, control, ~ ^ : ? * [ \\)"
    if name.startswith("/") or name.endswith("/") or "//" in name:
        return "an empty part between slashes"
    if ".." in name or name.endswith("."):
        return "'..' or a trailing '.'"
    for part in name.split("/"):
        if part.startswith(".") or part.endswith(".lock"):
            return "a part starting with '.' or ending with '.lock'"
    return None


def branch_ref(name: str) -> str:
    """`refs/heads/<name>`: the only form a checked name is handed to git in."""
    return f"refs/heads/{name}"
