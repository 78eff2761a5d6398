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

from typing import TYPE_CHECKING

from scrubbers._lazy import lazy_names

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
    "Detector": "scrubbers.speed.detector",
    "Masked": "scrubbers.speed.masking",
    "Member": "scrubbers.speed.splice",
    "NumberMatcher": "scrubbers.speed.output_match",
    "RUN_DIGITS": "scrubbers.speed.output_match",
    "SentenceEntities": "scrubbers.speed.sentences",
    "Sightings": "scrubbers.speed.caches",
    "SizedCache": "scrubbers.speed.caches",
    "Spliced": "scrubbers.speed.splice",
    "Splicer": "scrubbers.speed.splice",
    "ValueMatcher": "scrubbers.speed.output_match",
    "digit_runs": "scrubbers.speed.output_match",
    "fill": "scrubbers.speed.filling",
    "gate_recognizers": "scrubbers.speed.gates",
    "mask": "scrubbers.speed.masking",
    "word_tokens": "scrubbers.speed.output_match",
}

__all__ = sorted(_HOMES)

__getattr__ = lazy_names(__name__, _HOMES, globals())
