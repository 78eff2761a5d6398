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


def compile_sources() -> None:
    """Bytecode on disk for the product's packages, as after a first run of an installed promote (this
    machine sets PYTHONDONTWRITEBYTECODE: without it every launch compiles the sources, ~1 s more)."""
    import compileall

    root = Path(__file__).resolve().parent.parent
    for package in ("promote", "tui", "scrubbers"):
        compileall.compile_dir(root / package, quiet=2)


def measure_in_fresh_process(command: list[str], export: Path) -> dict | None:
    """Run a benchmark's measuring child (`command`, which prints its figures as the last line of JSON)
    and add what describes the run; None (its error written out) when the child failed."""
    import json
    import subprocess
    import sys

    load = os.getloadavg()[0]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.stderr.write(done.stderr)
        return None
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures.update(export=str(export), export_mb=round(export.stat().st_size / 1e6, 1),
                   load_average_1min_before=round(load, 2), cores=os.cpu_count())
    return figures
