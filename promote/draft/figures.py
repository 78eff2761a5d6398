"""Suggested numeric figures: every number with a unit in the reply, traced back to a tool result.

A figure that also occurs in a tool result gets `source: {tool, path}` (a JSONPath into that result),
so the SME can hand it to the oracle of record; one found only in the reply is `derived` (the agent
computed it, e.g. 22.5 = 62.5 - 40). Dates, citation section numbers and bare numbers are not figures.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from promote.case.model import FigureSource, NumericFigure
from promote.case.rules import UNASSIGNED_ORACLE, figure_in_text
from promote.draft.citations import CITATION_RE
from promote.trace_model import ToolCall

# Prose unit word → the case's unit (the spellings `promote.case.rules.figure_in_text` accepts).
UNITS = {
    "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
    "day": "days", "days": "days",
    "week": "weeks", "weeks": "weeks", "wk": "weeks", "wks": "weeks",
    "%": "%", "percent": "%",
    "usd": "USD", "dollar": "USD", "dollars": "USD",  # and a leading `$`
}
_UNIT_NAMES = {"h": "hours", "days": "days", "weeks": "weeks", "%": "percent", "USD": "amount"}
# Same number shape as the validate rule, plus: not right after `§` or `-` (section numbers, codes
# such as DD-2026-0629), and an optional `$` in front.
_FIGURE_RE = re.compile(
    r"(?P<dollar>\$)?(?<![\w.,§\-])(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?(?![\w]|\.\d)"
    r"(?P<unit>[\s-]*(?:%|[A-Za-z]+\b))?"
)
_MONTH_BEFORE = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+$", re.IGNORECASE
)
# Naming from the reply's words: skip these before the phrase, stop at these inside it.
_LEADING = {"of", "could", "would", "will", "may", "might", "can", "be", "is", "are", "was", "were",
            "been", "now", "currently", "still", "total"}
_BREAKING = {"on", "by", "for", "to", "from", "if", "and", "or", "so", "as", "than", "into", "with",
             "which", "that", "the", "a", "an", "per", "this", "next", "your", "my", "you", "i", "in"}
_KEY_UNIT_SUFFIXES = ("_hours", "_hrs", "_hr", "_h", "_days", "_usd", "_pct", "_percent", "_weeks")


class ReplyFigure(NamedTuple):
    """A number with a unit as the reply writes it."""

    value: float | int
    unit: str
    start: int
    end: int


class _Hit(NamedTuple):
    call_index: int
    path: str
    keys: tuple[str, ...]
    numeric_leaf: bool


def figures_in_text(text: str) -> list[ReplyFigure]:
    """Numbers with a unit, in reading order; dates, section numbers and bare numbers are skipped."""
    cited = [m.span() for m in CITATION_RE.finditer(text)]
    found = []
    for match in _FIGURE_RE.finditer(text):
        if match.group("dollar"):
            # "$2,431.18 net pay": the word after a dollar amount is not its unit.
            unit: str | None = "USD"
            end = match.end("frac") if match.group("frac") else match.end("int")
        else:
            unit = UNITS.get((match.group("unit") or "").strip(" -").lower())
            end = match.end()
        if unit is None or _MONTH_BEFORE.search(text[: match.start()]):
            continue
        if any(start <= match.start() < stop for start, stop in cited):
            continue
        digits = match.group("int").replace(",", "")
        value: float | int = float(digits + match.group("frac")) if match.group("frac") else int(digits)
        found.append(ReplyFigure(value, unit, match.start(), end))
    return found


def suggest_figures(reply: str, calls: list[ToolCall]) -> tuple[list[NumericFigure], list[str]]:
    """One figure per distinct (value, unit) of the reply, with its source; and review notes."""
    figures: list[ReplyFigure] = []
    for figure in figures_in_text(reply):
        if (figure.value, figure.unit) not in {(f.value, f.unit) for f in figures}:
            figures.append(figure)
    hits = {figure: list(_hits_in_results(figure, calls)) for figure in figures}
    supplies: dict[int, int] = {}
    for found in hits.values():
        for index in {hit.call_index for hit in found}:
            supplies[index] = supplies.get(index, 0) + 1
    suggested: list[NumericFigure] = []
    notes: list[str] = []
    for figure in figures:
        if not figure_in_text(figure.value, figure.unit, reply):
            notes.append(f"the reply's figure {figure.value} {figure.unit} would fail the figure-in-output "
                         "rule as written: not suggested, add it by hand if it matters")
            continue
        # A JSON number beats a number inside prose; then the tool that supplied most of the reply's
        # figures (the lookup the answer came from); then the latest call.
        best = max(
            hits[figure],
            key=lambda hit: (hit.numeric_leaf, supplies[hit.call_index], hit.call_index),
            default=None,
        )
        if best is None:
            source = FigureSource(derived=True)
            name = _name_from_reply(reply, figure)
        else:
            source = FigureSource(tool=calls[best.call_index].name, path=best.path)
            name = _name_from_keys(best.keys) if best.numeric_leaf else _name_from_reply(reply, figure)
        suggested.append(
            NumericFigure(
                name=_unique(_identifier(name, figure.unit), {f.name for f in suggested}),
                value=figure.value,
                unit=figure.unit,
                oracle=UNASSIGNED_ORACLE,
                tolerance=0,
                source=source,
            )
        )
    return suggested, notes


def _hits_in_results(figure: ReplyFigure, calls: list[ToolCall]) -> Iterator[_Hit]:
    for index, call in enumerate(calls):
        for path, keys, leaf in _leaves(call.result, "$", ()):
            if isinstance(leaf, bool):
                continue
            if isinstance(leaf, (int, float)) and abs(float(leaf) - float(figure.value)) < 1e-9:
                yield _Hit(index, path, keys, True)
            elif isinstance(leaf, str) and any(
                (f.value, f.unit) == (figure.value, figure.unit) for f in figures_in_text(leaf)
            ):
                yield _Hit(index, path, keys, False)


def _leaves(value: Any, path: str, keys: tuple[str, ...]) -> Iterator[tuple[str, tuple[str, ...], Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            step = f".{key}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(key)) else f"[{str(key)!r}]"
            yield from _leaves(item, path + step, (*keys, str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]", keys)
    else:
        yield path, keys, value


def _name_from_keys(keys: tuple[str, ...]) -> str:
    """`pto_balance_hours` → `pto_balance`; `balances.pto` → `pto_balance`."""
    leaf = _snake(keys[-1]) if keys else "figure"
    for suffix in _KEY_UNIT_SUFFIXES:
        if leaf.endswith(suffix) and len(leaf) > len(suffix):
            leaf = leaf[: -len(suffix)]
            break
    parent = _snake(keys[-2]) if len(keys) > 1 else ""
    if "_" not in leaf and parent.endswith("s") and not parent.endswith("ss"):
        leaf = f"{leaf}_{parent[:-1]}"
    return leaf or "figure"


def _name_from_reply(reply: str, figure: ReplyFigure) -> str:
    """The words after the figure ("22.5 hours could be at risk" → at_risk), else the words before."""
    after = re.split(r"[.,;:()!?\n]", reply[figure.end :], maxsplit=1)[0]
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", after)]
    while words and words[0] in _LEADING:
        words.pop(0)
    phrase = []
    for word in words:
        if word in _BREAKING or len(phrase) == 2:
            break
        phrase.append(word)
    if not phrase:
        before = re.split(r"[.,;:()!?\n]", reply[: figure.start])[-1]
        content = [w.lower() for w in re.findall(r"[A-Za-z]+", before)
                   if w.lower() not in _BREAKING | _LEADING]
        phrase = content[-2:]
    return _snake("_".join(phrase))


def _identifier(name: str, unit: str) -> str:
    """A two-part snake_case name: a one-word name is read as a person's by the PII gate's `name` key rule."""
    unit_name = _UNIT_NAMES.get(unit, "figure")
    if not name or name == unit_name:
        return f"{unit_name}_figure"
    return name if "_" in name else f"{name}_{unit_name}"


def _snake(text: str) -> str:
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _unique(name: str, taken: set[str]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}_{number}", number + 1
    return candidate
