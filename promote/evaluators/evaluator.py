"""The shape every evaluator family shares: a label, what the case asks of it, and a verdict function.

`spec(case)` says whether the case implies the evaluator (None: it does not) and with what parameters;
the same dict is what `checks_artifact` writes for `promote compile`, so the checks a case implies are
decided in one place. `run(case, evidence)` returns the verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from promote.case.model import Case
from promote.evaluators.evidence import Evidence
from promote.evaluators.result import CheckResult, Verdict

Part = tuple[Verdict, str]


@dataclass(frozen=True)
class Evaluator:
    """One built-in evaluator."""

    label: str
    spec: Callable[[Case], dict[str, Any] | None]
    run: Callable[[Case, Evidence], CheckResult]


def combine(label: str, parts: list[Part], passed: str) -> CheckResult:
    """One result from the verdicts on each item: any failure fails (its reasons are listed), else any
    inconclusive item makes the result inconclusive, else it passes with `passed` as the reason."""
    failures = [reason for verdict, reason in parts if verdict == "fail"]
    if failures:
        return CheckResult(label=label, verdict="fail", reason="; ".join(failures))
    unknown = [reason for verdict, reason in parts if verdict == "inconclusive"]
    if unknown:
        return CheckResult(label=label, verdict="inconclusive", reason="; ".join(unknown))
    return CheckResult(label=label, verdict="pass", reason=passed)
