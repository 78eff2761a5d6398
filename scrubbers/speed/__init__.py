"""Speed machinery: what makes the engine fast, none of which changes what it writes.

The reference path (`scrubbers.reference`) runs without any of it and is tested equal. Owns the bounded
caches (`caches`), the detections of a call and of the engine (`detector`), recognizer gates (`gates`),
NER by sentence (`sentences`) on texts with found values masked (`masking`), big JSON strings planned
member by member (`splice`) and filled back only where changed (`filling`), and the output check's
matchers (`output_match`).

The rest of `scrubbers` imports only the names below, from `scrubbers.speed` itself (pyproject's import
contract "the speed machinery is used through scrubbers.speed"); they load on first use (PEP 562), so
that importing this package loads nothing heavy and no import cycle forms through it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrubbers.speed.caches import Sightings, SizedCache
    from scrubbers.speed.detector import Detector
    from scrubbers.speed.filling import fill
    from scrubbers.speed.gates import gate_recognizers
    from scrubbers.speed.masking import Masked, mask
    from scrubbers.speed.output_match import RUN_DIGITS, NumberMatcher, ValueMatcher, digit_runs, word_tokens
    from scrubbers.speed.sentences import SentenceEntities
    from scrubbers.speed.splice import Member, Spliced, Splicer

_HOMES = {
    "Detector": "detector",
    "Masked": "masking",
    "Member": "splice",
    "NumberMatcher": "output_match",
    "RUN_DIGITS": "output_match",
    "SentenceEntities": "sentences",
    "Sightings": "caches",
    "SizedCache": "caches",
    "Spliced": "splice",
    "Splicer": "splice",
    "ValueMatcher": "output_match",
    "digit_runs": "output_match",
    "fill": "filling",
    "gate_recognizers": "gates",
    "mask": "masking",
    "word_tokens": "output_match",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'scrubbers.speed' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"scrubbers.speed.{home}"), name)
    globals()[name] = value
    return value
