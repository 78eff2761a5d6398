"""`promote validate`: valid seeds pass, each invalid fixture fails with its own rule and location."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promote.case.model import Case
from promote.case.rules import case_rule_problems, figure_in_text
from promote.case.validate import validate_paths
from tests.conftest import FIXTURES, GOLDEN_CASES, run_cli

INVALID = FIXTURES / "cases" / "invalid"

# file stem → (rule, field, line) that its one broken rule must produce
EXPECTED_INVALID = {
    "wfm.unknown_key_001": ("schema", "expected_ouput", 16),
    "wfm.id_mismatch_001": ("id", "id", 4),
    "wfm.revision_zero_001": ("schema", "revision", 5),
    "wfm.figure_missing_001": ("figure-in-output", "numeric[0].value", 18),
    "wfm.figure_wrong_unit_001": ("figure-in-output", "numeric[0].value", 18),
    "wfm.kind_without_data_001": ("kind-data", "kind[2]", 19),
    "wfm.cite_missing_001": ("must-cite", "must_cite[0]", 23),
    "wfm.match_unknown_arg_001": ("match-args", "expected_tools.calls[0].match.employee_id", 16),
    "wfm.unresolved_entity_001": ("draft-todo", "entities[0].handle", 21),
    "wfm.bad_status_001": ("schema", "status", 6),
}


def test_golden_seed_cases_are_valid() -> None:
    report = validate_paths([GOLDEN_CASES])
    assert [Path(r.path).stem for r in report.files] == [
        "benefits.plan_coverage_001", "hr.policy_carryover_004", "wfm.accrual_balance_007"]
    assert report.ok, [p for r in report.files for p in r.problems]


@pytest.mark.parametrize("stem", sorted(EXPECTED_INVALID))
def test_each_invalid_case_fails_with_its_own_rule(stem: str) -> None:
    rule, field, line = EXPECTED_INVALID[stem]
    report = validate_paths([INVALID / f"{stem}.yaml"], residual_scan=None)
    (result,) = report.files
    assert not result.ok
    assert [(p.rule, p.field) for p in result.problems if p.severity == "error"] == [(rule, field)]
    assert result.problems[0].where.startswith(f"{INVALID / stem}.yaml:{line}:")


def test_duplicate_ids_across_folders_are_reported() -> None:
    report = validate_paths([GOLDEN_CASES, INVALID / "duplicate"], residual_scan=None)
    failed = [r for r in report.files if not r.ok]
    assert [Path(r.path).parent.name for r in failed] == ["duplicate"]
    assert "golden/wfm.accrual_balance_007.yaml" in failed[0].problems[0].message


def test_residual_pii_fails_a_case_without_printing_the_value() -> None:
    result = run_cli("validate", "--json", str(INVALID / "wfm.residual_pii_001.yaml"))
    assert result.returncode == 1
    report = json.loads(result.stdout)
    problems = report["files"][0]["problems"]
    assert {p["rule"] for p in problems} == {"residual-pii"}
    assert {p["field"] for p in problems} == {"expected_output"}
    assert {"PERSON", "EMAIL_ADDRESS"} <= {p["message"].split()[0] for p in problems}
    assert b"Maria" not in result.stdout + result.stderr
    assert b"acme-retail.com" not in result.stdout


def test_cli_reports_valid_and_invalid_with_exit_1() -> None:
    result = run_cli("validate", "--no-pii-scan", str(FIXTURES / "cases"))
    verdicts = {
        Path(line.split()[1]).resolve(): line.split()[0]
        for line in result.stdout.decode().splitlines()
        if line.startswith(("ok ", "FAIL "))
    }
    assert result.returncode == 1, result.stderr
    assert {verdicts[(INVALID / f"{stem}.yaml").resolve()] for stem in EXPECTED_INVALID} == {"FAIL"}
    assert [verdicts[p.resolve()] for p in GOLDEN_CASES.glob("*.yaml")] == ["ok"] * 3
    assert f"{len(EXPECTED_INVALID) + 1} failed" in result.stdout.decode().splitlines()[-1]


@pytest.mark.parametrize("name", sorted(p.name for p in (FIXTURES / "bad-cases").iterdir()))
def test_bad_input_exits_2_with_one_line_and_no_traceback(name: str) -> None:
    path = FIXTURES / "bad-cases" / name
    before = path.read_bytes()
    result = run_cli("validate", str(path))
    stderr = result.stderr.decode()
    assert result.returncode == 2
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1
    assert stderr.startswith(str(path))
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "value, unit, text, found",
    [
        (40, "h", "Up to 40 hours carry over", True),
        (62.5, "h", "You have 62.5 hours", True),
        (48.0, "h", "You have 48.0 hours", True),
        (2431.18, "USD", "net pay of $2,431.18 on June 30", True),
        (40, "h", "Up to 40 days carry over", False),
        (4, "h", "Up to 40 hours", False),
        (22.5, "h", "as much as 122.5 hours", False),
    ],
)
def test_figure_must_appear_as_written(value, unit, text, found) -> None:
    assert figure_in_text(value, unit, text) is found


def test_draft_todos_are_notes_on_drafts_and_errors_on_valid_cases() -> None:
    case = Case(id="hr.x_001", title="t", input="i", status="draft",
                entities=[{"handle": "unresolved.requesting_employee"}],
                expected_tools={"calls": [{"name": "get_employee_context",
                                           "args": {"employee_id": "<EMPLOYEE_ID_1>"}}]},
                expected_output="ok", kind=["functional"])
    problems = case_rule_problems(case, "hr.x_001")
    assert {(p[1], p[3]) for p in problems} == {("draft-todo", "note")}
    assert len(problems) == 2
    case.status = "valid"
    assert {p[3] for p in case_rule_problems(case, "hr.x_001")} == {"error"}
