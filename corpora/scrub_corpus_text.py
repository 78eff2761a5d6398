"""Render labelled text and JSON with exact character offsets for every planted value.

A string leaf is built from segments (`Seg`): plain text, or a value labelled as PII or as a keep
item. Rendering writes the final string (free text, JSON text, or a Python repr as some tool results
are) and records where each labelled segment landed. Rendering checks itself against `json.dumps` /
`repr` of the same data, so the offsets are those of the string a real exporter would write.
"""

from __future__ import annotations

import json
import re
from typing import Literal, NamedTuple, Union

MarkKind = Literal["pii", "keep"]


class Seg(NamedTuple):
    """One piece of a string leaf; `label` and `kind` are None for unlabelled text."""

    text: str
    label: str | None = None
    kind: MarkKind | None = None


class Text(NamedTuple):
    """A string leaf made of segments (a JSON string value or a free-text string)."""

    segs: tuple[Seg, ...]


class Mark(NamedTuple):
    """Where a labelled segment landed in the rendered string."""

    start: int
    end: int
    label: str
    kind: MarkKind
    json_key: str | None
    """The object key whose value holds the segment, if any (list items inherit the key of their list)."""
    whole_value: bool
    """True when the segment is the entire string value under `json_key` (a keyed JSON field)."""


def pii(text: str, label: str) -> Seg:
    return Seg(text, label, "pii")


def keep(text: str, label: str) -> Seg:
    return Seg(text, label, "keep")


_SLOT = re.compile(r"\{(\w+)\}")


def fmt(template: str, slots: dict[str, Seg | str]) -> Text:
    """Fill `{slot}` placeholders; a `Seg` slot keeps its label, a `str` slot is plain text."""
    segs: list[Seg] = []
    pos = 0
    for m in _SLOT.finditer(template):
        if m.start() > pos:
            segs.append(Seg(template[pos:m.start()]))
        value = slots[m.group(1)]
        segs.append(value if isinstance(value, Seg) else Seg(value))
        pos = m.end()
    if pos < len(template):
        segs.append(Seg(template[pos:]))
    return Text(tuple(segs))


def join(*parts: Text, sep: str = " ") -> Text:
    """Concatenate texts with a plain separator."""
    segs: list[Seg] = []
    for i, part in enumerate(parts):
        if i and sep:
            segs.append(Seg(sep))
        segs.extend(part.segs)
    return Text(tuple(segs))


Leaf = Union[str, Seg, Text, int, float, bool, None]
Tree = Union[Leaf, list, dict]


class _Writer:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pos = 0
        self.marks: list[Mark] = []

    def write(self, s: str) -> None:
        self.parts.append(s)
        self.pos += len(s)

    def write_leaf(self, segs: tuple[Seg, ...], escape, json_key: str | None) -> None:
        whole = len(segs) == 1
        for seg in segs:
            escaped = escape(seg.text)
            if seg.label is not None:
                # Offsets must point at the value itself, so planted values never need escaping.
                assert escaped == seg.text, f"labelled value needs escaping: {seg.text!r}"
                self.marks.append(Mark(self.pos, self.pos + len(seg.text), seg.label, seg.kind,
                                       json_key, whole and json_key is not None))
            self.write(escaped)


def _segs(leaf: str | Seg | Text) -> tuple[Seg, ...]:
    if isinstance(leaf, Text):
        return leaf.segs
    if isinstance(leaf, Seg):
        return (leaf,)
    return (Seg(leaf),)


def plain(tree: Tree):
    """The tree with every leaf turned into its plain string (what the exporter serialised)."""
    if isinstance(tree, (Seg, Text)):
        return "".join(s.text for s in _segs(tree))
    if isinstance(tree, dict):
        return {k: plain(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [plain(v) for v in tree]
    return tree


def render_text(text: Text) -> tuple[str, list[Mark]]:
    w = _Writer()
    w.write_leaf(text.segs, lambda s: s, None)
    return "".join(w.parts), w.marks


def _json_escape(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)[1:-1]


def _repr_escape(s: str) -> str:
    assert not re.search(r"['\"\\\x00-\x1f]", s), f"repr leaf must not need escaping: {s!r}"
    return s


def render_json(
    tree: Tree, *, compact: bool = False, style: Literal["json", "repr"] = "json"
) -> tuple[str, list[Mark]]:
    """Serialise like `json.dumps(..., ensure_ascii=False)` (or `repr`) and return the labelled offsets."""
    item_sep, key_sep = (",", ":") if compact else (", ", ": ")
    quote, escape = ('"', _json_escape) if style == "json" else ("'", _repr_escape)
    w = _Writer()

    def emit(node: Tree, key: str | None) -> None:
        if isinstance(node, dict):
            w.write("{")
            for i, (k, v) in enumerate(node.items()):
                if i:
                    w.write(item_sep)
                w.write(quote + escape(k) + quote + key_sep)
                emit(v, k)
            w.write("}")
        elif isinstance(node, list):
            w.write("[")
            for i, v in enumerate(node):
                if i:
                    w.write(item_sep)
                emit(v, key)
            w.write("]")
        elif isinstance(node, (str, Seg, Text)):
            w.write(quote)
            w.write_leaf(_segs(node), escape, key)
            w.write(quote)
        elif style == "json":
            w.write(json.dumps(node))
        else:
            w.write(repr(node))

    emit(tree, None)
    out = "".join(w.parts)
    expected = (json.dumps(plain(tree), ensure_ascii=False, separators=(item_sep, key_sep))
                if style == "json" else repr(plain(tree)))
    assert out == expected, "renderer drifted from the serialiser it imitates"
    return out, w.marks
