"""Everything a case file says, as texts for the residual-PII scan: values, keys, identifiers, comments,
anchors, tags, and what encoded text decodes to.

A case file is committed, pushed, compiled and printed whole, so whatever it holds leaves with it: a
name in a YAML comment, in a metadata key, in an anchor (`&jane_doe`), in a tag, base64 or `!!binary`
text, HTML entities (`&#74;ane`), percent-encoding, a tool or figure name, the case id (the pushed
branch and compile's folder names), a dataset, a tenant id, a trace's service or a source path.
`scan_units` lists them all.

Texts are scanned as they are; identifiers (`lookup_jane_doe`, `laptop-jane-doe-01`) also as the words
they join, and under a neutral scan path, so the name of the field (`name`, `id`) is not taken as a
hint that the value is personal. Only machine values are left out: enum values, hashes, timestamps,
version numbers, counts.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import urllib.parse
from dataclasses import dataclass
from typing import Any, Iterator

from ruamel.yaml.comments import CommentedBase, TaggedScalar

from promote.case.problems import field_path


class AtLine(int):
    """The last part of a location that is a line of the file (0-based), not a field: a comment."""


COMMENT, KEY, ANCHOR, TAG = "(comment)", "(key)", "(anchor)", "(tag)"

# Machine values, not prose or names: enums, hashes, versions, timestamps, counts, the format.
_NOT_SCANNED = {
    ("format",), ("status",), ("tier",), ("origin",), ("kind",), ("provenance", "scrubbed", "engine"),
    ("provenance", "scrubbed", "version"), ("provenance", "scrubbed", "policy"), ("provenance", "review"),
    ("provenance", "promoted_at"), ("provenance", "trace", "export_sha256"), ("budgets",),
    ("tenant", "environment"), ("tenant", "data"), ("metadata", "draft"),
    # The agent's display name (`Benefits Explainer (Google ADK)`) reads as a person's name to NER.
    ("agent",),
}
# Values that are identifiers someone chose: scanned as written and as the words they join.
_IDENTIFIERS = {
    ("id",), ("datasets",), ("tenant", "id"), ("forbidden_tools",), ("must_cite",),
    ("provenance", "trace"), ("provenance", "source"), ("provenance", "scrubbed", "replaced"),
}
_IDENTIFIER_LEAVES = {("expected_tools", "calls", "name"), ("numeric", "name"), ("numeric", "oracle"),
                      ("numeric", "unit"), ("numeric", "source"), ("tool_results", "tool"),
                      ("entities", "handle"), ("entities", "via"), ("entities", "calendar"),
                      ("retrieval_context", "citation"), ("safety", "must_not", "category"),
                      ("safety", "must", "category")}
_SCHEMA_KEYS_CACHE: set[str] = set()
_HEX_ID = re.compile(r"[0-9a-fA-F]{8,}(?:-[0-9a-fA-F]{4,})*")
# A trace, span or invocation id as tracers write them: hex with letters and digits (a run of digits
# alone may be a phone or account number, and is scanned).
_MACHINE_ID = re.compile(r"(?:[A-Za-z]{1,8}[-_])?(?:(?=[0-9]*[a-fA-F])(?=[a-fA-F]*[0-9])[0-9a-fA-F]{16,64}"
                         r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})")
# e.g. 8f3a2c6e1b7d4f0a9e5c3b2a1d0f8e7c, e-2838436a-511a-4eab-86f4-dbe6741635f1; not 4111111111111111
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_SEPARATORS = re.compile(r"[_\-.+/:@#~]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
# A match rule's kind is structure whatever the argument is called (`employee_id: ignore`).
_RULE_WORDS = re.compile(r"(?:exact|ignore|tolerance:\s*[0-9.eE+-]+)\s*")


@dataclass(frozen=True)
class ScanUnit:
    """One text to scan: the path the scanner sees (a neutral one hides the field name), the text,
    and the location a finding is reported at."""

    path: str
    text: str
    location: tuple[Any, ...]


def words_of(identifier: str) -> str:
    """`lookup_jane_doe` → `lookup jane doe`; `laptopJaneDoe` → `laptop Jane Doe`."""
    return " ".join(_SEPARATORS.sub(" ", _CAMEL.sub(" ", identifier)).split())


def scan_units(tree: Any) -> list[ScanUnit]:
    """Every text of a case tree the residual scan must see (see the module docstring)."""
    units: list[ScanUnit] = []
    _walk(tree, (), units)
    return units


def _schema_keys() -> set[str]:
    if not _SCHEMA_KEYS_CACHE:
        from promote.case import checks, model

        for module in (model, checks):
            for value in vars(module).values():
                fields = getattr(value, "model_fields", None)
                if isinstance(fields, dict):
                    _SCHEMA_KEYS_CACHE.update(fields)
    return _SCHEMA_KEYS_CACHE


def is_schema_key(key: str) -> bool:
    """True for a key portable-v1 itself defines (`numeric`, `tolerance`, ...)."""
    return key in _schema_keys()


def _shape(location: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(part for part in location if not isinstance(part, int))


def _under(location: tuple[Any, ...], prefixes: set[tuple[Any, ...]]) -> bool:
    return any(location[: len(prefix)] == prefix for prefix in prefixes)


def _is_identifier(location: tuple[Any, ...]) -> bool:
    shape = _shape(location)
    return _under(location, _IDENTIFIERS) or any(shape[: len(leaf)] == leaf for leaf in _IDENTIFIER_LEAVES)


def _neutral(units: list[ScanUnit], text: str, location: tuple[Any, ...]) -> None:
    """Scan `text` under a path that gives the scanner no hint, as written and as its words."""
    if _MACHINE_ID.fullmatch(text):
        return
    units.append(ScanUnit(f"~{len(units)}", text, location))
    if not _HEX_ID.fullmatch(text):
        spaced = words_of(text)
        if spaced and spaced != text:
            units.append(ScanUnit(f"~{len(units)}", spaced, location))


def _walk(node: Any, location: tuple[Any, ...], units: list[ScanUnit]) -> None:
    _marks(node, location, units)
    if location and _under(location, _NOT_SCANNED):
        return
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, str) and key not in _schema_keys():
                _neutral(units, key, (*location, key, KEY))
            _walk(value, (*location, key), units)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _walk(value, (*location, index), units)
    elif isinstance(node, TaggedScalar):
        _walk(node.value, location, units)
    elif isinstance(node, bytes):  # !!binary
        _neutral(units, node.decode("utf-8", errors="replace"), location)
    elif isinstance(node, str) and node.strip():
        _text(str(node), location, units)


def _text(text: str, location: tuple[Any, ...], units: list[ScanUnit]) -> None:
    shape = _shape(location)
    in_rule = shape[:3] == ("expected_tools", "calls", "match") and len(location) == 5
    if in_rule and _RULE_WORDS.fullmatch(text):
        return
    if _is_identifier(location):
        _neutral(units, text, location)
    else:
        units.append(ScanUnit(field_path(location), text, location))
    path = field_path(location)
    for decoded in _decoded(text):
        units.append(ScanUnit(path, decoded, location))


def _decoded(text: str) -> Iterator[str]:
    """What the text says once HTML entities and base64 runs are decoded (only where they decode to
    readable text)."""
    unescaped = html.unescape(text)
    if unescaped != text:
        yield unescaped
    unquoted = urllib.parse.unquote(unescaped)  # greg%2Ehallman%40example.com
    if unquoted != unescaped:
        yield unquoted
    for run in _BASE64.findall(text):
        if _HEX_ID.fullmatch(run.rstrip("=")):
            continue
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                plain = decode(run + "=" * (-len(run) % 4)).decode("utf-8")
            except (binascii.Error, ValueError):
                continue
            if plain.strip() and sum(ch.isprintable() for ch in plain) >= 0.9 * len(plain):
                yield plain
                break


def _marks(node: Any, location: tuple[Any, ...], units: list[ScanUnit]) -> None:
    """Comments, anchor and tag of a node (a ruamel round-trip node carries them)."""
    anchor = getattr(getattr(node, "anchor", None), "value", None) if hasattr(node, "anchor") else None
    if isinstance(anchor, str) and anchor:
        _neutral(units, anchor, (*location, ANCHOR))
    tag = getattr(node, "tag", None)
    tag_text = getattr(tag, "value", None) if tag is not None else None
    if isinstance(tag_text, str) and tag_text and not tag_text.startswith("tag:yaml.org,2002:"):
        _neutral(units, tag_text.lstrip("!"), (*location, TAG))
    if isinstance(node, CommentedBase):
        for token in _comment_tokens(node.ca):
            text = token.value.strip().lstrip("#").strip()
            line = getattr(getattr(token, "start_mark", None), "line", None)
            if text and "yaml-language-server:" not in text:
                units.append(ScanUnit(f"~{len(units)}", text, (COMMENT, AtLine(line or 0))))


def _comment_tokens(ca: Any) -> Iterator[Any]:
    def flat(item: Any) -> Iterator[Any]:
        if item is None:
            return
        if isinstance(item, list):
            for part in item:
                yield from flat(part)
        elif hasattr(item, "value") and isinstance(item.value, str):
            yield item

    yield from flat(getattr(ca, "comment", None))
    for entry in getattr(ca, "items", {}).values():
        yield from flat(entry)
    yield from flat(getattr(ca, "end", None))
