"""Per-argument match rules as the tools tab edits them: a kind and one line of text.

The case keeps today's YAML forms (`exact`, `ignore`, `regex:<p>`, `tolerance:<n>`, a list = one_of);
this is the one place the UI converts between them and its (kind, text) pair.
"""

from __future__ import annotations

import json
import re
from typing import Any

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


def join_rule(kind: str, text: str) -> tuple[Any, str | None]:
    """(kind, text) → (the stored rule, an error message or None)."""
    text = text.strip()
    if kind in ("exact", "ignore"):
        return kind, None
    if kind == "regex":
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
