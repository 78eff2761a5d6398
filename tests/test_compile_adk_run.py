"""Every evalset `promote compile` writes runs in google-adk's own `LocalEvalService` (offline, stub agent).

The stub agent makes the calls a test gives it; ADK scores them with the compiled `test_config.json`
(judge criteria left out: they need a model). What ADK is given means what the case means: a replaying
agent scores 1.0, a wrong order or a missing tool 0.0, and an agent that satisfies loose argument rules
passes in ADK exactly when `promote check`'s tool-args evaluator passes it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from promote.compile.adk_tool_args import METRIC, verdict
from promote.compile.run import compile_paths

from tests.adk_stub import evaluate_set, replay
from tests.conftest import GOLDEN_CASES

HERO = GOLDEN_CASES / "hr.policy_carryover_004.yaml"
HERO_SET = "hr_policy_carryover_golden"
TRAJECTORY = "tool_trajectory_avg_score"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("compiled")
    compile_paths([GOLDEN_CASES], out, targets=["adk"], pii_scan=False)
    return out / "adk"


def _hero_variant(tmp_path: Path, old: str, new: str) -> Path:
    """The hero case with one edit, compiled to ADK; the compiled eval set's folder."""
    text = HERO.read_text(encoding="utf-8")
    assert old in text
    (tmp_path / HERO.name).write_text(text.replace(old, new), encoding="utf-8")
    compile_paths([tmp_path / HERO.name], tmp_path / "out", targets=["adk"], pii_scan=False)
    return tmp_path / "out" / "adk" / HERO_SET


def test_a_replaying_agent_scores_1_on_every_compiled_eval_set(compiled: Path) -> None:
    folders = sorted(compiled.iterdir())
    assert [folder.name for folder in folders] == [
        "benefits_plan_golden", "hr_policy_carryover_golden", "wfm_accruals_golden"]
    for folder in folders:
        for eval_id, metrics in evaluate_set(folder, replay).items():
            assert metrics[TRAJECTORY] == ("PASSED", 1.0), eval_id
            assert metrics["response_match_score"] == ("PASSED", 1.0), eval_id
            if eval_id != "wfm.accrual_balance_007":  # its calls have no arguments: no custom metric
                assert metrics[METRIC] == ("PASSED", 1.0), eval_id
            else:
                assert METRIC not in metrics


def test_a_wrong_order_or_a_missing_tool_scores_0(compiled: Path) -> None:
    def reversed_order(eval_case):
        calls, reply = replay(eval_case)
        return calls[::-1], reply

    def missing_search(eval_case):
        calls, reply = replay(eval_case)
        return calls[:1], reply

    scores = evaluate_set(compiled / HERO_SET, reversed_order)["hr.policy_carryover_004"]
    assert scores[TRAJECTORY] == ("FAILED", 0.0)
    scores = evaluate_set(compiled / HERO_SET, missing_search)["hr.policy_carryover_004"]
    assert scores[TRAJECTORY] == ("FAILED", 0.0)
    # promote check reports the arguments of a call never made as inconclusive; so does ADK.
    assert scores[METRIC] == ("NOT_EVALUATED", None)


def test_an_extra_argument_and_calls_in_between_pass_as_in_promote_check(compiled: Path) -> None:
    def chatty(eval_case):
        calls, reply = replay(eval_case)
        calls = [(name, {**args, "employee_id": "E-44213"}) for name, args in calls]
        return [calls[0], ("get_pto_balance", {}), calls[1]], reply

    scores = evaluate_set(compiled / HERO_SET, chatty)["hr.policy_carryover_004"]
    assert (scores[TRAJECTORY], scores[METRIC]) == (("PASSED", 1.0), ("PASSED", 1.0))


@pytest.mark.parametrize(("jurisdiction", "topic", "passes"), [
    ("NV", "pto_carryover_rules", True),   # one_of and regex satisfied by other values than the example
    ("TX", "pto_carryover", False),        # not one of [CA, NV]
    ("CA", "sick_leave", False),           # does not match the regex
])
def test_loose_argument_rules_give_adk_the_verdict_of_promote_check(
    tmp_path: Path, jurisdiction: str, topic: str, passes: bool,
) -> None:
    folder = _hero_variant(tmp_path, "match: {topic: exact, jurisdiction: exact}",
                           "match: {topic: 'regex:pto_.*', jurisdiction: [CA, NV]}")
    called = [("get_employee_context", {"employee_id": "E-44213"}),
              ("search_hr_policy", {"topic": topic, "jurisdiction": jurisdiction})]
    scores = evaluate_set(folder, lambda eval_case: (called, "Up to 40 hours."))["hr.policy_carryover_004"]
    assert scores[TRAJECTORY] == ("PASSED", 1.0)
    assert scores[METRIC] == (("PASSED", 1.0) if passes else ("FAILED", 0.0))
    rules = [{"name": "get_employee_context"},
             {"name": "search_hr_policy", "args": {"topic": "pto_carryover", "jurisdiction": "CA"},
              "match": {"topic": "regex:pto_.*", "jurisdiction": ["CA", "NV"]}}]
    assert verdict(rules, called).verdict == ("pass" if passes else "fail")


def test_an_ignored_argument_without_example_and_a_tolerance_pass_in_adk(tmp_path: Path) -> None:
    folder = _hero_variant(tmp_path, "args: {topic: pto_carryover, jurisdiction: CA}\n"
                           "      match: {topic: exact, jurisdiction: exact}",
                           "args: {topic: pto_carryover, year: 2026}\n"
                           "      match: {jurisdiction: ignore, year: 'tolerance:1'}")
    called = [("get_employee_context", {}),
              ("search_hr_policy", {"topic": "pto_carryover", "jurisdiction": "WA", "year": 2027})]
    scores = evaluate_set(folder, lambda eval_case: (called, "Up to 40 hours."))["hr.policy_carryover_004"]
    assert (scores[TRAJECTORY], scores[METRIC]) == (("PASSED", 1.0), ("PASSED", 1.0))


def test_a_case_expecting_no_call_is_an_exact_empty_trajectory(tmp_path: Path) -> None:
    folder = _hero_variant(tmp_path, "  calls:\n    - name: get_employee_context\n"
                           "    - name: search_hr_policy\n"
                           "      args: {topic: pto_carryover, jurisdiction: CA}\n"
                           "      match: {topic: exact, jurisdiction: exact}",
                           "  calls: []")
    quiet = evaluate_set(folder, lambda eval_case: ([], "Up to 40 hours."))["hr.policy_carryover_004"]
    busy = evaluate_set(folder, lambda eval_case: ([("search_hr_policy", {})], "Up to 40 hours."))
    assert quiet[TRAJECTORY] == ("PASSED", 1.0)
    assert busy["hr.policy_carryover_004"][TRAJECTORY] == ("FAILED", 0.0)
