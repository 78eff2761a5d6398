"""What the eval repo already holds: case ids in use, duplicate cases, and who is promoting."""

from __future__ import annotations

import getpass
import re
import subprocess
from pathlib import Path

from pydantic import ValidationError

from promote.case.model import Case
from promote.case.yaml_io import load_tree
from promote.errors import PromoteError


def case_files(cases_dir: Path | None) -> list[Path]:
    """Every `*.yaml` / `*.yml` under `cases_dir` (recursive), sorted; none when there is no dir."""
    if cases_dir is None or not cases_dir.is_dir():
        return []
    return sorted(p for p in cases_dir.rglob("*") if p.suffix in {".yaml", ".yml"} and p.is_file())


def next_case_id(prefix: str, cases_dir: Path | None) -> str:
    """`<prefix>_<NNN>` with NNN one above the highest number in use for that prefix (001 first).

    Above the highest rather than the first gap: a number once used may still be cited in old PRs.
    """
    pattern = re.compile(re.escape(prefix) + r"_(\d{3})")
    used = [int(found.group(1)) for path in case_files(cases_dir) if (found := pattern.fullmatch(path.stem))]
    number = max(used, default=0) + 1
    if number > 999:
        raise PromoteError(f"no free case number left for {prefix}_NNN", hint="pass --id")
    return f"{prefix}_{number:03d}"


def find_duplicate(cases_dir: Path | None, user_input: str, tool_names: list[str]) -> Path | None:
    """The first case with the same input (whitespace aside) and the same tool-name trajectory."""
    wanted = _normal(user_input)
    for path in case_files(cases_dir):
        try:
            case = Case.model_validate(load_tree(path))
        except (PromoteError, ValidationError):
            continue  # not a readable case: `promote validate` reports it, drafting need not
        names = [call.name for call in case.expected_tools.calls] if case.expected_tools else []
        if _normal(case.input) == wanted and names == tool_names:
            return path
    return None


def _normal(text: str) -> str:
    return " ".join(text.split())


def promoting_user(by: str | None, cases_dir: Path | None) -> str:
    """`--by`, else git `user.name` (or `user.email`) of the cases dir's repo, else the login name."""
    if by:
        return by
    folder = cases_dir if cases_dir is not None and cases_dir.is_dir() else Path.cwd()
    for key in ("user.name", "user.email"):
        try:
            done = subprocess.run(["git", "-C", str(folder), "config", "--get", key],
                                  capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            break
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    return getpass.getuser()
