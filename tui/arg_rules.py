"""Per-argument match rules as the tools tab edits them: a kind and one line of text.

`promote.case.model.ArgRule` is the rule; this is the one place the UI converts between it and the
(kind, text) pair a rule row shows.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from promote.case.model import ArgRule

KINDS = ("exact", "ignore", "regex", "tolerance", "one_of")


def split_rule(rule: Any) -> tuple[str, str]:
    """A stored rule → (kind, text for the input)."""
    if rule is None:
        return "exact", ""
    kind = getattr(rule, "kind", None)
    if kind is not None:  # a typed rule object
        if kind == "regex":
            return kind, rule.pattern or ""
        if kind == "tolerance":
            return kind, "" if rule.tolerance is None else f"{rule.tolerance:g}"
        if kind == "one_of":
            return kind, ", ".join(_text(v) for v in rule.values or [])
        return kind, ""
    if isinstance(rule, list):
        return "one_of", ", ".join(_text(v) for v in rule)
    text = str(rule)
    for prefix in ("regex", "tolerance", "one_of"):
        if text.startswith(prefix + ":"):
            value = text[len(prefix) + 1:]
            if prefix == "one_of":
                try:
                    return prefix, ", ".join(_text(v) for v in json.loads(value))
                except (ValueError, TypeError):
                    return prefix, value.strip("[]")
            return prefix, value
    return (text, "") if text in KINDS else ("exact", "")


def join_rule(kind: str, text: str) -> tuple[ArgRule | None, str | None]:
    """(kind, text) → (the typed rule, or None and what is wrong with the text)."""
    raw, error = _raw_rule(kind, text.strip())
    if error:
        return None, error
    try:
        return ArgRule.model_validate(raw), None
    except ValidationError as exc:
        return None, exc.errors()[0]["msg"].removeprefix("Value error, ")


def _raw_rule(kind: str, text: str) -> tuple[Any, str | None]:
    if kind in ("exact", "ignore"):
        return kind, None
    if kind == "regex":
        if not text:
            return "regex:", "write the pattern (an empty one would match anything)"
        try:
            re.compile(text)
        except re.error as exc:
            return f"regex:{text}", f"bad pattern: {exc}"
        return f"regex:{text}", None
    if kind == "tolerance":
        try:
            float(text)
        except ValueError:
            return f"tolerance:{text}", "tolerance must be a number"
        return f"tolerance:{text}", None
    values = [_value(part.strip()) for part in text.split(",") if part.strip()]
    return values, None if values else "list the allowed values, comma-separated"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text
