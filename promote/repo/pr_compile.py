"""Compiled artifacts in a promotion: when the eval repo keeps them, they travel with the case.

An eval repo keeps compiled artifacts when it has an `evals/compiled/` folder (what `docs/compile.md`
and its pre-commit hook use). Then, before anything is placed, `promote compile --check` must pass on
the base commit (a repo already out of sync would mix other cases' artifacts into this PR), and once the
cases are placed the artifacts are regenerated in the worktree and committed with them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from promote.errors import PromoteError

COMPILED_DIRS = (Path("evals/compiled"),)


def compiled_dir(worktree: Path) -> Path | None:
    """The folder (relative to the root) where the eval repo keeps compiled artifacts, if it does."""
    return next((folder for folder in COMPILED_DIRS if (worktree / folder).is_dir()), None)


def _compiler() -> Callable[..., Any] | None:
    """COMPILE CALL SITE (issue 16): `promote.compile.run.compile_paths`, when this promote has it."""
    try:
        from promote.compile.run import compile_paths
    except ImportError:
        return None
    return compile_paths


def check_base(worktree: Path, cases_dir: Path) -> str | None:
    """`compile --check` at the base commit. Refuses a repo whose artifacts are already stale; returns
    a to-do for the PR when the repo keeps artifacts but this promote cannot compile them."""
    compiled = compiled_dir(worktree)
    if compiled is None:
        return None
    compile_paths = _compiler()
    if compile_paths is None:
        return (f"Regenerate the compiled artifacts in {compiled.as_posix()}/ with promote compile "
                "(this promote cannot compile yet)")
    if not any((worktree / cases_dir).rglob("*.yaml")):
        return None
    report = compile_paths([worktree / cases_dir], worktree / compiled, check=True)
    stale = [f"{line.path} ({line.result})" for line in report.stale]
    if stale:
        raise PromoteError(
            f"the compiled artifacts in {compiled.as_posix()}/ are out of sync on the base branch: "
            + ", ".join(stale[:3]) + (f" and {len(stale) - 3} more" if len(stale) > 3 else ""),
            hint=f"run promote compile {cases_dir.as_posix()} -o {compiled.as_posix()} on the base branch "
                 "and commit that first")
    return None


def regenerate(worktree: Path, cases_dir: Path) -> Path | None:
    """Compile the repo's cases (the new ones placed) into its compiled folder; the folder, or None."""
    compiled = compiled_dir(worktree)
    compile_paths = _compiler()
    if compiled is None or compile_paths is None:
        return None
    compile_paths([worktree / cases_dir], worktree / compiled)
    return compiled
