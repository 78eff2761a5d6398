"""The figures evaluator: each `numeric` figure is written in the reply, at the case's tolerance and
with a compatible unit (the figure-in-text rule `promote validate` applies to `expected_output`)."""

from __future__ import annotations

import re
from typing import Any

from promote.case.model import Case
from promote.case.rules import figure_in_text
from promote.evaluators.evaluator import Evaluator
from promote.evaluators.evidence import NO_REPLY, Evidence
from promote.evaluators.result import CheckResult

# Numbers as a reason may show them: read from the scrubbed reply, placeholders' digits excluded.
_SHOWN_NUMBER = re.compile(
    r"(?<![\w.,])\$?\d[\d,]*(?:\.\d+)?"
    r"(?:\s?(?:%|percent\b|h\b|hrs?\b|hours?\b|days?\b|weeks?\b|usd\b|dollars?\b))?",
    re.IGNORECASE,
)


def _spec(case: Case) -> dict[str, Any] | None:
    if not case.numeric:
        return None
    return {"figures": [{"name": f.name, "value": f.value, "unit": f.unit, "tolerance": f.tolerance}
                        for f in case.numeric]}


def _run(case: Case, evidence: Evidence) -> CheckResult:
    reply = evidence.turn.final_response
    if reply is None:
        return CheckResult(label="figures", verdict="inconclusive", reason=NO_REPLY)
    missing = [f for f in case.numeric if not figure_in_text(f.value, f.unit, reply, f.tolerance)]
    if not missing:
        return CheckResult(label="figures", verdict="pass",
                           reason=f"{len(case.numeric)} figure(s) in the reply")
    wanted = "; ".join(
        f"{f.name} = {f.value:g}{' ' + f.unit if f.unit else ''}"
        + (f" ±{f.tolerance:g}" if f.tolerance else "") for f in missing
    )
    written = [m.group() for m in _SHOWN_NUMBER.finditer(evidence.scrubbed.final_response or "")]
    tail = f"; the reply writes {', '.join(written[:8])}" if written else "; the reply writes no number"
    return CheckResult(label="figures", verdict="fail", reason=f"not in the reply: {wanted}{tail}")


EVALUATOR = Evaluator("figures", _spec, _run)
