"""The schema says what is meaningful: values that cannot mean anything are refused where they stand.

A tolerance of NaN passes every figure, a negative one fails every figure, an empty text is in every
reply, `true` is not a revision and -1 is not a turn. Each is placed in every field of its class and
must fail `validate` (exit 1) with a schema error on that field; `check` refuses such a case (exit 2).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from promote.cli.main import main
from tests.conftest import GOLDEN_CASES, TRACES

HERO = GOLDEN_CASES / "hr.policy_carryover_004.yaml"


def _case(tmp_path: Path, old: str, new: str, *, append: str = "") -> Path:
    text = HERO.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / HERO.name
    path.write_text(text.replace(old, new, 1) + append, encoding="utf-8")
    return path


TOLERANCE = "    tolerance: 0\n"
MEANINGLESS = {
    "figure-tolerance-nan": (TOLERANCE, "    tolerance: .nan\n", "numeric.0.tolerance"),
    "figure-tolerance-inf": (TOLERANCE, "    tolerance: .inf\n", "numeric.0.tolerance"),
    "figure-tolerance-negative": (TOLERANCE, "    tolerance: -1\n", "numeric.0.tolerance"),
    "figure-value-nan": ("value: 40", "value: .nan", "numeric.0.value"),
    "figure-name-empty": ("- name: carryover_cap", "- name: ''", "numeric.0.name"),
    "figure-oracle-blank": ("oracle: ukg-accrual-engine\n", "oracle: ' '\n", "numeric.0.oracle"),
    "revision-true": ("revision: 7", "revision: true", "revision"),
    "revision-text": ("revision: 7", "revision: '7'", "revision"),
    "revision-zero": ("revision: 7", "revision: 0", "revision"),
    "title-empty": ("title: PTO carryover policy with at-risk balance", "title: ''", "title"),
    "title-blank": ("title: PTO carryover policy with at-risk balance", "title: '   '", "title"),
    "input-empty": ("input: If I do not", "input: ''\nx_input: If I do not", "input"),
    "tool-name-empty": ("- name: get_employee_context", "- name: ''", "expected_tools.calls.0.name"),
    "entity-handle-empty": ("- handle: employees.carryover_edge_ca", "- handle: ''", "entities.0.handle"),
    "tenant-id-empty": ("id: acme-retail-us", "id: ''", "tenant.id"),
    "citation-empty": ("- citation: PTO-CA-2026 §4.3", "- citation: ''", "retrieval_context.1.citation"),
    "must-cite-empty": ("must_cite: [PTO-CA-2026 §4.2]", "must_cite: ['']", "must_cite.0"),
    "dataset-empty": ("datasets: [hr-policy-carryover-golden]", "datasets: ['']", "datasets.0"),
    "turn-negative": ("turn: 0", "turn: -1", "provenance.trace.turn"),
    "turn-true": ("turn: 0", "turn: true", "provenance.trace.turn"),
}
APPENDED = {
    "reply-contains-empty": ("reply:\n  contains: ['']\n", "reply.contains.0"),
    "reply-lacks-blank": ("reply:\n  lacks: [' ']\n", "reply.lacks.0"),
    "reply-matches-empty": ("reply:\n  matches: ['']\n", "reply.matches.0"),
    "forbidden-tool-empty": ("forbidden_tools: ['']\n", "forbidden_tools.0"),
    "tool-result-tool-empty": ("tool_results: [{tool: '', contains: x}]\n", "tool_results.0.tool"),
    "tool-result-contains-blank": ("tool_results: [{tool: t, contains: '  '}]\n", "tool_results.0.contains"),
    "budget-true": ("budgets: {max_tool_calls: true}\n", "budgets.max_tool_calls"),
    "budget-negative": ("budgets: {max_tokens: -5}\n", "budgets.max_tokens"),
    "budget-nan": ("budgets: {max_duration_ms: .nan}\n", "budgets.max_duration_ms"),
}


def _field_of(out: str) -> list[str]:
    return [line.split(": error: ")[1].split(":")[0] for line in out.splitlines() if ": error: " in line]


@pytest.mark.parametrize("name", sorted(MEANINGLESS))
def test_a_meaningless_value_fails_validation_on_its_field(tmp_path, capsys, name) -> None:
    old, new, field = MEANINGLESS[name]
    path = _case(tmp_path, old, new)
    assert main(["validate", "--no-pii-scan", str(path)]) == 1
    fields = _field_of(capsys.readouterr().out)
    assert any(found.replace("[", ".").replace("]", "") == field for found in fields), fields


@pytest.mark.parametrize("name", sorted(APPENDED))
def test_a_meaningless_check_fails_validation_on_its_field(tmp_path, capsys, name) -> None:
    append, field = APPENDED[name]
    path = _case(tmp_path, "title: ", "title: ", append="\n" + append)
    assert main(["validate", "--no-pii-scan", str(path)]) == 1
    fields = _field_of(capsys.readouterr().out)
    assert any(found.replace("[", ".").replace("]", "") == field for found in fields), fields


def test_check_refuses_a_case_whose_tolerance_passes_everything(tmp_path, capsys) -> None:
    path = _case(tmp_path, TOLERANCE, "    tolerance: .nan\n")
    assert main(["check", str(path), "--trace", str(TRACES / "adk2.otlp.jsonl")]) == 2
    assert "tolerance" in capsys.readouterr().err


@pytest.mark.parametrize("layout", ["empty", "only-text-files", "nested-empty"])
def test_validate_on_a_folder_with_no_case_exits_2(tmp_path, capsys, layout) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    if layout == "only-text-files":
        (folder / "notes.txt").write_text("x")
    if layout == "nested-empty":
        (folder / "a" / "b").mkdir(parents=True)
    assert main(["validate", "--no-pii-scan", str(folder)]) == 2
    assert "no case file" in capsys.readouterr().err


@pytest.mark.parametrize("given", ["folder", "file"])
def test_a_dangling_symlink_is_reported_not_skipped(tmp_path, capsys, given) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / HERO.name).write_bytes(HERO.read_bytes())
    link = folder / "hr.gone_001.yaml"
    link.symlink_to(tmp_path / "nowhere.yaml")
    target = folder if given == "folder" else link
    assert main(["validate", "--no-pii-scan", str(target)]) == 2
    captured = capsys.readouterr()
    assert "dangling" in captured.err and "hr.gone_001.yaml" in captured.err
