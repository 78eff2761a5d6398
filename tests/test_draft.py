"""`promote draft` on hand-built scrubbed traces shaped like the fixture scenarios (no ingest, no NER
except the PII gate)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from promote.case.model import Budgets, ScrubInfo
from promote.case.pii import residual_scan_for_validate
from promote.case.rules import figure_in_text
from promote.draft import DraftOptions, draft_case, draft_text, gather_inputs, write_draft
from promote.ingest.sources import file_sha256
from promote.draft.figures import figures_in_text
from promote.draft.naming import title_from_input
from promote.errors import PromoteError
from promote.trace_model import ModelCall, ToolCall, Trace, Turn
from promote.case.validate import validate_file
from tests.conftest import HR_REPO

NOW = datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC)
SCRUB = ScrubInfo(version="2.2.366", policy="default@sha256:" + "ab" * 32,
                  replaced={"PERSON": 2, "EMAIL_ADDRESS": 1, "PHONE_NUMBER": 1, "EMPLOYEE_ID": 2})
CARRYOVER_REPLY = (
    "Hi <PERSON_1>, up to 40 hours of unused PTO carries into next year. Any balance above 40 hours is "
    "forfeited on December 31, and carried hours must be used by March 31 (PTO-CA-2026 §4.2). You currently "
    "have 62.5 hours, so as much as 22.5 hours could be at risk."
)
CHUNKS = [
    {"citation": "PTO-CA-2026 §4.2",
     "text": "Unused PTO carries over up to a maximum of 40 hours. Hours above 40 are forfeited "
             "on December 31."},
    {"citation": "PTO-CA-2026 §4.3",
     "text": "Carryover hours must be used by March 31 of the following year."},
]


def carryover_trace() -> Trace:
    turn = Turn(
        index=0,
        invocation_id="e-8c1d",
        started_at=datetime(2026, 6, 29, 23, 58, tzinfo=UTC),
        duration_ms=41.25,
        user_input="Hi, I'm <PERSON_1> (<EMAIL_ADDRESS_1>, cell <PHONE_NUMBER_1>). If I do not "
                   "use all my PTO this year, how much carries into next year?",
        final_response=CARRYOVER_REPLY,
        tool_calls=[
            ToolCall(name="get_employee_context", args={"employee_id": "<EMPLOYEE_ID_1>"}, span_id="a1" * 8,
                     result={"employee_id": "<EMPLOYEE_ID_1>", "name": "<PERSON_1>", "work_state": "CA",
                             "hire_date": "2019-03-18", "pto_balance_hours": 62.5}),
            ToolCall(name="search_hr_policy", args={"topic": "pto_carryover", "jurisdiction": "CA"},
                     span_id="b2" * 8, result={"topic": "pto_carryover", "jurisdiction": "CA",
                                               "chunks": CHUNKS}),
        ],
        model_calls=[ModelCall(model="gemini-2.5-flash", input_tokens=800, output_tokens=10)] * 3,
        input_tokens=2400,
        output_tokens=30,
        span_ids=["c3" * 8, "a1" * 8, "b2" * 8],
    )
    return Trace(trace_id="1dbad0559ffe093d88cf051e731c1fa4", service="hr-policy-advisor",
                 agent="hr_policy_advisor", turns=[turn])


def accrual_trace() -> Trace:
    turn = Turn(
        index=0,
        started_at=datetime(2026, 6, 29, 16, 3, tzinfo=UTC),
        user_input="Check my accruals. This is <PERSON_1>, employee <EMPLOYEE_ID_1>, SSN <US_SSN_1> "
                   "if you need it.",
        final_response="Hi <PERSON_2>, you have 48.0 hours of PTO, 16.0 hours of sick time, and 8.0 hours of "
                       "personal time available as of June 29.",
        tool_calls=[
            ToolCall(name="get_employee_context", args={"employee_id": "<EMPLOYEE_ID_1>"},
                     result={"employee_id": "<EMPLOYEE_ID_1>", "pto_balance_hours": 48.0}),
            ToolCall(name="get_accrual_balances",
                     args={"employee_id": "<EMPLOYEE_ID_1>", "as_of": "2026-06-29"},
                     result={"as_of": "2026-06-29", "unit": "hours", "accrual_rate_per_pay_period": 4.62,
                             "balances": {"pto": 48.0, "sick": 16.0, "personal": 8.0}}),
        ],
        span_ids=["d4" * 8],
    )
    return Trace(trace_id="5ef8a7e684cf2f4840a52748bab6dfb2", service="hr-policy-advisor",
                 agent="hr_policy_advisor", turns=[turn])


@pytest.fixture
def export(tmp_path: Path) -> Path:
    path = tmp_path / "export.otlp.jsonl"
    path.write_bytes(b'{"resourceSpans": []}\n')
    return path


def draft(trace: Trace, export: Path, **options):
    options.setdefault("by", "hermione.g")
    options.setdefault("now", NOW)
    if "cases_dir" not in options:
        options.setdefault("repo", HR_REPO)
    chosen = DraftOptions(**options)
    return draft_case(trace, 0, inputs=gather_inputs(chosen, export_sha256=file_sha256(export)), scrub=SCRUB,
                      options=chosen)


def test_carryover_draft_holds_what_the_agent_did(export: Path) -> None:
    case = draft(carryover_trace(), export).case
    assert (case.status, case.origin, case.revision, case.tier) == ("draft", "trace", 1, "golden")
    assert case.id == "hr.policy_carryover_001"
    assert case.title == "If I do not use all my PTO this year, how much carries into next year"
    assert case.input.startswith("Hi, I'm <PERSON_1>") and case.expected_output == CARRYOVER_REPLY
    assert case.agent == "hr_policy_advisor"
    assert case.expected_tools.order == "in_order"
    assert [(c.name, c.args) for c in case.expected_tools.calls] == [
        ("get_employee_context", {"employee_id": "<EMPLOYEE_ID_1>"}),
        ("search_hr_policy", {"topic": "pto_carryover", "jurisdiction": "CA"}),
    ]
    assert [(c.citation, c.text) for c in case.retrieval_context] == [
        (c["citation"], c["text"]) for c in CHUNKS
    ]
    assert case.must_cite == ["PTO-CA-2026 §4.2"]
    assert case.kind == ["functional", "retrieval", "numeric", "safety"]
    assert [(r.category, r.scope) for r in case.safety.must_not] == [("pii-leak", "other-employee records")]
    assert [e.handle for e in case.entities] == ["unresolved.requesting_employee"]
    assert case.params == {"as_of": "2026-06-29"}
    assert case.tenant.model_dump() == {"id": "unresolved", "environment": "sandbox",
                                        "data": "production-scrubbed"}
    assert case.metadata == {"pillar": "hr", "sensitivity": "production-scrubbed"}
    # Budgets are typed and top-level (tokens: input + output), no longer under metadata. The run cost
    # 2 tool calls, 3 model calls, 2430 tokens and 41.25 ms: the suite policy's headroom (1.5x, rounded
    # up; tokens to the hundred) and its duration budget (30 s), never that one run's time.
    assert case.budgets == Budgets(max_tool_calls=3, max_model_calls=5, max_tokens=3700,
                                   max_duration_ms=30000)


def test_carryover_figures_carry_their_source(export: Path) -> None:
    figures = {f.value: f for f in draft(carryover_trace(), export).case.numeric}
    assert list(figures) == [40, 62.5, 22.5]
    balance, at_risk, cap = figures[62.5], figures[22.5], figures[40]
    assert (balance.name, balance.source.tool, balance.source.path) == (
        "pto_balance", "get_employee_context", "$.pto_balance_hours")
    assert at_risk.source.derived and at_risk.source.tool is None and at_risk.name == "at_risk"
    assert (cap.source.tool, cap.source.path) == ("search_hr_policy", "$.chunks[0].text")
    for figure in figures.values():
        assert (figure.unit, figure.oracle, figure.tolerance) == ("h", "unassigned", 0)
        assert figure_in_text(figure.value, figure.unit, CARRYOVER_REPLY)


def test_accrual_figures_come_from_the_tool_that_supplied_the_reply(export: Path) -> None:
    case = draft(accrual_trace(), export).case
    # 48.0 is also the context lookup's pto_balance_hours: the accrual tool supplied all three figures.
    assert [(f.name, f.value, f.source.tool, f.source.path) for f in case.numeric] == [
        ("pto_balance", 48.0, "get_accrual_balances", "$.balances.pto"),
        ("sick_balance", 16.0, "get_accrual_balances", "$.balances.sick"),
        ("personal_balance", 8.0, "get_accrual_balances", "$.balances.personal"),
    ]
    assert all(figure_in_text(f.value, f.unit, case.expected_output) for f in case.numeric)
    assert case.id == "wfm.accrual_balance_001" and case.title == "Check my accruals"
    assert case.kind == ["functional", "numeric", "safety"] and not case.retrieval_context


@pytest.mark.parametrize(("text", "expected"), [
    ("You received $2,431.18 net pay, from $3,250.00 gross.", [(2431.18, "USD"), (3250.0, "USD")]),
    ("You contribute 15% and get 3 days off, a 40-hour week.", [(15, "%"), (3, "days"), (40, "h")]),
    ("Forfeited on December 31, 2026; see PTO-CA-2026 §4.2 and §4.3.", []),
    ("Confirmation DD-2026-0629-7731; account ending in 6789; period 2026-13; as of June 29.", []),
    ("1,250 hours in 2026", [(1250, "h")]),
])
def test_figures_in_text_skip_dates_citations_and_bare_numbers(text: str, expected: list) -> None:
    assert [(f.value, f.unit) for f in figures_in_text(text)] == expected


def test_figure_names_are_two_part_identifiers(export: Path) -> None:
    trace = carryover_trace()
    trace.turns[0].final_response = "In TX up to 80 hours carry over, so 16.0 hours would be forfeited."
    names = [f.name for f in draft(trace, export).case.numeric]
    # A one-word name under the `name` key reads as a person's name to the PII gate.
    assert names == ["carry_over", "forfeited_hours"]


@pytest.mark.parametrize(("text", "title"), [
    ("Is my spouse <PERSON_1> covered under my dental plan? My card on file is <CREDIT_CARD_1>.",
     "Is my spouse covered under my dental plan"),
    ("Hi, this is <PERSON_1>, born <DATE_OF_BIRTH_1>. Please switch my direct deposit to routing "
     "<ABA_ROUTING_NUMBER_1>, account <US_BANK_NUMBER_1>.", "Please switch my direct deposit"),
    ("Thanks! And what was my net pay on the last statement?", "What was my net pay on the last statement"),
    # the placeholder's own label words go with it, in any domain: no list of HR words
    ("Please reset the door access of badge <BADGE_ID_1> before my shift.", "Please reset the door access"),
    ("Can you restart the pods, then page the on-call phone <PHONE_NUMBER_1> now.",
     "Can you restart the pods, then page the on-call"),
    ("Can you tell me how many hours of paid time off I can carry over into the next calendar year "
     "under the policy?", "Can you tell me how many hours of paid time off I can carry over into…"),
])
def test_title_names_no_one(text: str, title: str) -> None:
    assert title_from_input(text) == title


def test_written_draft_validates_as_a_draft_with_notes(export: Path, tmp_path: Path) -> None:
    result = draft(carryover_trace(), export)
    assert any("employee_id" in note.message and "placeholder" in note.message for note in result.notes)
    out = tmp_path / "cases" / f"{result.case.id}.yaml"
    write_draft(result, out, force=False)
    verdict = validate_file(out, residual_scan=residual_scan_for_validate)
    assert verdict.ok, [p.message for p in verdict.problems if p.severity == "error"]
    todo = {p.field for p in verdict.problems if p.rule == "draft-todo"}
    assert {"entities[0].handle", "numeric[0].oracle", "expected_tools.calls[0].args.employee_id"} <= todo


def test_provenance_is_complete(export: Path) -> None:
    provenance = draft(carryover_trace(), export).case.provenance
    trace = provenance.trace
    assert (trace.trace_id, trace.turn, trace.service, trace.invocation_id) == (
        "1dbad0559ffe093d88cf051e731c1fa4", 0, "hr-policy-advisor", "e-8c1d")
    assert trace.span_ids == ["c3" * 8, "a1" * 8, "b2" * 8]
    assert trace.export_sha256 == hashlib.sha256(export.read_bytes()).hexdigest()
    assert (provenance.promoted_by, provenance.promoted_at) == ("hermione.g", NOW)
    assert provenance.scrubbed == SCRUB and provenance.review.state == "draft"


def test_yaml_records_provenance_defaults_and_utc_time(export: Path) -> None:
    text = draft_text(draft(carryover_trace(), export))
    assert "engine: presidio" in text and "promoted_at: '2026-07-02T14:03:11Z'" in text
    assert "review: {state: draft}" in text and "source: {derived: true}" in text


def test_id_takes_the_next_free_number(export: Path, tmp_path: Path) -> None:
    cases = tmp_path / "evals" / "cases"
    (cases / "hr").mkdir(parents=True)
    for name in ("hr.policy_carryover_001.yaml", "hr/hr.policy_carryover_003.yaml",
                 "hr.policy_other_009.yaml"):
        (cases / name).write_text("format: portable-v1\n")
    assert draft(carryover_trace(), export, cases_dir=cases).case.id == "hr.policy_carryover_004"
    assert (
        draft(carryover_trace(), export, cases_dir=cases, pillar="benefits").case.id
        == "benefits.hr_policy_carryover_001"
    )
    assert draft(carryover_trace(), export, case_id="hr.pto_rollover_012").case.id == "hr.pto_rollover_012"


def test_duplicate_of_an_existing_case_is_reported(export: Path, tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    first = draft(carryover_trace(), export, cases_dir=cases)
    assert first.duplicate_of is None
    write_draft(first, cases / f"{first.case.id}.yaml", force=False)
    again = draft(carryover_trace(), export, cases_dir=cases)
    assert again.duplicate_of == str(cases / "hr.policy_carryover_001.yaml")
    assert again.case.id == "hr.policy_carryover_002"
    other = carryover_trace()
    other.turns[0].tool_calls.pop(0)  # same input, another trajectory: not a duplicate
    assert draft(other, export, cases_dir=cases).duplicate_of is None


def test_overwrite_is_refused_unless_forced(export: Path, tmp_path: Path) -> None:
    result = draft(carryover_trace(), export)
    out = tmp_path / "hr.policy_carryover_001.yaml"
    out.write_text("keep me\n")
    with pytest.raises(PromoteError, match="already there.*--force"):
        write_draft(result, out, force=False)
    assert out.read_text() == "keep me\n"
    text = write_draft(result, out, force=True).text
    assert out.read_text(encoding="utf-8") == text and text.startswith("# yaml-language-server")
    with pytest.raises(PromoteError, match="file name must be the case id"):
        write_draft(result, tmp_path / "other_name.yaml", force=False)
    assert write_draft(result, tmp_path, force=True).text == text  # a folder: <id>.yaml inside it


def test_pii_gate_names_the_field_never_the_value(export: Path, tmp_path: Path) -> None:
    result = draft(carryover_trace(), export)
    result.case.expected_output = CARRYOVER_REPLY + " Questions? Write to maria.gonzalez@acme-retail.com."
    out = tmp_path / f"{result.case.id}.yaml"
    with pytest.raises(PromoteError) as refused:
        write_draft(result, out, force=False)
    message = str(refused.value)
    assert "expected_output (EMAIL_ADDRESS)" in message and "maria" not in message.lower()
    assert not out.exists()
    with pytest.raises(PromoteError, match="expected_output"):
        draft_text(result)  # printing is gated too


def test_turn_out_of_range_says_how_many_turns(export: Path) -> None:
    with pytest.raises(PromoteError, match=r"has 1 turn\(s\); there is no turn 3.*--turn 0..0"):
        options = DraftOptions(by="x")
        draft_case(carryover_trace(), 3, inputs=gather_inputs(options, export_sha256=file_sha256(export)),
                   scrub=SCRUB, options=options)


def test_turn_without_content_is_refused_with_the_fix(export: Path) -> None:
    trace = carryover_trace()
    trace.turns[0].user_input = None
    trace.turns[0].content_captured = False
    with pytest.raises(PromoteError, match="no recorded user message.*content capture"):
        draft(trace, export)


def test_retrieval_tools_option_limits_what_counts_as_chunks(export: Path) -> None:
    case = draft(carryover_trace(), export, retrieval_tools=["search_plan_documents"]).case
    assert not case.retrieval_context and not case.must_cite and "retrieval" not in case.kind


def test_no_placeholders_no_safety_kind(export: Path) -> None:
    trace = carryover_trace()
    turn = trace.turns[0]
    turn.user_input = "If I do not use all my PTO this year, how much carries into next year?"
    turn.final_response = CARRYOVER_REPLY.replace("Hi <PERSON_1>, up", "Up")
    turn.tool_calls = turn.tool_calls[1:]
    case = draft(trace, export).case
    assert case.safety is None and case.kind == ["functional", "retrieval", "numeric"]


def test_catalog_handles_are_suggested_and_its_tenant_used(export: Path, tmp_path: Path) -> None:
    repo = tmp_path / "people-agents"
    (repo / "evals" / "cases").mkdir(parents=True)
    (repo / ".git").mkdir()
    (repo / "evals" / "entities.yaml").write_text(
        "tenant: {id: acme-retail-us, environment: sandbox, data: synthetic}\n"
        "entities:\n"
        "  - {handle: employees.standard_accruals_oh, resolves_to: E-30188, via: wfm/accrual-scenarios@v2,\n"
        "     calendar: Calendar@2026.2, description: Ohio hourly employee with standard accruals}\n"
        "  - {handle: employees.carryover_edge_ca, resolves_to: E-44213, via: aag/pto-scenarios@v3,\n"
        "     calendar: Calendar@2026.2, description: CA employee above the PTO carryover cap}\n",
        encoding="utf-8",
    )
    result = draft(carryover_trace(), export, cases_dir=repo / "evals" / "cases")
    suggestions = [note.message for note in result.notes if "catalog handle" in note.message]
    assert suggestions and "employees.carryover_edge_ca" in suggestions[0]
    assert result.case.tenant.id == "acme-retail-us"
    assert result.case.entities[0].handle == "unresolved.requesting_user"  # no promote.yaml: neutral


def test_bad_catalog_is_an_error_naming_the_file(export: Path, tmp_path: Path) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "entities.yaml").write_text("- {handel: typo}\n")
    with pytest.raises(PromoteError, match="entities.yaml.*entity catalog"):
        draft(carryover_trace(), export, cases_dir=tmp_path / "evals")


def test_promoted_by_falls_back_to_git_then_login(export: Path, tmp_path: Path, monkeypatch) -> None:
    git_config = tmp_path / "gitconfig"
    git_config.write_text("[user]\n\temail = sme@example.test\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(git_config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    outside_any_repo = tmp_path / "cases"
    outside_any_repo.mkdir()
    by_git = draft(carryover_trace(), export, by=None, cases_dir=outside_any_repo).case.provenance.promoted_by
    assert by_git == "sme@example.test"
    git_config.write_text("[user]\n\tname = Hermione G\n\temail = sme@example.test\n")
    assert (
        draft(carryover_trace(), export, by=None, cases_dir=outside_any_repo).case.provenance.promoted_by
        == "Hermione G"
    )
    git_config.write_text("")
    monkeypatch.setattr("getpass.getuser", lambda: "hgranger")
    assert (
        draft(carryover_trace(), export, by=None, cases_dir=outside_any_repo).case.provenance.promoted_by
        == "hgranger"
    )


def test_handles_are_suggested_by_distinctive_words_in_any_domain() -> None:
    from promote.case.model import Entity
    from promote.draft.entities import suggest_handles
    from promote.eval_repo import Catalog

    # an IT-ops catalog: "cluster" is in every entry, so it tells them apart from nothing
    catalog = Catalog(path=None, entities=[
        Entity(handle="clusters.prod_eu", description="A production cluster in eu-west, ingress fault"),
        Entity(handle="clusters.staging", description="A staging cluster whose certificate expired"),
        Entity(handle="clusters.dev", description="A dev cluster with a full disk"),
    ])
    turn = Turn(index=0, user_input="The cluster certificate expired again, can you renew it?")
    suggested = suggest_handles(catalog, turn)
    assert [handle for handle, _ in suggested] == ["clusters.staging"]
    assert suggested[0][1] == ["certificate", "expired"]
