"""NER reads a text with the values the other recognizers found already replaced by fixed stand-ins.

What changes from one trace to the next in an agent's texts is mostly the personal values themselves:
"Check my accruals. This is <a name>, employee <an id>, SSN <a number> if you need it." Run as written,
each of those sentences is new and goes through NER (the costliest step of a scrub); with the values
other recognizers found replaced by stand-ins ("John Smith", "X-00000", "000-00-0000") they are one
sentence, run once (`scrubbers.speed.sentences` keeps NER's entities by sentence).

A value is masked only when it is removed without NER: a detection of a recognizer other than NER that
passes its threshold and every allow rule on its own (`Analyzer._finish`). So masking never keeps
anything: what NER would have said about a masked value is said already. NER's entities are mapped back
onto the text: one lying inside a single stand-in is dropped (its value is found), one clear of every
stand-in is shifted to its place. One that reaches past a stand-in says something about the words next to
it that NER might not say next to the value itself (it reads "Escalated to John via Docker" as a name of
three words, and "Escalated to 안서현 via Docker" not): that text is read by NER as written, as it would
be without masking.

A stand-in keeps the value's shape where that is all NER reads (digits become 0, letters x or X: an
employee id `E-71824` reads `X-00000`); a name becomes a common name with as many words, an e-mail
address and a street address one fixed value each, so that the sentences around them repeat.
Measured on every labelled set (`benchmarks/README.md`, "Speed, fourteenth round").
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from itertools import count
from operator import itemgetter
from typing import NamedTuple

import regex

_NAME_WORDS = ("John", "Smith", "Miller")
"""The stand-in of a name's first, second and every further word: a name the model reads as one."""
_FIXED = {"EMAIL_ADDRESS": "name@example.com", "STREET_ADDRESS": "1 Main Street"}
_NON_SPACE = regex.compile(r"\S+")
_SHAPE = regex.compile(r"[\p{L}\p{N}]")
_masked_start = itemgetter(0)


def stand_in(value: str, entity: str) -> str:
    """The text NER reads in place of `value`, a detected `entity` (see the module)."""
    fixed = _FIXED.get(entity)
    if fixed is not None:
        return fixed
    if entity == "PERSON":
        word = count()
        return _NON_SPACE.sub(lambda _: _NAME_WORDS[min(next(word), len(_NAME_WORDS) - 1)], value)
    return _SHAPE.sub(_shape_of, value)


def _shape_of(match: regex.Match) -> str:
    character = match.group()
    if character.isdigit() or not character.isalpha():
        return "0"
    return "X" if character.isupper() else "x"


class Masked(NamedTuple):
    """A text with stand-ins in place of found values, and where each stand-in sits in both texts."""

    text: str
    """The text NER reads."""
    spans: list[tuple[int, int, int, int]]
    """(start, end) of each stand-in in `text`, then (start, end) of the value it replaces, in order."""

    def inside(self, start: int, end: int) -> bool:
        """Whether [start, end) of `text` lies inside one stand-in."""
        index = self._last_from(start)
        return index >= 0 and end <= self.spans[index][1]

    def original(self, start: int, end: int) -> tuple[int, int] | None:
        """[start, end) of `text` as a span of the text as written; None when it touches a stand-in."""
        index = self._last_from(start)
        if index >= 0 and self.spans[index][1] > start:
            return None  # starts inside a stand-in
        if index + 1 < len(self.spans) and self.spans[index + 1][0] < end:
            return None  # reaches into the next one
        shift = self.spans[index][3] - self.spans[index][1] if index >= 0 else 0
        return start + shift, end + shift

    def _last_from(self, position: int) -> int:
        """The last stand-in starting at or before `position` in `text` (-1: none does)."""
        return bisect_right(self.spans, position, key=_masked_start) - 1


def mask(text: str, found: Iterable[tuple[int, int, str]]) -> Masked:
    """`text` with a stand-in for each (start, end, entity) found; overlapping ones become one (the
    entity of the first)."""
    merged: list[list] = []
    for start, end, entity in sorted(found):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, entity])
    pieces, spans = [], []
    position = length = 0
    for start, end, entity in merged:
        pieces.append(text[position:start])
        length += start - position
        replacement = stand_in(text[start:end], entity)
        pieces.append(replacement)
        spans.append((length, length + len(replacement), start, end))
        length += len(replacement)
        position = end
    pieces.append(text[position:])
    return Masked("".join(pieces), spans)
