"""Putting a plan's outputs back into its template (`scrubbers.structure.plan`): only what changed is rebuilt.

A JSON string none of whose leaves changed comes back as it was, byte for byte, without being
re-encoded; a changed member of a spliced string is encoded once per set of outputs (`filled`).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import accumulate
from typing import Any, NamedTuple

from scrubbers.structure.plan import CONST, Hole, Leaf, Nested, Sub
from scrubbers.speed.splice import Member, Spliced


def fill(template: Any, leaves: list[Leaf], outputs: list[Any], on_error: Any, visited: Iterable[int],
         filled: dict[Any, str]) -> Any:
    """The template with every hole replaced by its output; `on_error()` answers a failed re-encode.

    `visited` lists the only leaves whose output may differ from their text. Only the parts
    with a changed leaf are rebuilt; the rest is the decoded original, shared. `filled` keeps the text of
    changed members of spliced strings by their leaves' outputs: the history message that names the
    user is rebuilt once per trace, not once per model call.
    """
    flags = bytearray(len(leaves))
    for index in visited:
        if outputs[index] is not leaves[index].text or leaves[index].kind == CONST:
            flags[index] = 1
    changed = [0, *accumulate(flags)]  # changed[i]: how many of the first i leaves changed
    return _fill(template, _Filling(outputs, changed, on_error, filled), 0)


class _Filling(NamedTuple):
    outputs: list[Any]
    changed: list[int]
    on_error: Any
    filled: dict[Any, str]


def _fill(template: Any, run: _Filling, base: int) -> Any:
    # `base`: where the leaves of the plan `template` belongs to start (a shared member plan counts its
    # leaves from 0).
    kind = type(template)
    if kind is Hole:
        return run.outputs[base + template.index]
    if kind is Sub:
        if run.changed[base + template.end] == run.changed[base + template.start]:
            return template.original
        node = template.node
        if type(node) is dict:
            keys = template.keys
            if keys is None:
                return {k: _fill(v, run, base) for k, v in node.items()}
            return {(_fill(keys[k], run, base) if k in keys else k): _fill(v, run, base)
                    for k, v in node.items()}
        walked = [_fill(v, run, base) for v in node]
        return walked if type(template.original) is list else type(template.original)(walked)
    if kind is Nested:
        if run.changed[base + template.end] == run.changed[base + template.start] and not template.rewrite:
            return template.original
        try:
            return template.encode(_fill(template.template, run, base))
        except (ValueError, TypeError, RecursionError):
            return run.on_error()
    if kind is Spliced:
        if run.changed[base + template.end] == run.changed[base + template.start]:
            return template.original
        try:
            # the text between members is most pieces: taken as it is, without a call
            return "".join([piece if type(piece) is str else _fill_piece(piece, run, base)
                            for piece in template.pieces])
        except (ValueError, TypeError, RecursionError):
            if template.whole:
                return run.on_error()
            raise
    return template


def _fill_piece(piece: Any, run: _Filling, base: int) -> str:
    if type(piece) is Member:
        start = base + piece.offset
        end = start + len(piece.plan.leaves)
        if run.changed[end] == run.changed[start]:
            return piece.text
        key = (piece.plan, tuple(run.outputs[start:end]))
        text = run.filled.get(key)
        if text is None:
            text = run.filled[key] = piece.encode(_fill(piece.plan.template, run, start))
        return text
    return _fill(piece, run, base)
