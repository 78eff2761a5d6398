"""Which key rule applies to each member of a JSON object: one rule, used by the whole-value walk
(`scrubbers.structure.plan`) and the member-by-member one (`scrubbers.speed.splice`) alike.

Fail closed, and no exemption that data can switch on for itself:
- a JSON schema keeps its labels (`"title": "Employee Id"`) only where a schema goes: a tool
  declaration's parameters (`parameters`, `input_schema`, ...) and the sub-schemas of a schema
  (`properties`, `items`, `anyOf`, ...); a tool result shaped like a schema is scrubbed like any result;
- an object that describes a thing (it sits under `plan`, `tool`, `document`, ... or holds a tool call's
  `args`, `response`, `parameters`) only loses the *name* rule (the name of a plan is not a person's
  name, and is still scrubbed as text); its `ssn`, `email`, `phone`, `account` keys stay personal;
- a key rule that covers a subtree (`address`, `secret`) covers all of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

import regex

from scrubbers.structure.decoding import is_schema, normalise_key

if TYPE_CHECKING:
    from scrubbers.analysis.analyzer import Analyzer
    from scrubbers.policy import ScrubPolicy

Hint = "tuple[str, bool] | None"

NOWHERE, SCHEMA, SCHEMA_MAP, SCHEMA_LIST = 0, 1, 2, 3
"""Positions of a value: anywhere, where a schema goes, a map of schemas, a list of schemas."""

SCHEMA_POSITIONS = frozenset({
    "parameters", "parameters_json_schema", "parametersJsonSchema", "input_schema", "inputSchema",
    "output_schema", "outputSchema", "response_schema", "responseSchema", "response_json_schema",
    "responseJsonSchema", "json_schema", "jsonSchema"})
"""Keys of a tool declaration whose value is a schema."""
_SUB_SCHEMA = {
    "items": SCHEMA, "additionalProperties": SCHEMA, "additional_properties": SCHEMA, "not": SCHEMA,
    "contains": SCHEMA, "properties": SCHEMA_MAP, "patternProperties": SCHEMA_MAP, "$defs": SCHEMA_MAP,
    "definitions": SCHEMA_MAP, "anyOf": SCHEMA_LIST, "oneOf": SCHEMA_LIST, "allOf": SCHEMA_LIST,
    "any_of": SCHEMA_LIST, "one_of": SCHEMA_LIST, "all_of": SCHEMA_LIST, "prefixItems": SCHEMA_LIST,
}
_SCHEMA_WITHOUT_TYPE = frozenset({"$ref", "anyOf", "oneOf", "allOf", "any_of", "one_of", "all_of"})
_PERSON = "PERSON"
_KEY_SEPARATORS = regex.compile(r"[._\-/:]+")
"""What joins the words of a key in code (`gregory.hallman`, `user_name`): read as spaces for analysis."""


class Node(NamedTuple):
    """What one object's members get."""

    schema: bool
    """A schema in a schema position: its label members are kept as written."""
    inherited: Any
    """A key rule covering the whole subtree, passed to every member."""
    thing: bool
    """The object describes a thing, not a person: the name rule does not apply to its members."""
    position: int
    """Where the object sits (`SCHEMA_MAP`: its members are schemas)."""


class KeyRules:
    """The policy's key rules, applied member by member."""

    def __init__(self, policy: ScrubPolicy, analyzer: Analyzer):
        self._analyzer = analyzer
        self._exempt_parents = frozenset(normalise_key(k) for k in policy.key_hint_exempt_parents)
        self._exempt_siblings = frozenset(policy.key_hint_exempt_siblings)
        self._parent_cache: dict[str, bool] = {}
        shape = policy.structure.shapes.get(policy.structure.fields.get("key", ""), "")
        self._plain_key = regex.compile(shape).fullmatch if shape else (lambda key: None)
        self._key_cache: dict[str, tuple[bool, str | None]] = {}

    def node(self, key: str | None, hint: Any, members: Iterable[str], kind: Any, size: int,
             position: int) -> Node:
        """The rule for an object under `key` (its own key rule `hint`) with these member names."""
        names = members if isinstance(members, (set, frozenset, dict)) else set(members)
        schema = position == SCHEMA and (is_schema(kind, size) or not _SCHEMA_WITHOUT_TYPE.isdisjoint(names))
        inherited = hint if hint is not None and hint[1] else None
        thing = not schema and ((key is not None and self._exempt_parent(key))
                                or not self._exempt_siblings.isdisjoint(names))
        return Node(schema, inherited, thing, position)

    def member(self, node: Node, name: str) -> tuple[Any, int]:
        """(key rule, position) of the member `name` of an object with rule `node`."""
        if node.schema:
            position = _SUB_SCHEMA.get(name, NOWHERE)
        elif node.position == SCHEMA_MAP:
            position = SCHEMA
        elif node.thing and name in SCHEMA_POSITIONS:
            position = SCHEMA
        else:
            position = NOWHERE
        if node.inherited is not None:
            return node.inherited, position
        if node.schema:
            return None, position
        hint = self._analyzer.key_hint(name)
        if hint is not None and node.thing and hint[0] == _PERSON and not hint[1]:
            hint = None  # the name of a plan or a tool: scrubbed as text, not removed as a person's name
        return hint, position

    @staticmethod
    def item_position(position: int) -> int:
        """The position of the items of a list at `position`."""
        return SCHEMA if position == SCHEMA_LIST else NOWHERE

    def plain_key(self, key: str) -> bool:
        """Whether an object key is a code-defined name: it has the policy's `key` shape and nothing
        personal is found in it, as written or with its separators read as spaces. Any other key
        (`"Gregory Hallman"`, an e-mail, `sk-proj-…`, `gregory.hallman`) is scrubbed."""
        return self._read_key(key)[0]

    def key_entity(self, key: str) -> str | None:
        """What was found in a key of one token (`elena.vasquez`, `Elena.Vasquez`: PERSON, `sk-proj-…`:
        SECRET): such a key is one value, replaced whole. None for a plain key, for a key in which
        nothing was found and for a key with spaces (text: scrubbed as prose)."""
        return self._read_key(key)[1]

    def _read_key(self, key: str) -> tuple[bool, str | None]:
        found = self._key_cache.get(key)
        if found is None:
            if len(self._key_cache) > 50_000:
                self._key_cache.clear()
            if not key or any(ch.isspace() for ch in key):
                found = (False, None)
            else:
                try:
                    entity = self._entity_in(key)
                    found = (entity is None and self._plain_key(key) is not None, entity)
                except Exception:  # noqa: BLE001 - a key that cannot be analysed is not known to be plain
                    found = (False, None)
            self._key_cache[key] = found
        return found

    def _entity_in(self, key: str) -> str | None:
        # A key can have the shape of a name in code and still be data: a map keyed by user names or
        # tokens. Each distinct key is read once (keys repeat in every span), by every recognizer but NER,
        # which finds nothing in words joined by dots (the name lists do: `elena.vasquez`).
        # Both readings in one text, on two lines: no detection spans a line break.
        found = self._analyzer.analyze_without_ner(f"{key}\n{_KEY_SEPARATORS.sub(' ', key)}")
        return max(found, key=lambda detection: detection.score).entity if found else None

    def _exempt_parent(self, key: str) -> bool:
        found = self._parent_cache.get(key)
        if found is None:
            found = self._parent_cache[key] = normalise_key(key) in self._exempt_parents
        return found
