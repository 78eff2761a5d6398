"""Residual-PII scan of a case: everything the file says (`pii_texts.scan_units`: values, keys,
identifiers, comments, anchors, tags, decoded text), except machine values.

Used by `promote validate`, by the PII gate in front of every case write, by `pr` and `compile` (through
validation) and by `check` before it runs. Findings carry the field (or the comment's line) and the
entity type, never the value.
"""

from __future__ import annotations

from typing import Any

from promote.case.pii_texts import scan_units


def _allowed(tree: Any):
    tenant = tree.get("tenant") if isinstance(tree, dict) else None  # any YAML: the schema reports it
    synthetic = isinstance(tenant, dict) and tenant.get("data") == "synthetic"

    def allow(path: str, entity_type: str, matched: str) -> bool:
        # A synthetic sandbox record's id is the point of an entity, not a leak.
        if synthetic and path.startswith("entities[") and path.endswith(".resolves_to"):
            return True
        # The SME's own name, recorded on purpose.
        return path == "provenance.promoted_by"

    return allow


def residual_scan_for_validate(tree: Any) -> list[tuple[tuple[Any, ...], str]]:
    """Findings as (location, entity type) for `promote validate` and the write gate (default policy),
    one per location and entity type."""
    from promote.scrubbing import engine
    from scrubbers import residual_scan

    units = scan_units(tree)
    by_path = {unit.path: unit.location for unit in units}
    findings = residual_scan([(unit.path, unit.text) for unit in units], engine=engine(),
                             allow=_allowed(tree))
    found = [(by_path.get(finding.path, ()), finding.entity_type) for finding in findings]
    return list(dict.fromkeys(found))
