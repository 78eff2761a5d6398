"""Per-argument match rules of `expected_tools.calls[].match`: exact (default), ignore, regex, tolerance,
one_of. Numbers compare by value (4999 == 4999.0) but a string is never a number ("4999" != 4999), and a
bool is not a number either. A regex must match the whole value (as `ArgRule` documents it), DOTALL.
"""

from __future__ import annotations

from typing import Any

from promote.case.model import ArgRule
from promote.case.patterns import MATCH_TIMEOUT_S, PatternTimeout, fullmatch
from promote.evaluators.evidence import as_text, has_placeholder


def same_value(expected: Any, actual: Any) -> bool:
    """Equality with numbers by value, recursively through lists and objects."""
    if _is_number(expected) and _is_number(actual):
        return float(expected) == float(actual)
    if isinstance(expected, bool) or isinstance(actual, bool) or _is_number(expected) or _is_number(actual):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(same_value(expected[k], actual[k]) for k in expected)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(same_value(e, a) for e, a in zip(expected, actual))
    return expected == actual


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def rules_of(args: dict[str, Any], match: dict[str, ArgRule] | None) -> dict[str, ArgRule]:
    """The rule of every argument the case names: `match` where it says, exact otherwise."""
    return {**{name: ArgRule(kind="exact") for name in args}, **(match or {})}


def mismatch(
    name: str, expected: Any, rule: ArgRule, raw: dict[str, Any], clean: dict[str, Any]
) -> str | None:
    """Why argument `name` of a call does not satisfy its rule (None: it does). `raw` is the call's
    arguments as traced, `clean` the same scrubbed; only `clean` values are quoted."""
    if rule.kind == "ignore":
        return None
    if name not in raw:
        return f"has no argument {name}"
    actual = clean.get(name) if has_placeholder(expected) else raw[name]
    shown = as_text(clean.get(name))
    if rule.kind == "exact" and not same_value(expected, actual):
        return f"{name} is {shown}, expected {as_text(expected)}"
    if rule.kind == "one_of" and not any(same_value(value, actual) for value in rule.values or []):
        return f"{name} is {shown}, expected one of {as_text(rule.values)}"
    if rule.kind == "tolerance":
        if not (_is_number(actual) and _is_number(expected)):
            return f"{name} is {shown}, not a number within {rule.tolerance:g} of {as_text(expected)}"
        if abs(float(actual) - float(expected)) > (rule.tolerance or 0) + 1e-9:
            return f"{name} is {shown}, more than {rule.tolerance:g} from {as_text(expected)}"
    if rule.kind == "regex":
        texts = [as_text(raw[name]), as_text(clean.get(name))]
        try:
            matched = any(fullmatch(rule.pattern or "", text) for text in texts)
        except PatternTimeout:
            return f"{name}: the pattern did not finish within {MATCH_TIMEOUT_S:g} s on this value"
        if not matched:
            return f"{name} is {shown}, which does not match /{rule.pattern}/"
    return None
