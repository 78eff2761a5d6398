"""A scratch eval repo and state folder for a TUI benchmark's fresh process: no recovery offer from an
earlier run stops a turn from opening."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def fresh_eval_repo() -> Iterator[Path]:
    """An empty eval repo (git, with `evals/cases/`), and `XDG_STATE_HOME` in a scratch folder."""
    with tempfile.TemporaryDirectory() as scratch:
        repo = Path(scratch) / "evals-repo"
        (repo / "evals" / "cases").mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        os.environ["XDG_STATE_HOME"] = str(Path(scratch) / "state")
        yield repo
