"""`promote draft` on the committed ADK fixture traces, checked against what the scripted agents did.

The drafts of the carryover and accrual scenarios are committed in `fixtures/cases/drafts/`; regenerate
them (after the traces or the drafter change) with

    PROMOTE_WRITE_DRAFTS=1 .venv/bin/python -m pytest tests/test_draft_fixtures.py -k committed
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from promote.case.model import Case
from promote.case.pii import residual_scan_for_validate
from promote.case.rules import PLACEHOLDER_RE, figure_in_text
from promote.case.store import CaseRefused
from promote.case.yaml_io import load_tree
from promote.draft import DraftOptions, DraftResult, NothingMatched, draft_all, draft_from_export, write_draft
from promote.errors import PromoteError
from promote.listing import list_traces
from promote.case.validate import validate_file
from tests.conftest import HR_REPO

ROOT = Path(__file__).resolve().parent.parent
TRACES = ROOT / "fixtures" / "traces"
DRAFTS = ROOT / "fixtures" / "cases" / "drafts"
EXPECTED = json.loads((TRACES / "expected.json").read_text(encoding="utf-8"))
PLANTED = [item["value"] for item in EXPECTED["planted_pii"]]
EXPORT = TRACES / "adk2.otlp.jsonl"
# One content-bearing file per producer run: every trace of each must draft cleanly.
RUN_FILES = ["adk2.otlp.jsonl", "adk1.otlp.jsonl", "openinference.otlp.jsonl",
             "openinference-schema1.otlp.jsonl.gz"]
OPTIONS = DraftOptions(by="hermione.g", now=datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC), repo=HR_REPO)


@pytest.fixture(scope="module")
def engine():
    from scrubbers import ScrubEngine, load_policy

    return ScrubEngine(load_policy())


def scenario(name: str, run: str = "adk2") -> dict:
    return next(s for s in EXPECTED["runs"][run]["scenarios"] if s["scenario"] == name)


def draft_scenario(name: str, engine, export: Path = EXPORT, turn: int = 0) -> DraftResult:
    return draft_from_export(export, trace_id=scenario(name)["trace_id"], turn=turn, options=OPTIONS,
                             engine=engine)


def assert_no_planted_values(text: str) -> None:
    leaked = [value for value in PLANTED if value in text]
    assert not leaked, f"{len(leaked)} planted value(s) in the draft"  # never print them


@pytest.mark.parametrize("name", ["carryover", "accrual"])
def test_committed_drafts_regenerate_byte_for_byte(name: str, engine, tmp_path: Path) -> None:
    result = draft_scenario(name, engine)
    committed = DRAFTS / f"{result.case.id}.yaml"
    if os.environ.get("PROMOTE_WRITE_DRAFTS"):
        write_draft(result, committed, force=True)
    fresh = tmp_path / "drafts" / committed.name  # same depth below the repo as the committed one
    fresh.parent.mkdir()
    text = write_draft(result, fresh, force=False).text
    assert committed.read_bytes().split(b"\n", 1)[1] == text.encode("utf-8").split(b"\n", 1)[1], (
        f"{committed} is stale: regenerate it (see this module's docstring)")
    reloaded = Case.model_validate(load_tree(committed))
    assert reloaded.model_dump() == result.case.model_dump()  # quoting kept dates as text, 48.0 a float


@pytest.mark.parametrize("name", ["carryover", "accrual"])
def test_draft_matches_the_scripted_run(name: str, engine) -> None:
    expected = scenario(name)["turns"][0]
    case = draft_scenario(name, engine).case
    assert [c.name for c in case.expected_tools.calls] == [c["name"] for c in expected["tool_calls"]]
    for call, want in zip(case.expected_tools.calls, expected["tool_calls"]):
        for key, value in want["args"].items():
            # Personal values became placeholders; everything else is exactly what the agent sent.
            assert call.args[key] == value or (value in PLANTED and PLACEHOLDER_RE.fullmatch(call.args[key]))
    kept = [value for value in EXPECTED["keep"] if value in expected["final_response"]]
    assert kept and all(value in case.expected_output for value in kept)
    assert PLACEHOLDER_RE.sub("", case.expected_output) != case.expected_output  # the name was scrubbed
    assert_no_planted_values(case.input + case.expected_output)


def test_carryover_figures_and_citations(engine) -> None:
    case = draft_scenario("carryover", engine).case
    figures = {f.value: f for f in case.numeric}
    assert sorted(figures) == [22.5, 40, 62.5]
    assert (figures[62.5].source.tool, figures[62.5].source.path) == (
        "get_employee_context", "$.pto_balance_hours"
    )
    assert figures[22.5].source.derived
    assert all(figure_in_text(f.value, f.unit, case.expected_output) for f in case.numeric)
    assert [c.citation for c in case.retrieval_context] == ["PTO-CA-2026 §4.2", "PTO-CA-2026 §4.3"]
    assert case.must_cite == ["PTO-CA-2026 §4.2"]
    assert case.kind == ["functional", "retrieval", "numeric", "safety"]


def test_accrual_figures_have_source_paths(engine) -> None:
    case = draft_scenario("accrual", engine).case
    assert [(f.value, f.unit, f.source.tool, f.source.path) for f in case.numeric] == [
        (48.0, "h", "get_accrual_balances", "$.balances.pto"),
        (16.0, "h", "get_accrual_balances", "$.balances.sick"),
        (8.0, "h", "get_accrual_balances", "$.balances.personal"),
    ]
    assert case.params == {"as_of": "2026-06-29"}


def test_provenance_is_complete(engine) -> None:
    result = draft_scenario("carryover", engine)
    provenance = result.case.provenance
    trace = next(t for t in list_traces([EXPORT]).traces if t.trace_id == scenario("carryover")["trace_id"])
    assert provenance.trace.trace_id == trace.trace_id and provenance.trace.turn == 0
    assert provenance.trace.span_ids == trace.turns[0].span_ids and provenance.trace.span_ids
    assert provenance.trace.service == "hr-policy-advisor"
    assert provenance.trace.invocation_id == trace.turns[0].invocation_id
    assert provenance.trace.export_sha256 == hashlib.sha256(EXPORT.read_bytes()).hexdigest()
    assert (provenance.promoted_by, provenance.review.state) == ("hermione.g", "draft")
    scrubbed = provenance.scrubbed
    assert scrubbed.engine == "presidio" and scrubbed.version == engine.presidio_version
    assert re.fullmatch(r"default@sha256:[0-9a-f]{64}", scrubbed.policy)
    assert scrubbed.replaced.get("PERSON", 0) >= 1 and scrubbed.replaced.get("EMAIL_ADDRESS", 0) >= 1


@pytest.mark.parametrize("file_name", RUN_FILES)
def test_every_fixture_turn_drafts_to_a_valid_draft_without_planted_values(
    file_name: str, engine, tmp_path
) -> None:
    export = TRACES / file_name
    traces = list_traces([export]).traces
    assert sum(len(t.turns) for t in traces) == 7
    for trace in traces:
        for turn in trace.turns:
            result = draft_from_export(export, trace_id=trace.trace_id, turn=turn.index, options=OPTIONS,
                                       engine=engine)
            out = tmp_path / f"{trace.trace_id}-{turn.index}" / f"{result.case.id}.yaml"
            assert_no_planted_values(write_draft(result, out, force=False).text)
            verdict = validate_file(out, residual_scan=residual_scan_for_validate)
            assert verdict.ok and verdict.status == "draft", [p.message for p in verdict.problems]


def test_unknown_trace_id_lists_the_ids_found(engine) -> None:
    with pytest.raises(PromoteError,
                       match="no trace 0000.*traces in this file: .*" + scenario("carryover")["trace_id"]):
        draft_from_export(EXPORT, trace_id="0000", options=OPTIONS, engine=engine)


def test_trace_id_prefix_is_enough(engine) -> None:
    trace_id = scenario("accrual")["trace_id"]
    result = draft_from_export(EXPORT, trace_id=trace_id[:10].upper(), options=OPTIONS, engine=engine)
    assert result.case.provenance.trace.trace_id == trace_id


def test_turn_out_of_range_on_a_real_trace(engine) -> None:
    with pytest.raises(PromoteError, match=r"has 2 turn\(s\); there is no turn 2"):
        draft_scenario("payroll_session", engine, turn=2)


def test_export_without_content_is_refused_with_the_fix(engine) -> None:
    trace_id = scenario("carryover", run="adk2-default")["trace_id"]
    with pytest.raises(PromoteError, match="no recorded user message.*content capture"):
        draft_from_export(TRACES / "adk2-default.otlp.jsonl", trace_id=trace_id, options=OPTIONS,
                          engine=engine)


def test_batch_drafting_numbers_files_and_skips_duplicates(engine, tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    written = draft_all(EXPORT, cases_dir=cases, tool=None, agent="hr_policy_advisor", options=OPTIONS,
                        engine=engine)
    assert sorted(p.name for p in written) == [
        "benefits.plan_coverage_001.yaml", "hr.policy_carryover_001.yaml", "hr.policy_carryover_002.yaml",
        "payroll.direct_deposit_001.yaml", "payroll.pay_statement_001.yaml", "payroll.pay_statement_002.yaml",
        "wfm.accrual_balance_001.yaml",
    ]
    for path in written:
        assert validate_file(path).ok
    notes: list = []
    again = draft_all(EXPORT, cases_dir=cases, tool=None, agent=None, options=OPTIONS, engine=engine,
                      notes=notes)
    assert again == [] and len(notes) == 7 and all("skipped" in note.message for note in notes)
    only = draft_all(EXPORT, cases_dir=tmp_path / "accruals", tool="get_accrual_balances", agent=None,
                     options=OPTIONS, engine=engine)
    assert sorted(p.name for p in only) == ["hr.policy_carryover_001.yaml", "wfm.accrual_balance_001.yaml"]
    with pytest.raises(NothingMatched, match="no turn matches --agent payroll_bot") as nothing:
        draft_all(EXPORT, cases_dir=tmp_path / "none", tool=None, agent="payroll_bot", options=OPTIONS,
                  engine=engine)
    assert nothing.value.exit_code == 1


def test_the_write_gate_knows_the_raw_values_the_trace_held(engine, tmp_path: Path) -> None:
    result = draft_scenario("carryover", engine)
    planted = [value for value in PLANTED if value in result.known_values]
    assert planted, "the scrubbed values of the trace are known to the gate"
    assert not any(value in repr(result) or value in str(result.model_dump()) for value in planted)
    result.case.title = f"Carryover for {planted[0]}"  # an edit that puts a raw value back
    with pytest.raises(CaseRefused) as refused:
        write_draft(result, tmp_path / f"{result.case.id}.yaml", force=False)
    assert "known-value" in {p.rule for p in refused.value.problems}
    assert planted[0] not in str(refused.value)
    assert not (tmp_path / f"{result.case.id}.yaml").exists()
