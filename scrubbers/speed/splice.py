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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from scrubbers.structure.keyrules import NOWHERE, KeyRules
from scrubbers.structure.decoding import SCHEMA_LABELS, style_encoder

if TYPE_CHECKING:
    from scrubbers.policy import ScrubPolicy

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


def cut_json(text: str, start: int, levels: int,
             plain_key: Callable[[str], bool] = lambda key: True) -> Cut | None:
    """The object or array starting at `text[start]`, cut `levels` deep; None when it is not plain JSON
    or a key at those levels is not `plain_key` (a key that is text is left to the whole-string walk)."""
    try:
        return _cut(text, start, levels, plain_key)
    except (ValueError, IndexError, RecursionError):
        return None


def _skip(text: str, at: int) -> int:
    while text[at] in _SPACE:
        at += 1
    return at


def _cut(text: str, start: int, levels: int, plain_key: Callable[[str], bool]) -> Cut | None:
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
            if key in keys or not plain_key(key):  # a decoded object keeps the last duplicate only, and a
                return None  # key that is text needs a leaf: both are left to the whole path
            keys.add(key)
            at = _skip(text, at)
            if text[at] != ":":
                return None
            at = _skip(text, at + 1)
        if levels > 1 and text[at] in "{[":
            inner = _cut(text, at, levels - 1, plain_key)
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


class Walker(Protocol):
    """What the splicer needs of the plan builder it works for (`scrubbers.structure.plan.PlanBuilder`)."""

    policy: ScrubPolicy
    rules: KeyRules
    state: Any
    """The plan under construction: `leaves`, `nested`, `parts` (`scrubbers.structure.plan.PlanState`)."""

    def walk(self, value: Any, key: str | None, hint: Any, depth: int, position: int) -> Any:
        """The template of a value, exactly as the whole-string walk makes it."""

    def plan_of(self, template: Any, size: int) -> Any:
        """The plan of a template walked into the current state."""


class Splicer:
    """Plans a big JSON string member by member, for a `Walker`.

    Each member is walked with the walker's own `walk`, with the same key, key rule (`KeyRules`, the one
    rule both walks use), position and depth as the whole-string walk, so a spliced plan has the same
    leaves in the same order as the decoded one.
    """

    def __init__(self, walker: Walker):
        self._walker = walker
        self._members: dict[tuple[Any, ...], tuple[Any, Any, str]] = {}  # (plan, encoder, text) by member
        self._member_chars = 0

    @property
    def member_chars(self) -> int:
        """Characters of the member plans made so far and still cached (how much went this way)."""
        return self._member_chars

    def spliced(self, text: str, depth: int, position: int = NOWHERE) -> Spliced | None:
        """The spliced template of `text`, or None when it is not a single-line JSON text worth cutting."""
        walker = self._walker
        if len(text) < SPLICE_MIN_CHARS or "\n" in text or depth + 1 + _LEVELS > walker.policy.max_depth:
            return None
        first = len(text) - len(text.lstrip(_SPACE))
        if first == len(text) or text[first] not in "{[":
            return None
        found = cut_json(text, first, _LEVELS, walker.rules.plain_key)
        if found is None or text[found.end:].strip(_SPACE):
            return None
        state = walker.state
        state.nested += 1
        start = len(state.leaves)
        node = self._cut_node(text, found, None, None, depth + 1, position)
        return Spliced([text[:first], node, text[found.end:]], text, start, len(state.leaves), whole=True)

    def _cut_node(self, text: str, cut: Cut, key: str | None, hint: Any, depth: int, position: int) -> Any:
        """What `walk` makes of the object or array `cut`, at `depth`, as text pieces and members."""
        rules, state = self._walker.rules, self._walker.state
        node = None
        if cut.is_object:
            kind = next((piece.value for piece in cut.pieces if piece.key == "type"), None)
            node = rules.node(key, hint, {piece.key for piece in cut.pieces}, kind, len(cut.pieces), position)
        start = len(state.leaves)
        pieces: list[Any] = []
        at = cut.start
        for piece in cut.pieces:
            if node is not None:
                child_key = piece.key
                if node.schema and child_key in SCHEMA_LABELS and type(piece.value) is str:
                    pieces += [text[at : piece.start], text[piece.start : piece.end]]  # a label: as written
                    at = piece.end
                    continue
                child_hint, child_position = rules.member(node, child_key)
            else:
                child_key, child_hint, child_position = key, hint, KeyRules.item_position(position)
            pieces.append(text[at : piece.start])
            if piece.cut is not None:
                pieces.append(
                    self._cut_node(text, piece.cut, child_key, child_hint, depth + 1, child_position))
            elif child_hint is None and (piece.value is None or type(piece.value) in (bool, int, float)):
                pieces.append(text[piece.start : piece.end])  # a plain number or constant: nothing to plan
            else:
                member_text = text[piece.start : piece.end]
                pieces.append(self._member(member_text, piece.value, child_key, child_hint, depth + 1,
                                           child_position))
            at = piece.end
        pieces.append(text[at : cut.end])
        original = text[cut.start : cut.end]
        return original if len(state.leaves) == start else Spliced(pieces, original, start, len(state.leaves))

    def _member(self, text: str, value: Any, key: str | None, hint: Any, depth: int, position: int) -> Any:
        """A member's shared plan placed at the current leaf; its text alone when nothing in it can change."""
        walker = self._walker
        cache_key = (text, key, hint, depth, position)
        entry = self._members.get(cache_key)
        if entry is None:
            saved = walker.state
            walker.state = type(saved)()
            try:
                plan = walker.plan_of(walker.walk(value, key, hint, depth, position), len(text))
            finally:
                walker.state = saved
            entry = self._members[cache_key] = (plan, style_encoder(text, value), text)
            self._member_chars += len(text)
            while self._member_chars > _MEMBER_CACHE_CHARS:
                evicted = next(iter(self._members))
                self._member_chars -= len(self._members.pop(evicted)[2])
        plan, encode, text = entry
        state = walker.state
        state.nested += plan.nested
        if not plan.leaves:
            return text
        member = Member(plan, len(state.leaves), text, encode)
        state.parts.append((member.offset, plan))
        state.leaves.extend(plan.leaves)
        return member
