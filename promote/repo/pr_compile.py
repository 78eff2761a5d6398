"""Compiled artifacts in a promotion: when the eval repo keeps them, they travel with the case.

An eval repo keeps compiled artifacts when it has an `evals/compiled/` folder (what `docs/compile.md`
and its pre-commit hook use). Then, before anything is placed, `promote compile --check` must pass on
the base commit (a repo already out of sync would mix other cases' artifacts into this PR), and once the
cases are placed the artifacts are regenerated in the worktree and committed with them. Only `valid`
cases compile: a draft's PR carries no artifacts until it is reviewed and marked valid.
"""

from __future__ import annotations

from pathlib import Path

from promote.confined import refuse_symlinks
from promote.errors import PromoteError

COMPILED_DIRS = (Path("evals/compiled"),)


def compiled_dir(worktree: Path) -> Path | None:
    """The folder (relative to the root) where the eval repo keeps compiled artifacts, if it does; one
    reached through a symlink is refused (compiling there would write outside the repo)."""
    found = next((folder for folder in COMPILED_DIRS if (worktree / folder).is_dir()), None)
    if found is not None:
        refuse_symlinks(worktree, found, what="the compiled folder",
                        hint="the eval repo commits that symlink: replace it with the folder it points to")
    return found


def check_base(worktree: Path, cases_dir: Path) -> None:
    """`compile --check` at the base commit: a repo whose artifacts are already stale is refused."""
    from promote.compile.run import compile_paths

    compiled = compiled_dir(worktree)
    if compiled is None or not any((worktree / cases_dir).rglob("*.y*ml")):
        return
    report = compile_paths([worktree / cases_dir], worktree / compiled, check=True)
    stale = [f"{(compiled / line.path).as_posix()} ({line.result})" for line in report.stale]
    if stale:
        more = f" and {len(stale) - 3} more" if len(stale) > 3 else ""
        raise PromoteError(
            f"the compiled artifacts are out of sync on the base branch: {', '.join(stale[:3])}{more}",
            hint=f"run promote compile {cases_dir.as_posix()} -o {compiled.as_posix()} on the base branch "
                 "and commit that first")


def regenerate(worktree: Path, cases_dir: Path) -> Path | None:
    """Compile the repo's cases (the new ones placed) into its compiled folder; the folder, or None."""
    from promote.compile.run import compile_paths

    compiled = compiled_dir(worktree)
    if compiled is None:
        return None
    compile_paths([worktree / cases_dir], worktree / compiled)
    return compiled
