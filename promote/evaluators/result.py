"""One evaluator's verdict on one case, and every evaluator label in report order."""

from __future__ import annotations

from typing import Literal

from promote.models import Model as _Model

Verdict = Literal["pass", "fail", "inconclusive"]

# Every label `promote check` reports, in report order (docs/check.md explains each).
LABELS = (
    "tools", "tool-order", "tool-args", "forbidden-tools", "tool-result",
    "reply-contains", "reply-match", "reply-lacks", "reply-not-match", "no-payment-card", "no-luhn-number",
    "budget-tools", "budget-model-calls", "budget-tokens", "budget-duration",
    "figures", "citations", "pii-guard",
)


class CheckResult(_Model):
    """One evaluator's verdict on one case."""

    label: str
    """The evaluator label, e.g. `tools`."""
    verdict: Verdict
    """pass | fail | inconclusive (the evidence it needs is absent)."""
    reason: str = ""
    """Why, in a sentence; quotes scrubbed text only."""
