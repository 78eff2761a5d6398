"""Big JSON strings cut at their members, so that what every model call repeats is planned once.

An LLM request holds the system prompt, the tool declarations and the whole conversation so far, and the
next call of the trace holds all of it again plus one more message. Decoding and walking each request
whole redoes that work every time. Cut at its top levels instead (the request's members, the messages
of its history), each member's text is planned once and shared (`PlanBuilder` caches member plans by
text); when a trace changes nothing in a member, its text is copied as it was, and a changed member is
re-encoded alone, in the string's own style.

Only single-line JSON is cut (pretty-printed JSON is indented by depth, so a member re-encoded alone would
not fit back); anything the scanner does not accept (a Python repr, a duplicate key, bad JSON) is left
to the whole-string path.
"""

from __future__ import annotations

import json
from json.decoder import scanstring
from typing import Any, NamedTuple

from scrubbers.structure import SCHEMA_LABELS, is_schema, style_encoder

SPLICE_MIN_CHARS = 1_000  # shorter JSON strings are decoded whole
_LEVELS = 2  # a request's members, then the messages of its history
_MEMBER_CACHE_CHARS = 500_000  # member plans kept, by the characters of their text
_DECODER = json.JSONDecoder()
_SPACE = " \t\r"  # JSON whitespace; a newline means pretty-printed JSON, which is not cut


class Piece(NamedTuple):
    """One member of an object (with its key) or one element of an array."""

    key: str | None
    start: int
    end: int
    value: Any
    """The decoded value (None when it is cut further)."""
    cut: Cut | None
    """The member cut into its own members (a big container above the last level), else None."""


class Cut(NamedTuple):
    """An object or array of a JSON text: where it is and its members."""

    is_object: bool
    start: int
    end: int
    pieces: list[Piece]


def cut_json(text: str, start: int, levels: int) -> Cut | None:
    """The object or array starting at `text[start]`, cut `levels` deep; None when it is not plain JSON."""
    try:
        return _cut(text, start, levels)
    except (ValueError, IndexError, RecursionError):
        return None


def _skip(text: str, at: int) -> int:
    while text[at] in _SPACE:
        at += 1
    return at


def _cut(text: str, start: int, levels: int) -> Cut | None:
    is_object = text[start] == "{"
    close = "}" if is_object else "]"
    pieces: list[Piece] = []
    keys: set[str] = set()
    at = _skip(text, start + 1)
    if text[at] == close:
        return Cut(is_object, start, at + 1, pieces)
    while True:
        key = None
        if is_object:
            if text[at] != '"':
                return None
            key, at = scanstring(text, at + 1)
            if key in keys:  # a decoded object keeps the last duplicate only: leave it to the whole path
                return None
            keys.add(key)
            at = _skip(text, at)
            if text[at] != ":":
                return None
            at = _skip(text, at + 1)
        if levels > 1 and text[at] in "{[":
            inner = _cut(text, at, levels - 1)
            if inner is None:
                return None
            pieces.append(Piece(key, at, inner.end, None, inner))
            at = inner.end
        else:
            value, end = _DECODER.raw_decode(text, at)
            pieces.append(Piece(key, at, end, value, None))
            at = end
        at = _skip(text, at)
        if text[at] == close:
            return Cut(is_object, start, at + 1, pieces)
        if text[at] != ",":
            return None
        at = _skip(text, at + 1)


class Member:
    """A member in a spliced template: its shared plan, placed at leaf `offset` of the enclosing plan."""

    __slots__ = ("plan", "offset", "text", "encode")

    def __init__(self, plan: Any, offset: int, text: str, encode: Any):
        self.plan, self.offset, self.text, self.encode = plan, offset, text, encode


class Spliced:
    """An object or array as text pieces (what lies between members, as it was), members and inner
    `Spliced` nodes; `whole` marks the one standing for the entire string (where a failed encode is
    answered)."""

    __slots__ = ("pieces", "original", "start", "end", "whole")

    def __init__(self, pieces: list[Any], original: str, start: int, end: int, whole: bool = False):
        self.pieces, self.original, self.start, self.end, self.whole = pieces, original, start, end, whole


