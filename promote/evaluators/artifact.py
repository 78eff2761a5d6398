"""`checks_artifact(case)`: the deterministic checks a case implies, as data, for `promote compile`.

Pure and deterministic (same case, same dict; no clock, no trace): the same specs `promote check` runs,
so what is compiled and what is checked cannot drift apart.
"""

from __future__ import annotations

from typing import Any

from promote.case.model import Case
from promote.evaluators.registry import implied

FORMAT = "promote-checks-v1"


def checks_artifact(case: Case) -> dict[str, Any]:
    """{format, case, revision, checks: [{label, ...parameters}]} in report-label order."""
    return {
        "format": FORMAT,
        "case": case.id,
        "revision": case.revision,
        "checks": [{"label": evaluator.label, **spec} for evaluator, spec in implied(case)],
    }
