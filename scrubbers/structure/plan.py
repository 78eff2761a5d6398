"""Compiling a value into a scrub plan, once, whatever the trace.

How a value is scrubbed depends on its structure (JSON inside a string, keys that make a value personal,
schemas, depth) and on the trace (the placeholders and values known so far). The first part depends only
on the value and its key, so it is worked out once here and shared: a `Plan` is the value's template,
with a hole for every string leaf, and the list of those leaves in reading order. Applying the plan to a
trace's context (in `engine`) decides each leaf's output; `scrubbers.speed.filling` puts the outputs back, and
a JSON string none of whose leaves changed comes back as it was, byte for byte, without being re-encoded.

LLM spans repeat the whole conversation in every call, so the same strings come back many times: the
engine caches plans by (key rule, text) and detections by text, so each unique text is decoded, walked
and analysed once; a big JSON string is planned member by member (`scrubbers.speed.splice`), so the members
each new call repeats are shared too, and its plan's `parts` let per-trace work skip whole members.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, Any

import regex

from scrubbers.structure.disguise import View, view_of
from scrubbers.structure.keyrules import NOWHERE, SCHEMA, SCHEMA_POSITIONS, KeyRules
from scrubbers.speed import Splicer
from scrubbers.structure.decoding import SCHEMA_LABELS, Encoder, decode

if TYPE_CHECKING:
    from scrubbers.analysis.analyzer import Analyzer, Detection
    from scrubbers.policy import ScrubPolicy

REDACTED = "<REDACTED>"
WHOLE, PROSE, CONST = 0, 1, 2
_SURROGATE = regex.compile(r"[\ud800-\udfff]")
_WORD = regex.compile(r"\w+")
_SHARED_PROSE_LEAVES = 5_000  # prose leaves shared between plans; then forgotten all at once (memory)


class Leaf:
    """One string leaf: replaced whole (a value under a personal key), analysed as prose, or a constant."""

    __slots__ = ("kind", "text", "entity", "numeric", "fixed_unicode", "counter", "_analyzer", "_masked",
                 "_blobs", "_words", "_view")

    def __init__(self, kind: int, text: str, analyzer: Analyzer, *, entity: str | None = None,
                 numeric: bool = False, fixed_unicode: bool = False, counter: str | None = None):
        self.kind, self.text, self.entity = kind, text, entity
        self.numeric = numeric  # a number under a personal key: replaced, but never remembered
        self.fixed_unicode = fixed_unicode  # lone surrogates became U+FFFD (counted when applied)
        self.counter = counter  # the report counter a constant leaf adds one to
        self._analyzer = analyzer
        self._masked: str | None = None
        self._blobs: list[Detection] = []
        self._words: frozenset[str] | None = None
        self._view: View | None = None

    @property
    def view(self) -> View:
        """The masked text with its disguises taken off (`scrubbers.structure.disguise`): what detection
        reads."""
        if self._view is None:
            self._view = view_of(self.masked)
        return self._view

    @property
    def masked(self) -> str:
        """The text with long base64/hex runs blanked out (what the analyzer sees); computed once."""
        if self._masked is None:
            self._blobs = self._analyzer.blobs(self.text)
            masked = self.text
            for blob in self._blobs:
                masked = masked[: blob.start] + " " * (blob.end - blob.start) + masked[blob.end :]
            self._masked = masked
        return self._masked

    @property
    def blobs(self) -> list[Detection]:
        """The blob runs of the text (redacted whole)."""
        self.masked  # noqa: B018 - computes the blobs with the mask
        return self._blobs

    @property
    def words(self) -> frozenset[str]:
        """Case-folded word tokens of the masked text: a known value can only occur where its first word
        does."""
        if self._words is None:
            view = self.view
            texts = [view.text, *(decoded.text for decoded in view.decoded)]
            self._words = frozenset(word.casefold() for text in texts for word in _WORD.findall(text))
        return self._words


class Hole:
    """Where leaf `index`'s output goes."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index


