"""Per-argument match rules of an expected tool call, as the compilers read them.

The case model types them (`promote.case.model.ArgRule`); an argument in `args` without a rule is
exact. `rule_text` gives the form a case file writes, for warnings.
"""

from __future__ import annotations

import json
from typing import Any

from promote.case.model import ArgRule, ExpectedToolCall

EXACT = ArgRule(kind="exact")


def call_rules(call: ExpectedToolCall) -> dict[str, ArgRule]:
    """Argument → rule for one expected call: every argument in `args`, then any only `match` names."""
    rules = {name: EXACT for name in (call.args or {})}
    rules.update(call.match or {})
    return rules


def rule_text(rule: ArgRule) -> str:
    """The rule as a case file writes it (`regex:<p>`, `tolerance:<n>`, `one_of:[...]`, `ignore`)."""
    written: Any = rule.model_dump()
    if isinstance(written, list):
        return "one_of:" + json.dumps(written, ensure_ascii=False)
    return str(written)
