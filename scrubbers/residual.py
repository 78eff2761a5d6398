"""Residual scan: personal data left in strings that should already be clean (a case about to be written).

Reports where and what, never the value. Placeholders this engine writes are never findings; the caller's
`allow(path, entity_type, matched_text)` accepts legitimate identifiers such as a synthetic entity's
`resolves_to` or the SME's own name in `provenance.promoted_by`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import regex

from scrubbers.engine import ScrubEngine
from scrubbers.report import Finding

_INDEX = regex.compile(r"\[\d+\]$")
_default_engine: ScrubEngine | None = None


def residual_scan(
    strings: Iterable[tuple[str, str]],
    *,
    engine: ScrubEngine | None = None,
    allow: Callable[[str, str, str], bool] | None = None,
) -> list[Finding]:
    """Findings for every (path, text) pair that still holds personal data, in input order."""
    engine = engine or _shared_engine()
    findings = []
    for path, text in strings:
        if not text:
            continue
        last_key = _INDEX.sub("", path.rsplit(".", 1)[-1]) if path else None
        hint = engine.analyzer.key_hint(last_key)
        if hint is not None and not engine.analyzer.hint_exempt(text):
            hits = [(hint[0], 1.0, text)]
        else:
            found = engine.detections(text)
            if found is None:  # analysis failed: cannot say the text is clean
                hits = [("UNSCANNABLE", 1.0, text)]
            else:
                hits = [(d.entity, d.score, text[d.start : d.end]) for d in found]
        for entity, score, matched in hits:
            if allow is None or not allow(path, entity, matched):
                findings.append(Finding(path=path, entity_type=entity, score=round(score, 3)))
    return findings


def _shared_engine() -> ScrubEngine:
    """One default engine per process: loading spaCy is the expensive part."""
    global _default_engine
    if _default_engine is None:
        _default_engine = ScrubEngine()
    return _default_engine