class Nested:
    """A string that held JSON (or a repr): its own template, re-encoded only when a leaf in it changed.

    (Splicing the changed string tokens into the original text instead was tried: finding the tokens in
    Python cost more than `json.dumps` of the rebuilt value.)
    """

    __slots__ = ("template", "encode", "original", "start", "end", "rewrite")

    def __init__(self, template: Any, encode: Encoder, original: str, start: int, end: int,
                 rewrite: bool = False):
        self.template, self.encode, self.original = template, encode, original
        self.start, self.end = start, end
        self.rewrite = rewrite  # the original holds what the decoded value does not (a duplicate key)


class Sub:
    """A dict or list with leaves somewhere inside: rebuilt only when one of them changed. `keys` holds
    the holes of the dict's keys that are scrubbed as text."""

    __slots__ = ("node", "original", "start", "end", "keys")

    def __init__(self, node: Any, original: Any, start: int, end: int, keys: dict[Any, Hole] | None = None):
        self.node, self.original, self.start, self.end, self.keys = node, original, start, end, keys


class Plan:
    """A value's template and its leaves in reading order (placeholders are numbered in that order).

    The engine caches a string's plan and shares it with every trace that writes the string, so a plan
    holds nothing of a trace. Once built it changes only by two memos of its own, each set once and never
    rewritten (`settle_dirty`, `settle_windows`): what they hold depends on the text and the policy alone.
    """

    __slots__ = ("template", "leaves", "size", "nested", "source", "_dirty", "parts", "_windows", "_words",
                 "_texts")

    def __init__(self, template: Any, leaves: list[Leaf], size: int, nested: int = 0,
                 source: str | None = None):
        self.template, self.leaves = template, leaves
        self.size = size  # characters of the source text, for the cache's budget
        self.nested = nested  # strings in it that held JSON or a repr
        self.source = source  # the string the plan was built from (None for other values)
        self._dirty: tuple[int, ...] | None = None
        self.parts: list[tuple[int, Plan]] | None = None
        """For a spliced string: the shared plans of its members with their first leaf's index, which
        together hold every leaf (so work per member can be shared too)."""
        self._windows: tuple | None = None
        self._words: frozenset[str] | None = None
        self._texts: list[str] | None = None

    @property
    def dirty(self) -> tuple[int, ...] | None:
        """Indices of the leaves that change in any trace: under a key rule, constant, or prose with a
        detection, a blob, a mended surrogate or too long for NER. Any other leaf changes only where one
        of the trace's known values occurs in it. None until the engine settles it (texts analysed)."""
        return self._dirty

    def settle_dirty(self, indices: Iterable[int]) -> tuple[int, ...]:
        """Sets `dirty` once (a later call keeps the first answer) and gives it."""
        if self._dirty is None:
            self._dirty = tuple(indices)
        return self._dirty

    @property
    def windows(self) -> tuple | None:
        """The borders inside the plan (`scrubbers.structure.joins.Window`s), once the joiner has read them:
        they depend on its template and leaves alone. None until then."""
        return self._windows

    def settle_windows(self, windows: tuple) -> tuple:
        """Sets `windows` once (a later call keeps the first answer) and gives it."""
        if self._windows is None:
            self._windows = windows
        return self._windows

    @property
    def texts(self) -> list[str]:
        """Every leaf's text: its output when nothing changes."""
        if self._texts is None:
            if self.parts is not None:
                self._texts = list(chain.from_iterable(part.texts for _, part in self.parts))
            else:
                self._texts = [leaf.text for leaf in self.leaves]
        return self._texts

    @property
    def words(self) -> frozenset[str]:
        """Every word token of its prose leaves (see `Leaf.words`)."""
        if self._words is None:
            if self.parts is not None:
                self._words = frozenset().union(*(part.words for _, part in self.parts))
            else:
                self._words = frozenset().union(*(leaf.words for leaf in self.leaves if leaf.kind == PROSE))
        return self._words

    def unsettled(self) -> Iterator[Leaf]:
        """The leaves whose detections it will ask for: all, or once its dirty leaves are known, those."""
        if self.dirty is not None:
            leaves = self.leaves
            yield from (leaves[index] for index in self.dirty)
        elif self.parts is not None:
            for _, part in self.parts:
                yield from part.unsettled()
        else:
            yield from self.leaves


