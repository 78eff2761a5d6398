"""Budget evaluators: budget-tools, budget-model-calls, budget-tokens, budget-duration.

A reply takes at least one model call, so a turn that records none is inconclusive for the model-call
budget; tokens are inconclusive when no model call reported any, duration when the trace has no timing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promote.case.model import Case
from promote.evaluators.evaluator import Evaluator
from promote.evaluators.evidence import Evidence
from promote.evaluators.result import CheckResult

Measure = Callable[[Evidence], "float | int | str"]  # a number, or why the evidence is absent


def _tool_calls(evidence: Evidence) -> int:
    return len(evidence.turn.tool_calls)


def _model_calls(evidence: Evidence) -> int | str:
    count = len(evidence.turn.model_calls)
    return count if count else "the trace records no model call for the turn"


def _tokens(evidence: Evidence) -> int | str:
    turn = evidence.turn
    if turn.input_tokens is None and turn.output_tokens is None:
        return "the model reported no tokens"
    return (turn.input_tokens or 0) + (turn.output_tokens or 0)


def _duration(evidence: Evidence) -> float | str:
    duration = evidence.turn.duration_ms
    return duration if duration is not None else "the trace carries no timing for the turn"


def _budget(label: str, field: str, measure: Measure, unit: str) -> Evaluator:
    def limit(case: Case) -> float | int | None:
        return getattr(case.budgets, field) if case.budgets is not None else None

    def spec(case: Case) -> dict[str, Any] | None:
        found = limit(case)
        return None if found is None else {"max": found, "unit": unit}

    def run(case: Case, evidence: Evidence) -> CheckResult:
        maximum = limit(case)
        used = measure(evidence)
        if isinstance(used, str):
            return CheckResult(label=label, verdict="inconclusive", reason=used)
        shown = f"{used:g} {unit} (at most {maximum:g})"
        verdict = "pass" if used <= maximum + 1e-9 else "fail"
        return CheckResult(label=label, verdict=verdict, reason=shown)

    return Evaluator(label, spec, run)


EVALUATORS = (
    _budget("budget-tools", "max_tool_calls", _tool_calls, "tool calls"),
    _budget("budget-model-calls", "max_model_calls", _model_calls, "model calls"),
    _budget("budget-tokens", "max_tokens", _tokens, "tokens"),
    _budget("budget-duration", "max_duration_ms", _duration, "ms"),
)
