"""The import rules of pyproject.toml's `[tool.importlinter]` contracts, checked by import-linter."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_import_contracts_are_kept() -> None:
    # Every contract of pyproject.toml is checked and kept (one that import-linter skipped would be missing).
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    result = lint_imports()
    assert result.returncode == 0, result.stdout[-3000:]
    assert f"{len(contracts)} kept, 0 broken" in result.stdout


def test_a_broken_contract_fails(tmp_path: Path) -> None:
    # The check is real: a contract the code breaks (the case does import promote.errors) fails it.
    config = tmp_path / "broken.toml"
    config.write_text(
        '[tool.importlinter]\nroot_packages = ["promote"]\n\n'
        '[[tool.importlinter.contracts]]\nname = "deliberately broken"\ntype = "forbidden"\n'
        'source_modules = ["promote.case"]\nforbidden_modules = ["promote.errors"]\n'
    )
    result = lint_imports("--config", str(config))
    assert result.returncode != 0 and "BROKEN" in result.stdout


def test_the_command_line_loads_no_case_model_before_a_command_needs_it() -> None:
    # Every `promote` run builds the parser of every subcommand: a subcommand module that imports the
    # case model at the top makes pydantic build every model class (a tenth of a second) for `scrub` too.
    probe = ("import sys; from promote.cli.main import build_parser; build_parser(); "
             "print(sorted(m for m in sys.modules if m.startswith('promote.case.model')))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