class PlanState:
    """What a plan under construction holds so far (shared with `scrubbers.speed.splice`, which adds
    members)."""

    __slots__ = ("leaves", "nested", "parts")

    def __init__(self) -> None:
        self.leaves: list[Leaf] = []
        self.nested = 0
        """Strings that held JSON (or a repr) so far."""
        self.parts: list[tuple[int, Plan]] = []
        """Shared member plans placed so far, with their first leaf's index."""


class PlanBuilder:
    """Walks a value once under the policy's key rules (`scrubbers.structure.keyrules`) and builds its
    plan."""

    def __init__(self, policy: ScrubPolicy, analyzer: Analyzer):
        self.policy, self.analyzer = policy, analyzer
        self.rules = KeyRules(policy, analyzer)
        self.state = PlanState()
        self._prose: dict[tuple[str, bool], Leaf] = {}
        self.splicer = Splicer(self)

    def value(self, value: Any, key: str | None) -> Plan:
        """The plan of any JSON-like value found under `key` (None: no key)."""
        self.state = PlanState()
        # an attribute whose value is a schema (`llm.tools.0.tool.json_schema`) puts it in a schema position
        position = SCHEMA if key is not None and key.rsplit(".", 1)[-1] in SCHEMA_POSITIONS else NOWHERE
        template = self.walk(value, key, self.analyzer.key_hint(key), 0, position)
        source = value if isinstance(value, str) and not isinstance(template, str) else None
        return self.plan_of(template, len(value) if isinstance(value, str) else 0, source)

    def plan_of(self, template: Any, size: int, source: str | None = None) -> Plan:
        """The plan of a template walked into the current state."""
        state = self.state
        plan = Plan(template, state.leaves, size, state.nested, source)
        if state.parts and sum(len(part.leaves) for _, part in state.parts) == len(state.leaves):
            plan.parts = state.parts
        return plan

    def prose(self, text: str, key: str | None) -> Plan:
        """The plan of a text read as prose (never decoded as JSON)."""
        self.state = PlanState()
        hint = self.analyzer.key_hint(key)
        if not text:
            return Plan(text, [], 0)
        text, fixed = _valid_unicode(text)
        if hint is not None and not self.analyzer.hint_exempt(text):
            whole = self._leaf(WHOLE, text, entity=hint[0], fixed_unicode=fixed)
            return Plan(whole, self.state.leaves, len(text))
        return Plan(self._prose_leaf(text, fixed), self.state.leaves, len(text))

    def key(self, name: str) -> Plan:
        """The plan of an object key that is not a plain name in code (see `_key_leaf`)."""
        self.state = PlanState()
        return Plan(self._key_leaf(name), self.state.leaves, len(name))

    def _key_leaf(self, name: str) -> Hole:
        # A key in the shape of a name in code that holds something personal (`elena.vasquez`,
        # `ssn_512447723`) is one value, replaced whole; any other key that is no such name is text.
        entity = self.rules.key_entity(name)
        if entity is not None:
            return self._leaf(WHOLE, name, entity=entity)
        return self._prose_leaf(*_valid_unicode(name))

    def _leaf(self, kind: int, text: str, **options: Any) -> Hole:
        leaves = self.state.leaves
        leaves.append(Leaf(kind, text, self.analyzer, **options))
        return Hole(len(leaves) - 1)

    def _prose_leaf(self, text: str, fixed: bool) -> Hole:
        # The same prose comes back in every model call of a trace (the history): one shared Leaf per
        # text computes its mask and words once, and its text's hash once for every lookup by text.
        key = (text, fixed)
        leaf = self._prose.get(key)
        if leaf is None:
            if len(self._prose) >= _SHARED_PROSE_LEAVES:
                self._prose.clear()
            leaf = self._prose[key] = Leaf(PROSE, text, self.analyzer, fixed_unicode=fixed)
        leaves = self.state.leaves
        leaves.append(leaf)
        return Hole(len(leaves) - 1)

    def walk(self, value: Any, key: str | None, hint: tuple[str, bool] | None, depth: int,
             position: int) -> Any:
        """The template of `value` (under `key`, with key rule `hint`, at `depth` and schema `position`)."""
        if depth > self.policy.max_depth:
            return self._leaf(CONST, REDACTED, counter="too_deep")
        kind = type(value)
        if kind is str:  # the common cases first, by exact type (this walk is the hot path of planning)
            return self._string(value, hint, depth, position) if value else value
        if kind is dict or (kind is not list and isinstance(value, dict)):
            return self._dict(value, key, hint, depth, position)
        if kind is list or isinstance(value, (list, tuple)):
            start, inner = len(self.state.leaves), KeyRules.item_position(position)
            items = [self.walk(item, key, hint, depth + 1, inner) for item in value]
            return self._container(items, value, start)
        if isinstance(value, str):
            return self._string(value, hint, depth)
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, (int, float)):
            return value if hint is None else self._leaf(WHOLE, str(value), entity=hint[0], numeric=True)
        if isinstance(value, (bytes, bytearray)):
            return self._string(bytes(value).decode("utf-8", "surrogateescape"), hint, depth)
        return self._string(str(value), hint, depth)  # unknown objects: their text, scrubbed

    def _dict(self, value: dict, key: str | None, hint: tuple[str, bool] | None, depth: int,
              position: int) -> Any:
        rules = self.rules
        node = rules.node(key, hint, value, value.get("type"), len(value), position)
        start, depth = len(self.state.leaves), depth + 1
        walked: Any = {}
        keys: dict[Any, Hole] = {}
        for k, v in value.items():
            name = k if type(k) is str else str(k)
            if not rules.plain_key(name):  # a key that is not a code-defined name: scrubbed
                keys[k] = self._key_leaf(name)
            if node.schema and name in SCHEMA_LABELS and type(v) is str and depth <= self.policy.max_depth:
                walked[k] = v  # a field's type, title, description: kept as written
            else:
                member_hint, member_position = rules.member(node, name)
                walked[k] = self.walk(v, name, member_hint, depth, member_position)
        return self._container(walked, value, start, keys or None)

    def _container(self, walked: Any, original: Any, start: int, keys: dict[Any, Hole] | None = None) -> Any:
        # Nothing to scrub inside: the original itself stands in the template, and is never walked again.
        end = len(self.state.leaves)
        return original if end == start else Sub(walked, original, start, end, keys)

    def _string(self, text: str, hint: tuple[str, bool] | None, depth: int, position: int = NOWHERE) -> Any:
        if not text:
            return text
        text, fixed = (text, False) if text.isascii() else _valid_unicode(text)
        if hint is not None and not self.analyzer.hint_exempt(text):
            return self._leaf(WHOLE, text, entity=hint[0], fixed_unicode=fixed)
        spliced = self.splicer.spliced(text, depth, position)
        if spliced is not None:
            return spliced
        try:
            decoded = decode(text)
        except ValueError:
            return self._leaf(CONST, REDACTED, counter="too_deep")
        if decoded is None:
            return self._prose_leaf(text, fixed)
        state = self.state
        state.nested += 1
        start = len(state.leaves)
        template = self.walk(decoded.value, None, None, depth + 1, position)
        return Nested(template, decoded.encode, text, start, len(state.leaves), decoded.rewrite)


def _valid_unicode(text: str) -> tuple[str, bool]:
    if _SURROGATE.search(text) is None:
        return text, False
    return _SURROGATE.sub("\ufffd", text), True

