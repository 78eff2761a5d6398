"""What a scrub run did, in counts only: a report must never carry the values it removed."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict


class ScrubReport(BaseModel):
    """Running totals of one engine (or of many, merged). Counts only, never values."""

    model_config = ConfigDict(extra="forbid")

    strings: int = 0
    """String leaves scrubbed (after JSON decoding)."""
    unique_strings: int = 0
    """Texts actually analyzed; the rest were served from the analyzer-result cache."""
    entities: dict[str, int] = {}
    """Replacements made, by entity type."""
    by_attribute: dict[str, int] = {}
    """Replacements made, by span attribute key (or the hint key given by the caller)."""
    redacted_on_error: int = 0
    """Strings replaced whole by `<REDACTED>` because analysis failed (fail closed)."""
    blobs_redacted: int = 0
    """Long base64/hex runs replaced by `<BLOB>`."""
    too_deep: int = 0
    """JSON values nested deeper than the policy's `max_depth`, redacted whole."""
    invalid_unicode: int = 0
    """Strings holding lone surrogates (undecodable bytes); those characters become U+FFFD."""
    ner_skipped: int = 0
    """Texts longer than `ner_max_chars`: scrubbed by patterns, key rules and known values only."""
    json_strings: int = 0
    """Strings that held JSON (or a Python repr) and were re-encoded the way they came."""
    misfits_redacted: int = 0
    """Structural record fields (ids, times, kinds) whose value did not have the policy's shape for them
    and held nothing recognised: redacted whole (not understood, so not written)."""
    output_check_redacted: int = 0
    """Fields redacted whole by the output check: after scrubbing they still held, in some form, a value
    the run had removed elsewhere in the same trace (a rule missed it there)."""
    attributes_passed: int = 0
    """Attributes passed through unchanged because the policy lists them as safe."""

    def count_entity(self, entity: str, attribute: str | None) -> None:
        """Record one replacement."""
        self.entities[entity] = self.entities.get(entity, 0) + 1
        if attribute is not None:
            self.by_attribute[attribute] = self.by_attribute.get(attribute, 0) + 1

    def merge(self, other: ScrubReport) -> None:
        """Add another report's totals to this one (e.g. from a worker process)."""
        for name in type(self).model_fields:
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, dict):
                setattr(self, name, dict(Counter(mine) + Counter(theirs)))
            else:
                setattr(self, name, mine + theirs)


class Tally:
    """The counters one call bumps for every value (plain attributes: a pydantic model's `__setattr__`
    costs a microsecond, paid twice per value of a 100 MB export), added to its report at the end."""

    __slots__ = ("strings", "json_strings", "attributes_passed")

    def __init__(self) -> None:
        self.strings = self.json_strings = self.attributes_passed = 0

    def add_to(self, report: ScrubReport) -> None:
        """Add these counts to `report`."""
        report.strings += self.strings
        report.json_strings += self.json_strings
        report.attributes_passed += self.attributes_passed


class Finding(BaseModel):
    """Residual personal data found in a string that should have been clean. No value, by design."""

    model_config = ConfigDict(extra="forbid")

    path: str
    """Where the string sits, e.g. `expected_tools.calls[1].args.topic`."""
    entity_type: str
    """What was found, e.g. `PERSON`."""
    score: float
    """Detection confidence."""
