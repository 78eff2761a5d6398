"""`promote.case.store`: the one door for case files (load, render, save), and keys decided by the file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from promote.case.model import Budgets, Case
from promote.case.store import CaseRefused, load_case, render_case, save_case
from promote.errors import PromoteError
from tests.conftest import FIXTURES, GOLDEN_CASES

DRAFTS = FIXTURES / "cases" / "drafts"
ALL_FIXTURE_CASES = sorted(GOLDEN_CASES.glob("*.yaml")) + sorted(DRAFTS.glob("*.yaml"))


def copy_case(source: Path, folder: Path) -> Path:
    target = folder / source.name
    target.write_bytes(source.read_bytes())
    return target


@pytest.mark.parametrize("path", ALL_FIXTURE_CASES, ids=lambda p: p.stem)
def test_loaded_case_renders_byte_for_byte(path: Path) -> None:
    loaded = load_case(path)
    assert render_case(loaded.case, loaded) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", sorted(GOLDEN_CASES.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_rebuilt_model_keeps_the_keys_the_file_has(path: Path, tmp_path: Path) -> None:
    # The model rebuilt without its defaults compares equal, and counts different fields as "set":
    # the file must not lose format, revision, tier, origin, tenant.* or expected_tools.order.
    target = copy_case(path, tmp_path)
    loaded = load_case(target)
    rebuilt = Case(**loaded.case.model_dump(exclude_defaults=True))
    assert rebuilt == loaded.case
    saved = save_case(rebuilt, target, base=loaded, residual_scan=None)
    assert saved.text == path.read_text(encoding="utf-8")
    assert target.read_bytes() == path.read_bytes()


def test_a_key_the_file_lacks_is_written_only_when_the_edit_changes_it(tmp_path: Path) -> None:
    target = tmp_path / "hr.minimal_001.yaml"
    target.write_text("id: hr.minimal_001\ntitle: t\ninput: i\n")
    loaded = load_case(target)
    assert (
        render_case(loaded.case, loaded)
        == "# yaml-language-server: $schema=../../schema/portable-v1.schema.json\n"
        "id: hr.minimal_001\ntitle: t\ninput: i\n"
    )
    loaded.case.tier = "silver"
    text = render_case(loaded.case, loaded)
    assert "tier: silver\n" in text and "revision" not in text and "format" not in text


def test_render_is_exactly_what_save_writes(tmp_path: Path) -> None:
    target = copy_case(GOLDEN_CASES / "hr.policy_carryover_004.yaml", tmp_path)
    loaded = load_case(target)
    loaded.case.revision = 8
    preview = render_case(loaded.case, loaded)
    assert loaded.tree["revision"] == 7  # rendering never edits the loaded tree
    saved = save_case(loaded.case, target, base=loaded)  # with the real residual-PII gate
    assert saved.text == preview == target.read_text(encoding="utf-8")


def test_a_valid_case_with_an_error_is_refused_a_draft_is_written(tmp_path: Path) -> None:
    target = copy_case(GOLDEN_CASES / "hr.policy_carryover_004.yaml", tmp_path)
    before = target.read_bytes()
    loaded = load_case(target)
    loaded.case.must_cite.append("PTO-XX-0000 §9")  # not the citation of any chunk
    with pytest.raises(CaseRefused) as refused:
        save_case(loaded.case, target, base=loaded, residual_scan=None)
    assert [(p.rule, p.field) for p in refused.value.problems] == [("must-cite", "must_cite[1]")]
    assert refused.value.exit_code == 2 and target.read_bytes() == before
    loaded.case.status = "draft"
    saved = save_case(loaded.case, target, base=loaded, residual_scan=None)
    assert any(p.rule == "must-cite" for p in saved.problems)


def test_personal_data_is_refused_naming_the_field_never_the_value(tmp_path: Path) -> None:
    target = copy_case(GOLDEN_CASES / "hr.policy_carryover_004.yaml", tmp_path)
    loaded = load_case(target)
    loaded.case.expected_output += " Write to maria.gonzalez@acme-retail.com."
    with pytest.raises(CaseRefused) as refused:
        save_case(loaded.case, target, base=loaded)
    assert (
        "expected_output (EMAIL_ADDRESS)" in str(refused.value) and "maria" not in str(refused.value).lower()
    )


def test_known_values_of_the_source_trace_are_refused(tmp_path: Path) -> None:
    # A value the NER does not read as personal ("Zorblax") is still refused when the trace held it.
    case = Case(id="hr.known_001", title="t", input="What does Zorblax Quint get?", expected_output="ok")
    with pytest.raises(CaseRefused) as refused:
        save_case(case, tmp_path / "hr.known_001.yaml", known_values=["zorblax quint"], residual_scan=None)
    assert [(p.rule, p.field) for p in refused.value.problems] == [("known-value", "input")]
    assert "zorblax" not in str(refused.value).lower()
    assert not (tmp_path / "hr.known_001.yaml").exists()


def test_an_existing_file_is_replaced_only_when_asked(tmp_path: Path) -> None:
    case = Case(id="hr.exists_001", title="t", input="i")
    target = tmp_path / "hr.exists_001.yaml"
    target.write_text("keep me\n")
    with pytest.raises(PromoteError, match="already there"):
        save_case(case, target, residual_scan=None)
    assert target.read_text() == "keep me\n"
    save_case(case, target, overwrite=True, residual_scan=None)
    assert "id: hr.exists_001" in target.read_text()


def test_the_file_name_must_be_the_id(tmp_path: Path) -> None:
    with pytest.raises(CaseRefused) as refused:
        save_case(Case(id="hr.named_001", title="t", input="i"), tmp_path / "other.yaml", residual_scan=None)
    assert refused.value.problems[0].rule == "id"


def test_file_mode_is_kept_and_new_files_follow_the_umask(tmp_path: Path) -> None:
    target = copy_case(GOLDEN_CASES / "hr.policy_carryover_004.yaml", tmp_path)
    target.chmod(0o640)
    loaded = load_case(target)
    loaded.case.revision = 8
    save_case(loaded.case, target, base=loaded, residual_scan=None)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    previous = os.umask(0o022)
    try:
        fresh = tmp_path / "hr.fresh_001.yaml"
        save_case(Case(id="hr.fresh_001", title="t", input="i"), fresh, residual_scan=None)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644  # not mkstemp's private 0600


def test_legacy_metadata_budgets_load_as_budgets_and_migrate_on_save(tmp_path: Path) -> None:
    target = tmp_path / "hr.legacy_001.yaml"
    target.write_text(
        "id: hr.legacy_001\ntitle: t\ninput: i\nmetadata:\n  pillar: hr\n"
        "  budgets: {tool_calls: 2, model_calls: 3, input_tokens: 1850, output_tokens: 130, "
        "duration_ms: 147.4}\n"
    )
    loaded = load_case(target)
    assert loaded.case.budgets == Budgets(max_tool_calls=2, max_model_calls=3, max_tokens=1980,
                                          max_duration_ms=147.4)
    assert loaded.case.metadata == {"pillar": "hr"}
    text = save_case(loaded.case, target, base=loaded, residual_scan=None).text
    assert "input: i\nbudgets:\n  max_tool_calls: 2\n  max_model_calls: 3\n  max_tokens: 1980\n" in text
    assert (
        "input_tokens" not in text
        and Case.model_validate(load_case(target).tree).budgets == loaded.case.budgets
    )


def test_load_case_refuses_a_schema_error_with_file_and_line(tmp_path: Path) -> None:
    target = tmp_path / "hr.bad_001.yaml"
    target.write_text("id: hr.bad_001\ntitle: t\ninput: i\nrevision: 0\n")
    with pytest.raises(CaseRefused, match=r"hr.bad_001.yaml:4:1: revision"):
        load_case(target)


def _with_rule(rule: object) -> Case:
    return Case.model_validate({
        "id": "hr.rule_001", "title": "t", "input": "How much PTO carries over?", "expected_output": "ok",
        "expected_tools": {"calls": [{"name": "get_employee_context",
                                      "args": {"employee_id": "<EMPLOYEE_ID_1>"},
                                      "match": {"employee_id": rule}}]},
    })


@pytest.mark.parametrize("rule", ["ignore", "exact", "tolerance:0.5"])
def test_a_match_rule_on_a_personal_argument_name_is_structure(tmp_path: Path, rule: str) -> None:
    # `employee_id: ignore` names an argument and a rule kind: nothing personal (the real NER gate).
    saved = save_case(_with_rule(rule), tmp_path / "hr.rule_001.yaml")
    assert f"employee_id: {rule}" in saved.text


@pytest.mark.parametrize("rule", [["E-48213"], "regex:^E-48213$"])
def test_a_real_value_in_a_match_rule_is_still_refused(tmp_path: Path, rule: object) -> None:
    with pytest.raises(CaseRefused) as refused:
        save_case(_with_rule(rule), tmp_path / "hr.rule_001.yaml")
    assert "expected_tools.calls[0].match.employee_id" in str(refused.value)
    assert "48213" not in str(refused.value)
    assert not (tmp_path / "hr.rule_001.yaml").exists()


def test_salted_fingerprints_refuse_what_the_values_refuse(tmp_path: Path) -> None:
    # The terminal UI hands over fingerprints, never the raw values: the gate must refuse the same cases.
    from promote.case.fingerprints import ValueFingerprints

    prints = ValueFingerprints.of(["Zorblax Quint", "E-48213", "no"])
    assert b"zorblax" not in repr(prints).encode().lower()
    case = Case(id="hr.known_001", title="t", input="What does ZORBLAX QUINT get?", expected_output="ok")
    with pytest.raises(CaseRefused) as refused:
        save_case(case, tmp_path / "hr.known_001.yaml", known_values=prints, residual_scan=None)
    assert [(p.rule, p.field) for p in refused.value.problems] == [("known-value", "input")]
    inside_words = Case(id="hr.known_002", title="t", input="Zorblax Quintet and XE-482134",
                        expected_output="no")
    save_case(inside_words, tmp_path / "hr.known_002.yaml", known_values=prints, residual_scan=None)
    id_case = Case(id="hr.known_003", title="t", input="Look up (E-48213).", expected_output="ok")
    with pytest.raises(CaseRefused):
        save_case(id_case, tmp_path / "hr.known_003.yaml", known_values=prints, residual_scan=None)
