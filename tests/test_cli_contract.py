"""The command line contract: exit 0/1/2, one clear line, never a traceback or exit 3 (docs/cli.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from promote import demo
from promote.case.store import load_case
from promote.cli.main import main
from tests.conftest import ROOT, TRACES, run_cli

EXPORT = TRACES / "adk2.otlp.jsonl"
CARRYOVER = demo.CARRYOVER_TRACE


def cli(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    try:
        code = main([str(arg) for arg in args])
    except SystemExit as exit_:  # argparse: --version, --help, usage errors
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_a_bad_id_is_bad_input_naming_the_pattern(capsys, tmp_path: Path) -> None:
    code, _, err = cli(capsys, "draft", EXPORT, "--trace", CARRYOVER, "--id", "helm", "-o", tmp_path)
    assert code == 2 and "internal error" not in err
    assert err.count("\n") == 1 and "--id helm is not a case id" in err and "<pillar>.<topic>_<NNN>" in err
    assert list(tmp_path.iterdir()) == []


def test_the_readme_example_names_the_case_by_its_file(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, "draft", EXPORT, "--trace", CARRYOVER, "--by", "hermione.g", "--cases-dir",
                       "evals/cases", "-o", "evals/cases/hr.pto_carryover_001.yaml")
    assert code == 0, err
    assert err.splitlines()[0] == "wrote evals/cases/hr.pto_carryover_001.yaml"
    assert (
        load_case(tmp_path / "evals" / "cases" / "hr.pto_carryover_001.yaml").case.id
        == "hr.pto_carryover_001"
    )
    code, _, err = cli(capsys, "validate", "evals/cases")
    assert code == 0, err


def test_drafting_the_same_turn_twice_keeps_the_first_case(capsys, tmp_path: Path) -> None:
    # The demo's own draft step (no --force), pointed at a fresh folder, run twice: the second run
    # reports the existing case and writes nothing (`make demo` is idempotent).
    (step,) = [args for title, args in demo.STEPS if args[0] == "draft"]
    cases = tmp_path / "cases"
    cases.mkdir()
    args = [str(cases) if arg == f"{demo.OUT}/cases" else arg for arg in step]
    args = [str(ROOT / arg) if arg.startswith("fixtures/") else arg for arg in args]
    code, _, err = cli(capsys, *args)
    assert code == 0, err
    (written,) = cases.iterdir()
    assert err.splitlines()[0] == f"wrote {written}"  # the file, not the folder
    before = written.read_bytes()
    code, _, err = cli(capsys, *args)
    assert code == 0 and err.startswith(f"kept {written}: it already has this input and tool trajectory")
    assert list(cases.iterdir()) == [written] and written.read_bytes() == before
    code, _, err = cli(capsys, *args, "--force")
    assert code == 0 and err.splitlines()[0] == f"wrote {written}"
    assert list(cases.iterdir()) == [written]  # replaced, not copied to _002


def test_every_demo_step_can_run_again() -> None:
    # `make demo` twice: the scrub step replaces its own output (scrub refuses that without --force),
    # the draft step keeps the case it wrote (tested above), the others write nothing.
    steps = {args[0]: args for _, args in demo.STEPS}
    assert "--force" in steps["scrub"] and "--force" not in steps["draft"]
    assert set(steps) == {"traces", "scrub", "draft", "validate"}


def test_draft_all_without_a_match_fails_with_the_reason(capsys, tmp_path: Path) -> None:
    code, out, err = cli(capsys, "draft", EXPORT, "--all", "--tool", "no_such_tool", "--cases-dir", tmp_path)
    assert code == 1 and out == ""
    assert "no turn matches --tool no_such_tool" in err and err.count("\n") == 1


def test_draft_takes_a_policy_and_records_it(capsys, tmp_path: Path) -> None:
    policy = tmp_path / "strict.yaml"
    shutil.copy(ROOT / "scrubbers" / "policies" / "default.yaml", policy)
    code, out, err = cli(capsys, "draft", EXPORT, "--trace", CARRYOVER, "--policy", policy)
    assert code == 0, err
    assert "policy: strict@sha256:" in out
    code, _, err = cli(capsys, "draft", EXPORT, "--trace", CARRYOVER, "--policy", tmp_path / "missing.yaml")
    assert code == 2 and err.count(str(tmp_path / "missing.yaml")) == 1


def test_scrub_refuses_to_overwrite_without_force(capsys, tmp_path: Path) -> None:
    source = EXPORT  # a real export: an input without spans is refused before anything is written
    target = tmp_path / "out.jsonl"
    target.write_text("keep me\n")
    code, _, err = cli(capsys, "scrub", source, "-o", target, "--workers", "1")
    assert code == 2 and "already there" in err and "--force" in err and target.read_text() == "keep me\n"
    code, _, err = cli(capsys, "scrub", source, "-o", target, "--workers", "1", "--force")
    assert code == 0, err
    assert target.read_text() != "keep me\n"


def test_scrub_with_a_missing_policy_names_it_once(capsys, tmp_path: Path) -> None:
    code, _, err = cli(capsys, "scrub", EXPORT, "-o", tmp_path / "o.jsonl", "--policy", "/missing.yaml")
    assert code == 2 and err.count("/missing.yaml") == 1 and err.count("\n") == 1


def test_traces_with_a_missing_policy_is_bad_input_not_an_internal_error() -> None:
    result = run_cli("traces", str(EXPORT), "--policy", "/missing.yaml")
    err = result.stderr.decode()
    assert result.returncode == 2 and "internal error" not in err
    assert err.count("\n") == 1 and err.count("/missing.yaml") == 1


def test_version_and_python_dash_m(capsys) -> None:
    code, out, _ = cli(capsys, "--version")
    assert code == 0 and out.startswith("promote ")
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "promote", "--version"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stdout == out


def test_help_points_to_the_projects_own_docs(capsys) -> None:
    code, out, _ = cli(capsys, "--help")
    assert code == 0 and "docs/cli.md" in out and "../shared" not in out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme and "docs/cli.md" in readme
    for page in ("case-format.md", "cli.md", "scrub-policy.md"):
        assert (ROOT / "docs" / page).is_file()
