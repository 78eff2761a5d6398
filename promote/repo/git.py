"""Real git through subprocess: one small wrapper with errors a user can act on.

Every git call of `promote pr` goes through `Git.run`, which names the command that failed and git's own
last line of complaint, never a traceback. Variables that would point git at another repository or index
(set when promote runs inside a git hook) are dropped, and git never prompts for credentials: a run that
needs them fails with a message instead of hanging.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Sequence

from promote.errors import PromoteError
from promote.repo.branch_names import branch_name_problem, branch_ref

# Set by git for hooks and by some IDEs; inherited, they would make every call below act on another repo.
_RELOCATING = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX",
               "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE")
DEFAULT_TIMEOUT_S = 120.0
# Operations that leave the user's repo half-way; `promote pr` waits until they are finished or aborted.
IN_PROGRESS = (
    ("rebase-merge", "a rebase", "git rebase --continue or --abort"),
    ("rebase-apply", "a rebase", "git rebase --continue or --abort"),
    ("MERGE_HEAD", "a merge", "commit it or run git merge --abort"),
    ("CHERRY_PICK_HEAD", "a cherry-pick", "git cherry-pick --continue or --abort"),
    ("REVERT_HEAD", "a revert", "git revert --continue or --abort"),
)


class GitError(PromoteError):
    """A git command failed; `what` names the command and git's reason."""


def git_environment() -> dict[str, str]:
    """The environment every git call runs with (also the one `gh` gets)."""
    env = {key: value for key, value in os.environ.items() if key not in _RELOCATING}
    env["GIT_TERMINAL_PROMPT"] = "0"  # no credential prompt: fail with a message instead of hanging
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    return env


