"""Where `promote pr` works: a temporary git worktree, one run at a time per repository.

The user's branch, index and working tree are never touched: the cases are committed in a worktree
made in a temp folder, detached on the base commit, and the branch is created there. The worktree goes
away when the run ends, whether it succeeded, failed or was interrupted (SIGINT, SIGTERM); so does a
branch the run made, unless it is the run's result. A lock file in the repository's git dir makes a
second run wait briefly, then refuse; a lock left by a run that was killed outright (SIGKILL) is
recognised by its dead pid, and what that run left behind is removed by the next one, but only what
the tool itself made: a registered worktree of this repository named `promote-pr-*` (never the main
one), and a branch still on the commit the lock recorded. A lock naming anything else removes nothing.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import tempfile
import threading
import time
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Iterator

from promote.errors import PromoteError
from promote.repo.branch_names import branch_ref
from promote.repo.git import Git

LOCK_NAME = "promote-pr.lock"
WORKTREE_PREFIX = "promote-pr-"
LOCK_POLL_S = 0.1


class Interrupted(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every `finally` and `with` on the way out runs."""


@contextmanager
def interrupts_unwind() -> Iterator[None]:
    """Inside the block, SIGTERM unwinds the stack like SIGINT does (main thread only: a UI worker
    thread cannot install handlers, and its app owns the signals). A handler the program already has
    (the command line's) is kept."""
    on_main = threading.current_thread() is threading.main_thread()
    if not on_main or callable(signal.getsignal(signal.SIGTERM)):
        yield
        return

    def raise_interrupted(signum: int, _frame: object) -> None:
        raise Interrupted(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, raise_interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def shielded() -> Iterator[None]:
    """Clean-up that a second Ctrl-C or SIGTERM must not cut short; the signal is re-raised after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def remember(signum: int, _frame: object) -> None:
        pending.append(signum)

    previous = {sig: signal.signal(sig, remember) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if pending:
        raise Interrupted(f"signal {pending[0]}")


class RunLock:
    """`<git common dir>/promote-pr.lock`: who is running (pid, host) and what it has made so far."""

    def __init__(self, repo: Git, wait_s: float) -> None:
        self.repo = repo
        self.path = repo.common_dir() / LOCK_NAME
        self.wait_s = wait_s
        self.held = False
        self.record: dict[str, object] = {}

    def acquire(self) -> None:
        deadline = time.monotonic() + self.wait_s
        while True:
            try:
                handle = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                holder = self._holder()
                if holder is not None and not _alive(holder):
                    self._recover(holder)
                    continue
                if time.monotonic() >= deadline:
                    raise PromoteError(_busy_message(holder), where=str(self.repo.cwd),
                                       hint="wait for it to finish, then run again") from None
                time.sleep(LOCK_POLL_S)
                continue
            self.record = {"pid": os.getpid(), "host": socket.gethostname(),
                           "started": datetime.now(UTC).replace(microsecond=0).isoformat()}
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(self.record, out)
            self.held = True
            return

    def note(self, **fields: object) -> None:
        """Record what the run has made (worktree, branch), for the next run to clean up if this one is
        killed outright."""
        self.record.update(fields)
        temp = self.path.with_name(self.path.name + ".tmp")
        temp.write_text(json.dumps(self.record), encoding="utf-8")
        os.replace(temp, self.path)

    def release(self) -> None:
        if self.held:
            self.path.unlink(missing_ok=True)
            self.held = False

    def _holder(self) -> dict | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # being written right now, or unreadable: treat as busy until the deadline
        return data if isinstance(data, dict) else None

    def _recover(self, holder: dict) -> None:
        """Remove what a killed run left: its worktree, and its branch unless that was its result.

        The lock is a file anyone can write: what it names is checked against what the tool makes
        before anything is removed (see the module docstring)."""
        worktree = holder.get("worktree")
        if isinstance(worktree, str) and worktree:
            self._remove_own_worktree(Path(worktree))
        self.repo.run("worktree", "prune", check=False)
        branch, tip = holder.get("branch"), holder.get("tip")
        if isinstance(branch, str) and isinstance(tip, str) and not holder.get("kept"):
            self.repo.delete_branch(branch, tip)
        self.path.unlink(missing_ok=True)

    def _remove_own_worktree(self, path: Path) -> None:
        if not path.is_absolute() or not path.name.startswith(WORKTREE_PREFIX):
            return
        registered = [found.resolve() for found in self.repo.worktree_paths()]
        if path.resolve() in registered[1:]:  # the first is the main worktree: never
            self.repo.remove_worktree(path)
        elif path.is_dir() and not path.is_symlink() and not any(path.iterdir()):
            path.rmdir()  # made by mkdtemp, killed before git filled it


def _alive(holder: dict) -> bool:
    """False only when the holder ran on this host and its pid is gone."""
    if holder.get("host") != socket.gethostname():
        return True
    try:
        os.kill(int(holder.get("pid", 0)), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError, TypeError, OverflowError):
        return True
    return True


def _busy_message(holder: dict | None) -> str:
    if holder is None:
        return "another promote pr is running on this repository"
    return (f"another promote pr is running on this repository (pid {holder.get('pid')}, "
            f"since {holder.get('started')})")


class Workspace:
    """The temp worktree of one run, and the branch it may create; both removed on exit unless kept."""

    def __init__(self, repo: Git, lock: RunLock) -> None:
        self.repo = repo
        self.lock = lock
        self.path: Path | None = None
        self.git: Git | None = None
        self.branch: str | None = None
        self.kept = False

    def open(self, commit: str) -> Git:
        """A worktree on `commit`, detached, in a fresh temp folder."""
        self.path = Path(tempfile.mkdtemp(prefix=WORKTREE_PREFIX))
        self.lock.note(worktree=str(self.path))
        self.git = self.repo.add_detached_worktree(self.path, commit)
        return self.git

    def create_branch(self, name: str) -> None:
        """Branch `name` (checked by `branch_names`) on the worktree's commit; it does not exist yet."""
        assert self.git is not None
        tip = self.git.head()
        self.lock.note(branch=name, tip=tip, kept=False)
        self.branch = name
        # update-ref with an empty old value creates the ref only if it does not exist yet
        self.git.run("update-ref", branch_ref(name), tip or "", "")
        self.git.run("symbolic-ref", "HEAD", branch_ref(name))

    def moved_to(self, commit: str) -> None:
        """The branch now points at `commit` (the run committed): that is the tip it may delete."""
        self.lock.note(tip=commit)

    def keep_branch(self) -> None:
        """The branch is now the run's result (committed, or pushed when asked): keep it."""
        self.kept = True
        self.lock.note(kept=True)

    def close(self) -> None:
        with shielded():
            tip = self.git.head() if self.git is not None and self.branch is not None else None
            if self.path is not None:
                self.repo.remove_worktree(self.path)
                self.path = None
            if self.branch is not None and not self.kept and tip is not None:
                self.repo.delete_branch(self.branch, tip)
            self.lock.release()