class SplicingBuilder:
    """The part of `PlanBuilder` that plans a big JSON string member by member.

    It works on the builder's state (`_leaves`, `_nested`, `_parts`, `_members`) and calls its `_value`
    for each member exactly as the whole-string walk would, with the same key, key rule and depth, so a
    spliced plan has the same leaves in the same order as the decoded one.
    """

    def _spliced(self, text: str, depth: int) -> Spliced | None:
        if len(text) < SPLICE_MIN_CHARS or "\n" in text or depth + 1 + _LEVELS > self.policy.max_depth:  # type: ignore[attr-defined]
            return None
        first = len(text) - len(text.lstrip(_SPACE))
        if first == len(text) or text[first] not in "{[":
            return None
        found = cut_json(text, first, _LEVELS)
        if found is None or text[found.end:].strip(_SPACE):
            return None
        self._nested += 1  # type: ignore[has-type]
        start = len(self._leaves)  # type: ignore[has-type]
        node = self._cut_node(text, found, None, None, depth + 1)
        return Spliced([text[:first], node, text[found.end:]], text, start, len(self._leaves), whole=True)  # type: ignore[has-type]

    def _cut_node(self, text: str, cut: Cut, key: str | None, hint: Any, depth: int) -> Any:
        """What `_value` makes of the object or array `cut`, at `depth`, as text pieces and members."""
        exempt, inherited, schema = False, None, False
        if cut.is_object:
            kind = next((piece.value for piece in cut.pieces if piece.key == "type"), None)
            schema = is_schema(kind, len(cut.pieces))
            if schema:
                exempt = True
            else:
                exempt = key is not None and self._exempt_parent(key)  # type: ignore[attr-defined]
                siblings = self._exempt_siblings  # type: ignore[attr-defined]
                exempt = exempt or any(piece.key in siblings for piece in cut.pieces)
                inherited = hint if hint is not None and hint[1] else None
        start = len(self._leaves)  # type: ignore[has-type]
        pieces: list[Any] = []
        position = cut.start
        for piece in cut.pieces:
            if cut.is_object:
                child_key = piece.key
                child_hint = inherited or (None if exempt else self.analyzer.key_hint(child_key))  # type: ignore[attr-defined]
            else:
                child_key, child_hint = key, hint
            pieces.append(text[position : piece.start])
            if schema and child_key in SCHEMA_LABELS and type(piece.value) is str:
                pieces.append(text[piece.start : piece.end])  # a field's label: kept as written
            elif piece.cut is not None:
                pieces.append(self._cut_node(text, piece.cut, child_key, child_hint, depth + 1))
            elif child_hint is None and (piece.value is None or type(piece.value) in (bool, int, float)):
                pieces.append(text[piece.start : piece.end])  # a plain number or constant: nothing to plan
            else:
                pieces.append(self._member(text[piece.start : piece.end], piece.value, child_key, child_hint, depth + 1))
            position = piece.end
        pieces.append(text[position : cut.end])
        original = text[cut.start : cut.end]
        return original if len(self._leaves) == start else Spliced(pieces, original, start, len(self._leaves))  # type: ignore[has-type]

    def _member(self, text: str, value: Any, key: str | None, hint: Any, depth: int) -> Any:
        """A member's shared plan placed at the current leaf; its text alone when nothing in it can change."""
        cache_key = (text, key, hint, depth)
        entry = self._members.get(cache_key)  # type: ignore[has-type]
        if entry is None:
            saved = self._leaves, self._nested, self._parts  # type: ignore[has-type]
            self._leaves, self._nested, self._parts = [], 0, []
            try:
                plan = self._plan(self._value(value, key, hint, depth), len(text))  # type: ignore[attr-defined]
            finally:
                self._leaves, self._nested, self._parts = saved
            entry = self._members[cache_key] = (plan, style_encoder(text, value), text)
            self._member_chars += len(text)  # type: ignore[has-type]
            while self._member_chars > _MEMBER_CACHE_CHARS:
                evicted = next(iter(self._members))
                self._member_chars -= len(self._members.pop(evicted)[2])
        plan, encode, text = entry
        self._nested += plan.nested
        if not plan.leaves:
            return text
        member = Member(plan, len(self._leaves), text, encode)
        self._parts.append((member.offset, plan))
        self._leaves.extend(plan.leaves)
        return member
