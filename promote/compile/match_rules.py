"""Per-argument match rules of an expected tool call, as the compilers read them.

The one adapter between the case model and the compilers: until the typed `ArgRule` is on the case
model, rules arrive in their file form (`exact`, `ignore`, `regex:<p>`, `tolerance:<n>`, `one_of:[..]`,
a list); once it is, they arrive typed and pass through. Compilers only ever see `Rule`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from promote.case.yaml_io import yaml_factory

RuleKind = Literal["exact", "ignore", "regex", "tolerance", "one_of"]


@dataclass(frozen=True)
class Rule:
    """One argument's rule: kind, and the pattern, tolerance or values it needs."""

    kind: RuleKind = "exact"
    pattern: str | None = None
    tolerance: float | None = None
    values: tuple[Any, ...] | None = None

    def text(self) -> str:
        """The rule as a case file writes it (for warnings)."""
        if self.kind == "regex":
            return f"regex:{self.pattern}"
        if self.kind == "tolerance":
            return f"tolerance:{self.tolerance:g}"
        if self.kind == "one_of":
            return "one_of:" + json.dumps(list(self.values or ()), ensure_ascii=False)
        return self.kind


def call_rules(call: Any) -> dict[str, Rule]:
    """Argument → rule for one `ExpectedToolCall`; arguments without a rule are exact."""
    rules = {name: Rule() for name in (call.args or {})}
    for name, raw in (call.match or {}).items():
        rules[name] = to_rule(raw)
    return rules


def to_rule(raw: Any) -> Rule:
    """A rule from its file form or from a typed rule object (anything with `kind`)."""
    kind = getattr(raw, "kind", None)
    if kind is not None:
        values = getattr(raw, "values", None)
        return Rule(kind, getattr(raw, "pattern", None), getattr(raw, "tolerance", None),
                    tuple(values) if values is not None else None)
    if isinstance(raw, list):
        return Rule("one_of", values=tuple(raw))
    text = str(raw).strip()
    if text.startswith("regex:"):
        return Rule("regex", pattern=text[len("regex:"):])
    if text.startswith("tolerance:"):
        return Rule("tolerance", tolerance=float(text[len("tolerance:"):]))
    if text.startswith("one_of:"):
        values = yaml_factory().load(text[len("one_of:"):])  # `[CA, NY]` is YAML, not JSON
        return Rule("one_of", values=tuple(values if isinstance(values, list) else [values]))
    return Rule("ignore") if text == "ignore" else Rule()
