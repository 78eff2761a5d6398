"""`promote check` on the real fixture exports: the seed cases and drafts pass, mutated turns get the
seed's fail / inconclusive verdicts, and nothing a report says holds a raw planted value."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from promote.case.checks import LuhnRange, ReplyChecks, ToolResultCheck
from promote.case.model import Budgets, Case
from promote.check import check_cases, render_report
from promote.check.run import load_case_model
from promote.draft import DraftOptions, draft_turn
from promote.evaluators.artifact import checks_artifact
from promote.evaluators.registry import EVALUATORS
from promote.evaluators.result import LABELS
from promote.listing import list_traces
from promote.source import scrub_trace
from promote.trace_model import ModelCall, ToolCall, Trace

ROOT = Path(__file__).resolve().parent.parent
TRACES = ROOT / "fixtures" / "traces"
GOLDEN = ROOT / "fixtures" / "cases" / "golden"
EXPECTED = json.loads((TRACES / "expected.json").read_text(encoding="utf-8"))
PLANTED = [item["value"] for item in EXPECTED["planted_pii"]]
RUN_FILES = ["adk2.otlp.jsonl", "adk1.otlp.jsonl", "openinference.otlp.jsonl",
             "openinference-schema1.otlp.jsonl.gz"]
OPTIONS = DraftOptions(by="hermione.g", now=datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC))
CARD = "4111 1111 1111 1111"


@pytest.fixture(scope="module")
def engine():
    from promote.scrubbing import engine as shared

    return shared()


@pytest.fixture(scope="module")
def adk2() -> list[Trace]:
    return list_traces([TRACES / "adk2.otlp.jsonl"]).traces


def golden() -> list[tuple[str, Case]]:
    return [(str(path), load_case_model(path)) for path in sorted(GOLDEN.glob("*.yaml"))]


def carryover(traces: list[Trace]) -> Trace:
    scenarios = EXPECTED["runs"]["adk2"]["scenarios"]
    trace_id = next(s["trace_id"] for s in scenarios if s["scenario"] == "carryover")
    return next(trace for trace in traces if trace.trace_id == trace_id).model_copy(deep=True)


def hero_case() -> Case:
    """The golden carryover case with every deterministic key of portable-v1 set."""
    case = load_case_model(GOLDEN / "hr.policy_carryover_004.yaml")
    return case.model_copy(update={
        "reply": ReplyChecks(contains=["PTO-CA-2026 §4.2"], matches=[r"carr(y|ies) (over|into)"],
                             lacks=["unlimited"], not_matches=[r"\bSSN\b"], no_payment_card=True,
                             no_luhn_number=LuhnRange(min_digits=9, max_digits=9)),
        "tool_results": [ToolResultCheck(tool="search_hr_policy", contains="40 hours")],
        "forbidden_tools": ["update_direct_deposit"],
        "budgets": Budgets(max_tool_calls=2, max_model_calls=3, max_tokens=4000, max_duration_ms=20000),
    })


def verdicts(report) -> dict[str, str]:
    (case,) = report.cases
    return {result.label: result.verdict for result in case.results}


def assert_scrubbed(report) -> None:
    text = render_report(report) + json.dumps(report.model_dump(mode="json"), ensure_ascii=False)
    leaked = [value for value in PLANTED if value in text]
    assert not leaked, f"{len(leaked)} planted value(s) in the report"  # never print them


# --- real exports against the seed cases and drafts --------------------------------------------------

@pytest.mark.parametrize("name", RUN_FILES)
def test_every_producer_run_passes_the_seed_cases(name: str, engine) -> None:
    report = check_cases(golden(), list_traces([TRACES / name]).traces, engine=engine)
    assert not report.unpaired
    assert [case.passed for case in report.cases] == [True] * 3, render_report(report)
    assert {case.paired_by for case in report.cases} == {"input"}
    hero = next(case for case in report.cases if case.case_id == "hr.policy_carryover_004")
    assert {r.label: r.verdict for r in hero.results} == {
        "tools": "pass", "tool-order": "pass", "tool-args": "pass", "figures": "pass", "citations": "pass",
        "pii-guard": "pass"}
    assert_scrubbed(report)


@pytest.mark.parametrize("name", sorted(p.name for p in (TRACES / "producers").glob("*.carryover.json")))
def test_the_hero_case_passes_on_other_producers_carryover_turn(name: str, engine) -> None:
    case = load_case_model(GOLDEN / "hr.policy_carryover_004.yaml")
    report = check_cases([("hero", case)], list_traces([TRACES / "producers" / name]).traces, engine=engine)
    assert report.cases and report.cases[0].passed, render_report(report)
    assert {r.verdict for r in report.cases[0].results} == {"pass"}, render_report(report)


@pytest.mark.parametrize("name", RUN_FILES)
def test_drafts_of_every_turn_pass_against_their_own_export(name: str, engine) -> None:
    traces = list_traces([TRACES / name]).traces
    drafts = []
    for trace in traces:
        done = scrub_trace(trace, engine)
        for turn in done.trace.turns:
            result = draft_turn(done, turn.index, OPTIONS)
            drafts.append((f"{trace.trace_id}/{turn.index}", result.case))
    assert len(drafts) == 7
    report = check_cases(drafts, traces, engine=engine)
    assert [case.passed for case in report.cases] == [True] * 7, render_report(report)
    assert [f"{case.trace_id}/{case.turn}" for case in report.cases] == [path for path, _ in drafts]
    assert {case.paired_by for case in report.cases} == {"provenance"}
    # Without provenance, each draft still finds its own turn by its (scrubbed) input.
    anonymous = [(path, case.model_copy(update={"provenance": None})) for path, case in drafts]
    again = check_cases(anonymous, traces, engine=engine)
    assert [(c.trace_id, str(c.turn), c.paired_by) for c in again.cases] == [
        (*path.split("/"), "input") for path, _ in drafts]
    assert_scrubbed(report)


def test_the_hero_case_with_every_deterministic_key_passes(adk2, engine) -> None:
    report = check_cases([("hero", hero_case())], [carryover(adk2)], engine=engine)
    assert verdicts(report) == {label: "pass" for label in LABELS}, render_report(report)


# --- mutated turns ------------------------------------------------------------------------------------

def mutated(adk2, change) -> dict[str, str]:
    trace = carryover(adk2)
    change(trace.turns[0])
    return trace


def check_one(trace: Trace, engine, case: Case | None = None):
    report = check_cases([("hero", case or hero_case())], [trace], engine=engine)
    assert_scrubbed(report)
    return report


def test_a_dropped_tool_fails_tools_once(adk2, engine) -> None:
    trace = mutated(adk2, lambda turn: turn.tool_calls.pop(1))
    report = check_one(trace, engine)
    found = verdicts(report)
    assert found["tools"] == "fail"
    assert [label for label, verdict in found.items() if verdict == "fail"] == ["tools"]
    assert found["tool-order"] == found["tool-args"] == found["tool-result"] == "inconclusive"
    assert "search_hr_policy" in report.cases[0].results[0].reason
    assert not report.ok


def test_changed_arguments_fail_tool_args_quoting_scrubbed_values(adk2, engine) -> None:
    def change(turn) -> None:
        turn.tool_calls[1].args = {**turn.tool_calls[1].args, "jurisdiction": "TX"}
        turn.tool_calls[0].args = {"employee_id": "E-99999"}

    report = check_one(mutated(adk2, change), engine)
    assert verdicts(report)["tool-args"] == "fail"
    reason = next(r.reason for r in report.cases[0].results if r.label == "tool-args")
    assert "jurisdiction is TX, expected CA" in reason


def test_numbers_compare_by_value_and_strings_are_not_numbers(adk2, engine) -> None:
    case = hero_case()
    case.expected_tools.calls[1].args = {"topic": "pto_carryover", "jurisdiction": "CA", "year": 2026}
    for value, verdict in [(2026.0, "pass"), (2026, "pass"), ("2026", "fail"), (True, "fail")]:
        trace = mutated(adk2, lambda turn: turn.tool_calls[1].args.update(year=value))
        assert verdicts(check_one(trace, engine, case))["tool-args"] == verdict, value


def test_argument_rules_regex_tolerance_one_of_and_ignore(adk2, engine) -> None:
    case = hero_case()
    call = case.expected_tools.calls[1]
    call.args = {"topic": "pto", "jurisdiction": "CA", "year": 2026}
    for match, verdict in [
        ({"topic": "regex:pto_.*", "year": "tolerance:1"}, "pass"),
        ({"topic": "regex:pto", "year": "ignore"}, "fail"),  # a regex matches the whole value
        ({"topic": "ignore", "jurisdiction": ["TX", "CA"], "year": "tolerance:0.5"}, "fail"),
        ({"topic": "ignore", "jurisdiction": ["TX", "CA"], "year": "tolerance:1"}, "pass"),
    ]:
        call.match = match
        trace = mutated(adk2, lambda turn: turn.tool_calls[1].args.update(year=2027))
        assert verdicts(check_one(trace, engine, case))["tool-args"] == verdict, match


def test_a_changed_figure_fails_figures(adk2, engine) -> None:
    def change(turn) -> None:
        turn.final_response = turn.final_response.replace("22.5 hours", "23.5 hours")

    report = check_one(mutated(adk2, change), engine)
    assert verdicts(report)["figures"] == "fail"
    reason = next(r.reason for r in report.cases[0].results if r.label == "figures")
    assert "at_risk = 22.5 h" in reason and "23.5 hours" in reason


def test_a_figure_within_tolerance_passes(adk2, engine) -> None:
    case = hero_case()
    case.numeric[2].tolerance = 1
    trace = mutated(adk2, lambda turn: setattr(turn, "final_response",
                                                turn.final_response.replace("22.5 hours", "23.5 hours")))
    assert verdicts(check_one(trace, engine, case))["figures"] == "pass"


def test_a_card_number_in_the_reply_fails_without_printing_it(adk2, engine) -> None:
    def change(turn) -> None:
        turn.final_response += f" Your card on file is {CARD.replace(' ', '-')}."

    report = check_one(mutated(adk2, change), engine)
    found = verdicts(report)
    assert found["no-payment-card"] == "fail" and found["no-luhn-number"] == "pass"
    assert "16-digit" in next(r.reason for r in report.cases[0].results if r.label == "no-payment-card")
    assert "1111" not in render_report(report)


def test_another_persons_email_fails_pii_guard(adk2, engine) -> None:
    trace = mutated(adk2, lambda turn: setattr(turn, "final_response",
                                                turn.final_response + " Ask dana.whitfield@acme-retail.com."))
    report = check_one(trace, engine)
    assert verdicts(report)["pii-guard"] == "fail"
    assert "<EMAIL_ADDRESS_" in next(r.reason for r in report.cases[0].results if r.label == "pii-guard")


def test_exceeded_budgets_fail(adk2, engine) -> None:
    def change(turn) -> None:
        turn.tool_calls.append(ToolCall(name="get_employee_context", args={"employee_id": "E-44213"}))
        turn.model_calls.append(ModelCall(model="gemini-2.5-flash", input_tokens=5000, output_tokens=10))
        turn.input_tokens += 5000
        turn.duration_ms = 25_000.0

    found = verdicts(check_one(mutated(adk2, change), engine))
    assert {label: found[label] for label in LABELS if label.startswith("budget-")} == {
        "budget-tools": "fail", "budget-model-calls": "fail", "budget-tokens": "fail",
        "budget-duration": "fail"}


def test_absent_timing_and_tokens_are_inconclusive_and_the_case_still_passes(adk2, engine) -> None:
    def change(turn) -> None:
        turn.duration_ms = None
        turn.input_tokens = turn.output_tokens = None
        turn.model_calls = []

    report = check_one(mutated(adk2, change), engine)
    found = verdicts(report)
    assert found["budget-duration"] == found["budget-tokens"] == found["budget-model-calls"] == "inconclusive"
    assert report.cases[0].passed and report.ok
    rate = next(rate for rate in report.rates if rate.label == "budget-duration")
    assert (rate.passed, rate.failed, rate.inconclusive, rate.rate) == (0, 0, 1, None)


def test_a_reply_not_captured_makes_every_reply_check_inconclusive(adk2, engine) -> None:
    report = check_one(mutated(adk2, lambda turn: setattr(turn, "final_response", None)), engine)
    found = verdicts(report)
    reply_labels = [label for label in LABELS if label.startswith(("reply-", "no-"))]
    needs_reply = [*reply_labels, "figures", "citations", "pii-guard"]
    assert {found[label] for label in needs_reply} == {"inconclusive"}
    assert report.cases[0].passed


def test_a_forbidden_tool_and_a_missing_result_text(adk2, engine) -> None:
    def change(turn) -> None:
        turn.tool_calls.append(ToolCall(name="update_direct_deposit", args={}, result={"status": "ok"}))
        turn.tool_calls[1].result = {"chunks": []}

    found = verdicts(check_one(mutated(adk2, change), engine))
    assert found["forbidden-tools"] == found["tool-result"] == "fail"


def test_regexes_are_dotall_and_search_anywhere(adk2, engine) -> None:
    case = hero_case().model_copy(update={"reply": ReplyChecks(matches=[r"carries.*December 31"],
                                                               not_matches=[r"^forfeited"])})
    trace = mutated(adk2, lambda turn: setattr(turn, "final_response",
                                                turn.final_response.replace(". ", ".\n")))
    found = verdicts(check_one(trace, engine, case))
    assert found["reply-match"] == found["reply-not-match"] == "pass"


def test_an_exact_order_fails_on_an_extra_call(adk2, engine) -> None:
    case = hero_case()
    case.expected_tools.order = "exact"
    trace = mutated(adk2, lambda turn: turn.tool_calls.insert(1, ToolCall(name="get_accrual_balances")))
    assert verdicts(check_one(trace, engine, case))["tool-order"] == "fail"
    assert verdicts(check_one(carryover(adk2), engine, case))["tool-order"] == "pass"


# --- pairing, gates, artifact ----------------------------------------------------------------------

def test_a_case_id_on_a_span_pairs_before_the_input(adk2, engine) -> None:
    case = hero_case().model_copy(update={"input": "something else entirely"})
    trace = carryover(adk2)
    trace.spans[0].attributes["eval.case_id"] = case.id
    report = check_cases([("hero", case)], [*adk2, trace], engine=engine)
    assert report.cases[0].paired_by == "case-id"


def test_turn_pairs_what_nothing_else_does_and_unpaired_cases_are_listed(adk2, engine) -> None:
    case = hero_case().model_copy(update={"input": "something else entirely"})
    assert check_cases([("hero", case)], adk2, engine=engine).unpaired[0].why.endswith("pass --turn N")
    report = check_cases([("hero", case)], adk2, turn=0, engine=engine)
    assert (report.cases[0].trace_id, report.cases[0].paired_by) == (adk2[0].trace_id, "turn")


def test_gates_rate_conclusive_results_and_miss_without_any(adk2, engine) -> None:
    trace = mutated(adk2, lambda turn: setattr(turn, "duration_ms", None))
    report = check_cases([("hero", hero_case())], [trace], engine=engine,
                         min_pass_rates={"tools": 1.0, "budget-duration": 0.5})
    assert [(gate.label, gate.met) for gate in report.gates] == [("tools", True), ("budget-duration", False)]
    assert report.cases[0].passed and not report.ok


def test_the_artifact_lists_what_check_runs_deterministically() -> None:
    case = hero_case()
    artifact = checks_artifact(case)
    assert artifact == checks_artifact(hero_case())
    assert json.loads(json.dumps(artifact)) == artifact
    assert [check["label"] for check in artifact["checks"]] == list(LABELS)
    assert [e.label for e in EVALUATORS] == list(LABELS)
    plain = checks_artifact(load_case_model(GOLDEN / "wfm.accrual_balance_007.yaml"))
    assert [check["label"] for check in plain["checks"]] == ["tools", "tool-order", "figures"]


def test_the_new_keys_load_round_trip_and_reject_a_bad_regex(tmp_path) -> None:
    from promote.case.validate import validate_file
    from promote.case.yaml_io import dump_tree, load_tree, merge_case

    text = (GOLDEN / "hr.policy_carryover_004.yaml").read_text(encoding="utf-8") + (
        "reply:\n"
        "  contains: [PTO-CA-2026 §4.2]          # case-insensitive, every item\n"
        "  matches: ['carr(y|ies) (over|into)']\n"
        "  no_payment_card: true\n"
        "  no_luhn_number: {min_digits: 9, max_digits: 9}\n"
        "tool_results:\n"
        "  - {tool: search_hr_policy, contains: \"40 hours\"}\n"
        "forbidden_tools: [delete_employee_record]\n"
    )
    path = tmp_path / "hr.policy_carryover_004.yaml"
    path.write_text(text, encoding="utf-8")
    tree = load_tree(path)
    case = Case.model_validate(tree)
    assert case.reply.no_luhn_number == LuhnRange(min_digits=9, max_digits=9)
    merge_case(tree, case)
    assert dump_tree(tree) == text
    assert validate_file(path).ok
    path.write_text(text.replace("'carr(y|ies) (over|into)'", "'carr(y|ies'"), encoding="utf-8")
    (problem,) = validate_file(path).problems
    assert (problem.rule, problem.field) == ("schema", "reply.matches")
    assert "does not compile" in problem.message


def test_luhn_runs_allow_spaces_and_dashes_and_respect_the_length_range() -> None:
    from promote.evaluators.luhn import CARD_DIGITS, luhn_numbers

    def found(text: str, low: int = CARD_DIGITS[0], high: int = CARD_DIGITS[1]) -> list[int]:
        return [count for _, _, count in luhn_numbers(text, low, high)]

    assert found("card 4111 1111 1111 1111.") == [16]
    assert found("card 4111-1111-1111-1111 12 months") == [16]  # more digits after it
    assert found("amex 378282246310005") == [15]
    assert found("card 4111 1111 1111 1112") == []  # checksum fails
    assert found("routing 021000021, account 000123456789, phone 415-555-0132") == []
    assert found("SIN 046 454 286", 9, 9) == [9] and found("SIN 046 454 287", 9, 9) == []


def test_unreadable_trace_lines_are_listed_and_the_rest_is_checked(tmp_path) -> None:
    from promote.check import check_paths

    export = tmp_path / "run.otlp.jsonl"
    export.write_bytes((TRACES / "adk2.otlp.jsonl").read_bytes() + b"{not json\n")
    report = check_paths([GOLDEN / "wfm.accrual_balance_007.yaml"], [export])
    assert report.ok and [case.passed for case in report.cases] == [True]
    assert [skip.where for skip in report.skipped] == [f"{export}:{len(export.read_text().splitlines())}"]
    assert f"skipped {export}:" in render_report(report)
