"""A draft's budgets: what one run cost, with the suite policy's headroom, never a claim the trace can't back.

One run is not what every run costs: each count and the token total are multiplied by the policy's
`budgets.headroom` and rounded up; the duration budget is the policy's `budgets.max_duration_ms` (raised
to the run's time × headroom when that run was slower), never the exact duration of the run seen. A
figure the trace could not observe is left out, never written as 0: an export with no LLM spans
(OpenInference from some producers) has no model calls to count, a turn without tokens or timing has
none to budget, and a turn that called no tool leaves `max_tool_calls` out (a 0 budget is a strict rule
an SME writes on purpose, as `expected_tools.calls: []` does).
"""

from __future__ import annotations

import math
from pathlib import Path

from promote.case.model import Budgets
from promote.compile.policy import BudgetPolicy, find_policy, load_suite_policy
from promote.compile.targets import backend_metrics
from promote.trace_model import Turn

TOKEN_STEP = 100
"""Token budgets are rounded up to a multiple of this (a budget, not a measurement)."""


def budget_policy(repo_root: Path) -> BudgetPolicy:
    """The eval repo's suite policy's budget settings (the shipped default without one)."""
    return load_suite_policy(find_policy(repo_root), backend_metrics()).policy.budgets


def draft_budgets(turn: Turn, policy: BudgetPolicy) -> tuple[Budgets | None, list[str]]:
    """The budgets of a draft of `turn`, and what the SME should know about them (field: message)."""
    headroom = policy.headroom
    left_out = []
    tool_calls = _scaled(len(turn.tool_calls), headroom)
    if tool_calls is None:
        left_out.append("max_tool_calls (the turn called no tool)")
    model_calls = _scaled(len(turn.model_calls), headroom)
    if model_calls is None:
        left_out.append("max_model_calls (the trace records no model call)")
    tokens = None
    if turn.input_tokens is not None or turn.output_tokens is not None:
        scaled = _scaled((turn.input_tokens or 0) + (turn.output_tokens or 0), headroom)
        tokens = None if scaled is None else math.ceil(scaled / TOKEN_STEP) * TOKEN_STEP
    if tokens is None:
        left_out.append("max_tokens (the trace reports no tokens)")
    duration = None
    if turn.duration_ms is None:
        left_out.append("max_duration_ms (the trace has no timing)")
    elif policy.max_duration_ms is None:
        left_out.append("max_duration_ms (the suite policy sets none)")
    else:
        # Whole seconds: a run's milliseconds are noise, not a budget.
        slow = math.ceil(turn.duration_ms * headroom / 1000) * 1000
        duration = max(policy.max_duration_ms, slow)
    budgets = Budgets(max_tool_calls=tool_calls, max_model_calls=model_calls, max_tokens=tokens,
                      max_duration_ms=duration)
    notes = [f"budgets: drafted from this run with the suite policy's headroom ({headroom:g}x) and duration "
             "budget: check them against what a run may cost"]
    if left_out:
        notes.append(f"budgets: left out: {'; '.join(left_out)}")
    if not budgets.model_dump(exclude_none=True):
        return None, notes[1:]
    return budgets, notes


def _scaled(observed: int, headroom: float) -> int | None:
    """`observed` × headroom rounded up; None for 0 (nothing observed, nothing to budget)."""
    return math.ceil(observed * headroom - 1e-9) if observed > 0 else None