class Git:
    """git, run in one folder (a repository's working tree or a worktree of it)."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = Path(cwd)

    def run(self, *args: str, check: bool = True, timeout: float = DEFAULT_TIMEOUT_S,
            hint: str | None = None) -> subprocess.CompletedProcess[str]:
        """Run `git <args>`; with `check`, a non-zero exit raises GitError naming the command."""
        command = ["git", "-C", str(self.cwd), *args]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                  env=git_environment(), stdin=subprocess.DEVNULL)
        except FileNotFoundError:
            raise PromoteError("git is not installed (or not on PATH)", hint="install git") from None
        except subprocess.TimeoutExpired:
            raise GitError(f"git {args[0]} did not finish in {timeout:g} s", where=str(self.cwd)) from None
        if check and done.returncode != 0:
            raise GitError(f"git {_shown(args)} failed: {_reason(done)}", where=str(self.cwd),
                           hint=_hint_for(done.stderr) or hint)
        return done

    def out(self, *args: str, **kwargs) -> str:
        """stdout of `git <args>`, stripped."""
        return self.run(*args, **kwargs).stdout.strip()

    def ok(self, *args: str) -> bool:
        """True when `git <args>` exits 0 (a question, not a command)."""
        return self.run(*args, check=False).returncode == 0

    # Questions about the repository -------------------------------------------------------------

    def toplevel(self) -> Path:
        """The working tree's root; a folder that is not in a git working tree is refused."""
        done = self.run("rev-parse", "--show-toplevel", check=False)
        if done.returncode != 0 or not done.stdout.strip():
            raise PromoteError("not a git working tree", where=str(self.cwd),
                               hint="pass --repo the folder of a clone of the eval repo")
        return Path(done.stdout.strip())

    def git_path(self, name: str) -> Path:
        """A path inside this worktree's git dir (`git rev-parse --git-path`)."""
        return _absolute(self.cwd, self.out("rev-parse", "--git-path", name))

    def common_dir(self) -> Path:
        """The git dir shared by every worktree of the repository."""
        return _absolute(self.cwd, self.out("rev-parse", "--git-common-dir"))

    def operation_in_progress(self) -> tuple[str, str] | None:
        """(what, how to finish it) when a rebase, merge, cherry-pick or revert is under way."""
        for marker, what, how in IN_PROGRESS:
            if self.git_path(marker).exists():
                return what, how
        return None

    def commit_of(self, ref: str) -> str | None:
        """The commit `ref` names, or None when there is no such ref."""
        done = self.run("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
        return done.stdout.strip() or None if done.returncode == 0 else None

    def branch_exists(self, name: str) -> bool:
        return self.commit_of(branch_ref(name)) is not None

    def valid_branch_name(self, name: str) -> bool:
        """git's rules on the name as written; `check-ref-format` without `--branch`, which would
        expand `@{-1}` into another branch's name (see `branch_names`)."""
        return branch_name_problem(name) is None and self.ok("check-ref-format", branch_ref(name))

    def remote_url(self, remote: str = "origin") -> str | None:
        done = self.run("remote", "get-url", remote, check=False)
        return done.stdout.strip() or None if done.returncode == 0 else None

    def config(self, key: str) -> str | None:
        done = self.run("config", "--get", key, check=False)
        return done.stdout.strip() or None if done.returncode == 0 else None

    def head(self) -> str | None:
        """The commit HEAD is on (None in a repository without commits)."""
        return self.commit_of("HEAD")

    def files_in_commit(self, commit: str = "HEAD") -> list[str]:
        """Repository paths a commit added, changed or deleted (against its first parent)."""
        listed = self.out("diff-tree", "--no-commit-id", "--name-only", "-r", "--root", commit)
        return [line for line in listed.splitlines() if line]

    # Worktrees and branches ------------------------------------------------------------------------

    def add_detached_worktree(self, path: Path, commit: str) -> Git:
        """A new worktree at `path` on `commit` (detached: no branch is made until there is a commit)."""
        self.run("worktree", "add", "--detach", "--quiet", str(path), commit)
        return Git(path)

    def remove_worktree(self, path: Path) -> None:
        """Remove a worktree and its admin files, even when it is dirty or half set up."""
        self.run("worktree", "remove", "--force", "--force", str(path), check=False)
        if Path(path).exists():
            shutil.rmtree(path, ignore_errors=True)
        self.run("worktree", "prune", check=False)

    def worktree_paths(self) -> list[Path]:
        """Every worktree of the repository, the main one first (`git worktree list`)."""
        listed = self.out("worktree", "list", "--porcelain", "-z").split("\0")
        return [Path(line.split(" ", 1)[1]) for line in listed if line.startswith("worktree ")]

    def delete_branch(self, name: str, tip: str) -> bool:
        """Delete branch `name` only while it still points at `tip` (the commit this tool left it on):
        a name that is not a plain branch name, or a branch that moved, is left alone. True if deleted."""
        if branch_name_problem(name) is not None or not re.fullmatch(r"[0-9a-f]{40,64}", tip or ""):
            return False
        return self.ok("update-ref", "-d", branch_ref(name), tip)


def _absolute(cwd: Path, path: str) -> Path:
    found = Path(path)
    return found if found.is_absolute() else (cwd / found).resolve()


def _shown(args: Sequence[str]) -> str:
    """The command as a user would type it, without long values (commit messages, paths in temp)."""
    return " ".join(arg for arg in args[:2] if not arg.startswith("-")) or args[0]


def _reason(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in (done.stderr or done.stdout or "").splitlines() if line.strip()]
    # git's own "fatal:"/"error:" line says what is wrong; hints follow it.
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line.split(":", 1)[1].strip()
    return lines[-1] if lines else f"exit status {done.returncode}"


def _hint_for(stderr: str) -> str | None:
    text = stderr or ""
    if "Please tell me who you are" in text or "empty ident name" in text:
        return "set git config user.name and user.email in the eval repo"
    if "could not read Username" in text or "Permission denied (publickey)" in text:
        return "git has no credentials for origin: log in (gh auth login, an ssh key) and retry"
    return None
