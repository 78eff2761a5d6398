"""`promote compile`: snapshots of every artifact of the seed cases, the compile log, and `--check`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from promote.cli.main import main
from promote.compile.run import compile_paths
from promote.errors import PromoteError
from tests.conftest import FIXTURES, GOLDEN_CASES, ROOT

SNAPSHOTS = FIXTURES / "compiled" / "golden"
REFRESH = "python -m promote compile fixtures/cases/golden -o fixtures/compiled/golden"


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def test_every_artifact_of_the_seed_cases_matches_its_snapshot(tmp_path: Path) -> None:
    compile_paths([GOLDEN_CASES], tmp_path)
    produced, expected = _files(tmp_path), _files(SNAPSHOTS)
    assert sorted(produced) == sorted(expected), f"artifact set changed: run `{REFRESH}` and review the diff"
    for name, data in expected.items():
        assert produced[name] == data, f"{name} differs from its snapshot: run `{REFRESH}`, review the diff"
        assert data.endswith(b"\n") and not data.endswith(b"\n\n"), name


def test_the_seed_cases_compile_to_the_targets_the_seeds_list(tmp_path: Path) -> None:
    report = compile_paths([GOLDEN_CASES], tmp_path)
    assert report.routed == {
        "wfm.accrual_balance_007": ["adk", "numeric", "checks"],
        "hr.policy_carryover_004": ["adk", "ragas", "numeric", "safety", "checks"],
        "benefits.plan_coverage_001": ["adk", "ragas", "safety", "checks"],
    }
    assert {line.result for line in report.lines} == {"written"}
    again = compile_paths([GOLDEN_CASES], tmp_path)
    assert {line.result for line in again.lines} == {"in-sync"}  # a re-run changes nothing


def test_check_fails_after_an_edit_and_passes_after_recompiling(tmp_path: Path, capsys) -> None:
    cases, out = tmp_path / "cases", tmp_path / "compiled"
    shutil.copytree(GOLDEN_CASES, cases)
    assert main(["compile", str(cases), "-o", str(out)]) == 0
    assert main(["compile", str(cases), "-o", str(out), "--check"]) == 0
    hero = cases / "hr.policy_carryover_004.yaml"
    edited = hero.read_text(encoding="utf-8").replace("jurisdiction: CA}", "jurisdiction: NV}")
    hero.write_text(edited, encoding="utf-8")
    (cases / "wfm.accrual_balance_007.yaml").unlink()
    capsys.readouterr()
    assert main(["compile", str(cases), "-o", str(out), "--check"]) == 1
    stale = sorted(line for line in capsys.readouterr().err.splitlines())
    assert stale == sorted([
        f"{out}/adk/hr_policy_carryover_golden/hr_policy_carryover_golden.evalset.json: out-of-sync "
        "(run promote compile without --check)",
        # the argument rules travel in the custom metric's criterion
        f"{out}/adk/hr_policy_carryover_golden/test_config.json: out-of-sync "
        "(run promote compile without --check)",
        f"{out}/adk/wfm_accruals_golden/test_config.json: orphaned (run promote compile without --check)",
        f"{out}/adk/wfm_accruals_golden/wfm_accruals_golden.evalset.json: orphaned "
        "(run promote compile without --check)",
        f"{out}/numeric/wfm.accrual_balance_007.oracle.json: orphaned (run promote compile without --check)",
        f"{out}/checks/hr.policy_carryover_004.checks.json: out-of-sync "
        "(run promote compile without --check)",
        f"{out}/checks/wfm.accrual_balance_007.checks.json: orphaned (run promote compile without --check)",
    ])
    assert (out / "numeric" / "wfm.accrual_balance_007.oracle.json").exists()  # --check wrote nothing
    assert main(["compile", str(cases), "-o", str(out)]) == 0
    assert not (out / "adk" / "wfm_accruals_golden").exists()
    assert main(["compile", str(cases), "-o", str(out), "--check"]) == 0


def test_check_names_a_missing_artifact_and_target_selection_keeps_other_targets(tmp_path: Path) -> None:
    out = tmp_path / "compiled"
    compile_paths([GOLDEN_CASES], out, targets=["numeric"])
    assert sorted(_files(out)) == [".promote-compile.json",  # the manifest of what compile wrote
                                   "numeric/hr.policy_carryover_004.oracle.json",
                                   "numeric/wfm.accrual_balance_007.oracle.json"]
    report = compile_paths([GOLDEN_CASES], out, targets=["numeric", "safety"], check=True)
    assert [(line.path, line.result) for line in report.stale] == [
        ("safety/benefits.plan_coverage_001.probe.yaml", "missing"),
        ("safety/hr.policy_carryover_004.probe.yaml", "missing"),
    ]


def test_the_command_line_logs_each_artifact_and_refuses_bad_input(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "promote", "compile", "--no-pii-scan", *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=300)

    done = run(str(GOLDEN_CASES / "wfm.accrual_balance_007.yaml"), "-o", str(tmp_path))
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    assert ["ADK", "eval", "adk/wfm_accruals_golden/test_config.json", "written"] in rows
    assert ["Numeric", "oracle", "numeric/wfm.accrual_balance_007.oracle.json", "written"] in rows
    assert ["Deterministic", "checks", "checks/wfm.accrual_balance_007.checks.json", "written"] in rows
    assert "wfm.accrual_balance_007: 3 target(s): adk, numeric, checks" in done.stdout
    bad_target = run(str(GOLDEN_CASES), "-o", str(tmp_path), "--target", "adk,promptfoo")
    assert bad_target.returncode == 2
    assert bad_target.stderr.strip() == (
        "promote compile: unknown target promptfoo (choose from adk,ragas,numeric,safety,checks)")
    invalid = FIXTURES / "cases" / "invalid" / "wfm.bad_status_001.yaml"
    refused = run(str(invalid), "-o", str(tmp_path / "refused"))
    assert refused.returncode == 2
    assert refused.stderr.startswith(f"promote compile: {invalid}:6:1: status: "), refused.stderr
    assert "only valid cases compile" in refused.stderr and not (tmp_path / "refused").exists()


def test_a_draft_is_not_compiled(tmp_path: Path) -> None:
    name = "hr.policy_carryover_004.yaml"
    text = (GOLDEN_CASES / name).read_text(encoding="utf-8").replace("status: valid", "status: draft")
    (tmp_path / name).write_text(text, encoding="utf-8")
    report = compile_paths([tmp_path / name], tmp_path / "out")
    assert report.lines == [] and report.skipped == [(str(tmp_path / name),
                                                      "status draft: only valid cases are compiled")]


def test_compiling_never_imports_google_adk_or_ragas(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from promote.cli.main import main\n"
        f"assert main(['compile', {str(GOLDEN_CASES)!r}, '-o', {str(tmp_path)!r}, '--no-pii-scan']) == 0\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('google.adk', 'ragas')))\n"
        "print('MODULES=' + ','.join(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == "MODULES="  # the product runtime needs neither backend installed


def test_a_case_with_residual_pii_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    leaky = FIXTURES / "cases" / "invalid" / "wfm.residual_pii_001.yaml"
    with pytest.raises(PromoteError) as raised:
        compile_paths([leaky], tmp_path / "out")
    assert str(raised.value).startswith(f"{leaky}:") and "found: scrub it" in str(raised.value)
    assert not (tmp_path / "out").exists()


def test_entity_handles_resolve_through_the_eval_repos_catalog(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    cases = tmp_path / "evals" / "cases"
    cases.mkdir(parents=True)
    shutil.copy(GOLDEN_CASES / "hr.policy_carryover_004.yaml", cases)
    (tmp_path / "evals" / "entities.yaml").write_text(
        "- {handle: employees.carryover_edge_ca, resolves_to: E-50001, via: aag/pto-scenarios@v4}\n", "utf-8")
    out = tmp_path / "evals" / "compiled"
    compile_paths([cases], out, targets=["adk", "numeric", "safety"], pii_scan=False)
    folder = out / "adk" / "hr_policy_carryover_golden"
    eval_set = (folder / "hr_policy_carryover_golden.evalset.json").read_text()
    assert '"user_id": "E-50001"' in eval_set and "E-44213" not in eval_set
    oracle = (out / "numeric" / "hr.policy_carryover_004.oracle.json").read_text()
    assert '"resolves_to": "E-50001"' in oracle and '"via": "aag/pto-scenarios@v4"' in oracle
    probe = (out / "safety" / "hr.policy_carryover_004.probe.yaml").read_text()
    assert "- E-50001" in probe and "E-44213" not in probe
