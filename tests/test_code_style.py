"""The owner's size rules for every tracked Python file: lines of at most 110 characters, files of at
most 400 lines ("do not pack code to fit a limit: split it"). Markdown is not checked: tables need
long lines.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINE_CHARS = 110
MAX_FILE_LINES = 400

EXEMPT = (
    # Written by `promote compile` and compared byte for byte with what it writes now
    # (tests/test_compile_cli.py); the eval set's name is part of its docstring lines, so no template
    # can bound their length.
    "fixtures/compiled/",
)


def tracked_python_files(root: Path) -> list[str]:
    """The repository's tracked .py files (a tree that is not a git checkout: every .py file in it)."""
    try:
        listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "*.py"], check=True,
                                capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        skip = (".venv", ".git", "build", ".fixture-venvs")
        return sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                      if not any(part in skip for part in p.relative_to(root).parts))
    return sorted(name for name in listed.split("\0") if name)


def size_problems(root: Path, names: list[str]) -> list[str]:
    """`file:line: ...` for each line over MAX_LINE_CHARS characters (not bytes) and each file over
    MAX_FILE_LINES lines, skipping the EXEMPT folders."""
    problems = []
    for name in names:
        if name.startswith(EXEMPT):
            continue
        lines = (root / name).read_text(encoding="utf-8").splitlines()
        problems += [f"{name}:{number}: {len(line)} characters (at most {MAX_LINE_CHARS}): wrap it"
                     for number, line in enumerate(lines, 1) if len(line) > MAX_LINE_CHARS]
        if len(lines) > MAX_FILE_LINES:
            problems.append(f"{name}: {len(lines)} lines (at most {MAX_FILE_LINES}): split it along a seam")
    return problems


def test_every_python_file_keeps_the_line_and_file_size_limits() -> None:
    names = tracked_python_files(ROOT)
    assert "tests/test_code_style.py" in names
    assert size_problems(ROOT, names) == []


def test_the_check_reports_a_long_line_and_a_long_file_outside_the_exempt_folders(tmp_path: Path) -> None:
    (tmp_path / "fixtures" / "compiled").mkdir(parents=True)
    wide = "x = '" + "é" * (MAX_LINE_CHARS - 6) + "'\n"  # 110 characters, more bytes: within the limit
    (tmp_path / "ok.py").write_text(wide + "y = 1\n" * (MAX_FILE_LINES - 1), encoding="utf-8")
    (tmp_path / "long_line.py").write_text("x = '" + "a" * (MAX_LINE_CHARS - 5) + "'\n", encoding="utf-8")
    (tmp_path / "long_file.py").write_text("y = 1\n" * (MAX_FILE_LINES + 1), encoding="utf-8")
    exempt = tmp_path / "fixtures" / "compiled" / "exempt.py"
    exempt.write_text("z = 1\n" * (MAX_FILE_LINES + 1), encoding="utf-8")
    names = ["ok.py", "long_line.py", "long_file.py", "fixtures/compiled/exempt.py"]
    assert size_problems(tmp_path, names) == [
        f"long_line.py:1: {MAX_LINE_CHARS + 1} characters (at most {MAX_LINE_CHARS}): wrap it",
        f"long_file.py: {MAX_FILE_LINES + 1} lines (at most {MAX_FILE_LINES}): split it along a seam",
    ]
