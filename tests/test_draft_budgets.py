"""Drafted budgets: the run seen with the suite policy's headroom, never a 0 the trace could not observe,
never the exact duration of one run."""

from __future__ import annotations

from pathlib import Path

from promote.case.model import Budgets
from promote.compile.policy import BudgetPolicy
from promote.draft.budgets import budget_policy, draft_budgets
from promote.trace_model import ModelCall, ToolCall, Turn

from tests.conftest import HR_REPO

POLICY = BudgetPolicy()


def _turn(tools: int, models: int, duration_ms: float | None, tokens: tuple[int, int] | None) -> Turn:
    return Turn(index=0, tool_calls=[ToolCall(name=f"t{n}") for n in range(tools)],
                model_calls=[ModelCall(model="m") for _ in range(models)], duration_ms=duration_ms,
                input_tokens=tokens[0] if tokens else None, output_tokens=tokens[1] if tokens else None)


def test_a_trace_without_llm_spans_drafts_no_model_call_budget_and_not_its_7_ms() -> None:
    # An OpenInference export whose producer writes no LLM spans: 2 tools, no model call, 7.6 ms.
    budgets, notes = draft_budgets(_turn(2, 0, 7.6, None), POLICY)
    assert budgets == Budgets(max_tool_calls=3, max_duration_ms=30000)
    assert budgets.max_model_calls is None  # not 0: the case would fail every run of the agent
    assert notes[-1] == ("budgets: left out: max_model_calls (the trace records no model call); "
                         "max_tokens (the trace reports no tokens)")


def test_counts_and_tokens_get_the_headroom_and_a_slow_run_raises_the_duration() -> None:
    budgets, _ = draft_budgets(_turn(2, 3, 25_000.4, (1850, 130)), POLICY)
    assert budgets == Budgets(max_tool_calls=3, max_model_calls=5, max_tokens=3000, max_duration_ms=38000)


def test_the_policy_sets_the_headroom_and_can_leave_the_duration_out() -> None:
    policy = BudgetPolicy(headroom=2, max_duration_ms=None)
    budgets, notes = draft_budgets(_turn(1, 1, 40.0, (10, 5)), policy)
    assert budgets == Budgets(max_tool_calls=2, max_model_calls=2, max_tokens=100)
    assert "max_duration_ms (the suite policy sets none)" in notes[-1]


def test_a_turn_that_shows_nothing_has_no_budgets() -> None:
    budgets, notes = draft_budgets(_turn(0, 0, None, None), POLICY)
    assert budgets is None
    assert notes == ["budgets: left out: max_tool_calls (the turn called no tool); max_model_calls (the "
                     "trace records no model call); max_tokens (the trace reports no tokens); "
                     "max_duration_ms (the trace has no timing)"]


def test_the_eval_repo_policy_is_read_and_the_shipped_default_applies_without_one(tmp_path: Path) -> None:
    assert budget_policy(tmp_path) == BudgetPolicy(headroom=1.5, max_duration_ms=30000)
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    shipped = Path("promote/compile/policy.default.yaml").read_text(encoding="utf-8")
    (tmp_path / "evals" / "policy.yaml").write_text(
        shipped.replace("  headroom: 1.5 ", "  headroom: 3.0 "), encoding="utf-8")
    assert budget_policy(tmp_path).headroom == 3.0
    assert budget_policy(HR_REPO).headroom >= 1
