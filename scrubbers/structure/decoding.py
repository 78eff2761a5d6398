"""Strings that hold structure: JSON text or a Python repr, decoded and re-encoded the way they came.

A tool result logged as `{"name": "Maria Gonzalez", "pto_balance_hours": 62.5}` must come back with the
same separators, the same escaping and the same key order, so only the scrubbed leaves differ.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from typing import Any, NamedTuple

import regex

Encoder = Callable[[Any], str]

_NON_ASCII = regex.compile(r"[^\x00-\x7f]")
_SNAKE = regex.compile(r"(?<=[a-z0-9])(?=[A-Z])|[^A-Za-z0-9]+")


class Decoded(NamedTuple):
    """A string's structure and how to write it back."""

    value: Any
    """The decoded dict or list."""
    encode: Encoder
    """Writes a changed value back in the string's own style."""
    rewrite: bool = False
    """The text holds what the value does not (a key twice: the decoded object keeps the last copy), so
    it must be written from the value even when nothing in it changed."""


def decode(text: str) -> Decoded | None:
    """The structure of `text` when it is a JSON or Python-literal dict/list, else None.

    Nesting too deep to decode raises `ValueError` (never RecursionError), so the caller can redact the
    whole string rather than guess.
    """
    if (not text or (text[0] not in "[{" and not text[0].isspace())
            or (text[-1] not in "]}" and not text[-1].isspace())):
        return None  # prose, most of the time: no copy made
    body = text.strip()
    if len(body) < 2 or body[0] not in "[{" or body[-1] not in "]}":
        return None
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    duplicated = []
    try:
        value = json.loads(body, object_pairs_hook=_pairs(duplicated))
    except RecursionError:
        raise ValueError("nested too deeply to decode") from None
    except ValueError:
        value = _literal(body)
        if value is None:
            return None
        return Decoded(value, lambda obj: lead + repr(obj) + trail)
    if not isinstance(value, (dict, list)):
        return None
    return Decoded(value, style_encoder(body, value, lead, trail), bool(duplicated))


def _pairs(duplicated: list[bool]) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        if len(obj) != len(items):
            duplicated.append(True)
        return obj

    return pairs


def style_encoder(body: str, value: Any, lead: str = "", trail: str = "") -> Encoder:
    """Writes a changed version of `value` the way `body` (its JSON text) was written."""
    ensure_ascii = _NON_ASCII.search(body) is None
    style: list[Encoder] = []

    def encode(obj: Any) -> str:
        # Working out the style costs a dump of the value: only pay it when something is re-encoded.
        if not style:
            style.append(_json_style(body, value, ensure_ascii))
        return lead + style[0](obj) + trail

    return encode


def _literal(body: str) -> Any:
    try:
        value = ast.literal_eval(body)
    except RecursionError:
        raise ValueError("nested too deeply to decode") from None
    except (ValueError, SyntaxError, TypeError, MemoryError):
        return None
    return value if isinstance(value, (dict, list)) else None


def _json_style(body: str, value: Any, ensure_ascii: bool) -> Encoder:
    """The `json.dumps` settings that reproduce `body` (an exact candidate, else the closest guess).

    Any two settings that both reproduce `body` write every value of its shape the same way (they can
    only differ in separators it does not contain), so the candidates can be tried in any order: the
    separators seen at the start of `body` go first, and one trial dump usually settles it.
    """
    candidates: list[dict[str, Any]] = []
    if "\n" in body:
        second = body.split("\n", 2)[1]
        indent = len(second) - len(second.lstrip(" "))
        candidates.append({"indent": indent or None, "separators": (",", ": ")})
    candidates += [{"separators": (", ", ": ")}, {"separators": (",", ":")}, {"separators": (",", ": ")}]
    for options in sorted(candidates, key=_likely(body[:4096])):
        try:
            if json.dumps(value, ensure_ascii=ensure_ascii, check_circular=False, **options) == body:
                break
        except (ValueError, RecursionError):
            options = candidates[0]
            break
    else:
        options = candidates[0]
    # decoded values hold no cycle: the encoder need not look for one
    return lambda obj: json.dumps(obj, ensure_ascii=ensure_ascii, check_circular=False, **options)


def _likely(head: str) -> Callable[[dict[str, Any]], int]:
    """Sort key putting first the candidate whose separators `head` shows most (0: the likeliest)."""
    items = ", " if head.count('", "') > head.count('","') else ","
    keys = ": " if 2 * head.count('": ') >= head.count('":') else ":"
    return lambda options: 0 if "indent" in options or options["separators"] == (items, keys) else 1


_SCHEMA_TYPES = frozenset({"string", "object", "array", "integer", "number", "boolean", "null"})


SCHEMA_LABELS = frozenset({"type", "title", "description", "format", "pattern", "$ref", "$id", "$schema",
                           "$comment", "contentMediaType"})
"""Keys of a JSON schema node whose text values describe the field and are kept as they are ("Employee
Id", "STRING"); other values (`default`, `examples`, `enum`, ...) are scrubbed like any text."""


def is_schema(kind: Any, size: int) -> bool:
    """Whether an object of `size` members whose `type` member is `kind` is a JSON schema node (its
    leaves describe fields, they are never personal data); `{"type": "STRING"}` alone is one too."""
    return isinstance(kind, str) and kind.lower() in _SCHEMA_TYPES and size >= 1


def normalise_key(key: str) -> str:
    """`homeAddress`, `home-address`, `Home Address` → `home_address`."""
    return _SNAKE.sub("_", key).strip("_").lower()
