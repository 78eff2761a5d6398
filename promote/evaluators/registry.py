"""Every built-in evaluator, and which of them a case implies with what parameters."""

from __future__ import annotations

from typing import Any

from promote.case.model import Case
from promote.evaluators import budgets, figures, pii, reply, tools
from promote.evaluators.evaluator import Evaluator
from promote.evaluators.result import CheckResult


# Every built-in evaluator, in report order.
EVALUATORS: tuple[Evaluator, ...] = (
    *tools.EVALUATORS, *reply.EVALUATORS, *budgets.EVALUATORS,
    figures.EVALUATOR, reply.CITATIONS, pii.EVALUATOR,
)


def implied(case: Case) -> list[tuple[Evaluator, dict[str, Any]]]:
    """The evaluators a case implies, with their parameters (what `checks_artifact` writes)."""
    found = []
    for evaluator in EVALUATORS:
        spec = evaluator.spec(case)
        if spec is not None:
            found.append((evaluator, spec))
    return found


def evaluate(case: Case, evidence) -> list[CheckResult]:
    """Every result the case implies on one paired turn."""
    return [evaluator.run(case, evidence) for evaluator, _ in implied(case)]
