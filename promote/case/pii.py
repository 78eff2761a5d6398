"""Residual-PII scan of a case: every string in it, except fields that legitimately hold identifiers.

Used by `promote validate` and by the PII gate in front of every case write. Findings carry the field
and the entity type, never the value.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from promote.case.problems import field_path

# Machine identifiers and labels, not prose: trace/span ids, hashes, versions, enum-like values.
_NOT_SCANNED = {
    ("format",), ("id",), ("status",), ("tier",), ("origin",), ("kind",), ("datasets",), ("agent",),
    ("provenance", "trace"), ("provenance", "scrubbed"), ("provenance", "source"),
    ("provenance", "review"), ("provenance", "promoted_at"), ("tenant",),
    ("budgets",), ("metadata", "draft"),
}


def _is_label(location: tuple[Any, ...]) -> bool:
    # Tool and figure names are identifiers the agent or the SME chose, not people.
    return len(location) >= 3 and location[-1] == "name" and (
        location[0] == "numeric" or location[:2] == ("expected_tools", "calls"))


# A match rule's kind is structure whatever the argument is called (`employee_id: ignore`); a regex
# pattern or one_of values may hold a value and are scanned like the argument itself.
_RULE_WORDS = re.compile(r"(?:exact|ignore|tolerance:\s*[0-9.eE+-]+)\s*")


def _is_rule_word(location: tuple[Any, ...], node: Any) -> bool:
    return (len(location) == 5 and location[:2] == ("expected_tools", "calls") and location[3] == "match"
            and isinstance(node, str) and _RULE_WORDS.fullmatch(node) is not None)


def iter_case_strings(node: Any, location: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(location, text) for every string value of a case tree that is scanned."""
    if any(location[: len(skip)] == skip for skip in _NOT_SCANNED) or _is_label(location):
        return
    if _is_rule_word(location, node):
        return
    if isinstance(node, dict):
        for key, value in node.items():
            yield from iter_case_strings(value, (*location, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from iter_case_strings(value, (*location, index))
    elif isinstance(node, str) and node.strip():
        yield location, str(node)


def _allowed(tree: Any):
    tenant = tree.get("tenant")  # any YAML: a schema error is reported, not a crash here
    synthetic = isinstance(tenant, dict) and tenant.get("data") == "synthetic"

    def allow(path: str, entity_type: str, matched: str) -> bool:
        # A synthetic sandbox record's id is the point of an entity, not a leak.
        if synthetic and path.startswith("entities[") and path.endswith(".resolves_to"):
            return True
        # The SME's own name, recorded on purpose.
        return path == "provenance.promoted_by"

    return allow


def residual_scan_for_validate(tree: Any) -> list[tuple[tuple[Any, ...], str]]:
    """Findings as (location, entity type) for `promote validate` and the write gate (default policy)."""
    from promote.scrubbing import engine
    from scrubbers import residual_scan

    strings = list(iter_case_strings(tree))
    by_path = {field_path(location): location for location, _ in strings}
    findings = residual_scan(
        [(field_path(location), text) for location, text in strings],
        engine=engine(),
        allow=_allowed(tree),
    )
    return [(by_path.get(finding.path, ()), finding.entity_type) for finding in findings]
