"""Writing a placeholder over what was found in one leaf (the last step of `ScrubEngine`'s work on it).

Both functions leave the trace's context knowing each replaced value, so that later leaves, and the
output check, find it again in whatever form it comes back.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import regex

from scrubbers.analysis.analyzer import BLOB, Detection
from scrubbers.trace_state.context import PLACEHOLDER, ScrubContext
from scrubbers.structure.disguise import reading_of
from scrubbers.structure.plan import Leaf

KNOWN_SCORE = 0.88
"""The score of a match of a value the trace is known to hold: above NER (0.85), below strong patterns,
so that a typed match names the entity."""
_WORD = regex.compile(r"\w+")

Done = tuple["str | None", tuple[str, ...], int]
"""A leaf's result: its output (None: unchanged), the entity of each replacement, blobs redacted."""


def replace_whole(leaf: Leaf, ctx: ScrubContext) -> Done:
    """A value under a personal key: one placeholder for all of it."""
    if PLACEHOLDER.fullmatch(leaf.text.strip()):
        return None, (), 0
    entity = leaf.entity or ""
    token = ctx.placeholder(entity, leaf.text)
    ctx.remember(entity, leaf.text)
    return token, (entity,), 0


def replace_found(text: str, found: list[Detection], ctx: ScrubContext,
                  surfaces: dict[tuple[int, int], str] | None = None) -> tuple[str, tuple[str, ...], int]:
    """(output, entity of each replacement, blobs redacted): overlapping detections merge, the best
    names it.

    A replaced value is known by what it says (its disguises taken off, or what its base64 decodes
    to, from `surfaces`), so a disguised copy gets the placeholder of the plain one."""
    if not found:
        return text, (), 0
    groups: list[list[Any]] = []  # [start, end, best detection]
    for d in sorted(found, key=lambda d: (d.start, -d.end)):
        if groups and d.start < groups[-1][1]:
            group = groups[-1]
            group[1] = max(group[1], d.end)
            if rank(d) > rank(group[2]):
                group[2] = d
        else:
            groups.append([d.start, d.end, d])
    pieces, position, entities, blobs = [], 0, [], 0
    for start, end, best in groups:
        if best.entity == BLOB:
            token = "<BLOB>"
            blobs += 1
        else:
            surface = (surfaces or {}).get((start, end)) or reading_of(text[start:end])
            token = ctx.placeholder(best.entity, surface)
            ctx.note_replaced(token, text[start:end])  # as written, beside what it says (`surface`)
            ctx.remember(best.entity, surface, detected=best.score != KNOWN_SCORE)
            entities.append(best.entity)
        pieces += [text[position:start], token]
        position = end
    pieces.append(text[position:])
    return "".join(pieces), tuple(entities), blobs


def rank(d: Detection) -> tuple[bool, float, int]:
    """Which of overlapping detections names the replacement: a blob, then the surest, then the longest."""
    return (d.entity == BLOB, d.score, d.end - d.start)


def folded_words(text: str) -> Iterator[str]:
    """The case-folded word tokens of a text."""
    return (word.casefold() for word in _WORD.findall(text))
