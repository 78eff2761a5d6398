"""The numeric oracle of record (numeric graders): one JSON payload per case, never an LLM judge.

`numeric/<case_id>.oracle.json` tells the calculator of record what to compute (entity and the record
it resolves to, tenant, params) and the checker what to compare: each figure with its expected value,
unit, tolerance, oracle and source (the tool and JSON path it was read from, or `derived`), and how the
figure is found in the reply (a number equal to it, written with one of the unit's words, as
`expected_output` writes it).
"""

from __future__ import annotations

import re
from typing import Any

from promote.case.model import FigureSource
from promote.compile.artifacts import Artifact, CompileUnit, CompileWarning, TargetOutput, json_text
from promote.compile.policy import SuitePolicy

NAME = "numeric"
METRICS = frozenset({"oracle_comparison"})
UNIT_WORDS = {
    "h": ["h", "hr", "hrs", "hour", "hours"],
    "d": ["d", "day", "days"],
    "days": ["d", "day", "days"],
    "weeks": ["week", "weeks", "wk", "wks"],
    "%": ["%", "percent"],
    "usd": ["$", "USD", "dollar", "dollars"],
    "$": ["$", "USD", "dollar", "dollars"],
}
"""A figure's unit → the words a reply may write it with (the same pairs `promote validate` accepts)."""
FIND_IN_REPLY = (
    "each figure is a number in the reply equal to expected within tolerance, written with one of its "
    "unit_words or with no unit word; as_written is how expected_output writes it"
)
_NUMBER = re.compile(r"(?<![\w.,])\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*(%|[A-Za-z]+))?")


def compile_numeric(units: list[CompileUnit], policy: SuitePolicy) -> TargetOutput:
    """One oracle payload per case whose numeric concern routes to the oracle of record."""
    output = TargetOutput()
    graders = policy.graders_for(NAME)
    for unit in sorted(units, key=lambda unit: unit.case.id):
        case = unit.case
        figures = []
        for index, figure in enumerate(case.numeric):
            written = written_as(figure.value, figure.unit, case.expected_output or "")
            if written is None:
                output.warnings.append(CompileWarning(NAME, case.id, f"numeric[{index}]", (
                    f"figure {figure.name} is not written in expected_output: "
                    "the checker has no example of how the reply writes it"
                )))
            figures.append({
                "name": figure.name,
                "expected": figure.value,
                "unit": figure.unit,
                "tolerance": figure.tolerance,
                "oracle": figure.oracle,
                "source": _source(figure.source),
                "find_in_reply": {
                    "unit_words": unit_words(figure.unit),
                    "as_written": written,
                },
            })
        payload: dict[str, Any] = {
            "case": case.id,
            "revision": case.revision,
            "pack": policy.pack_of(NAME),
            "graders": [{"grader": name, "metric": grader.metric, "threshold": grader.threshold}
                        for _pack, name, grader in graders],
            "oracles": sorted({figure.oracle for figure in case.numeric}),
            "entity": unit.entities[0].as_json() if unit.entities else None,
            "tenant": case.tenant.model_dump(mode="json") if case.tenant else None,
            "params": dict(case.params),
            "input": case.input,
            "find_in_reply": FIND_IN_REPLY,
            "figures": figures,
        }
        path = f"numeric/{case.id}.oracle.json"
        output.artifacts.append(Artifact(NAME, path, json_text(payload), (case.id,)))
    return output


def _source(source: FigureSource | None) -> dict[str, str] | str | None:
    """Where the figure comes from, for the oracle's reviewer: the tool and the JSON path in its result,
    `derived` when only the reply holds it (the agent computed it), None when the case does not say."""
    if source is None:
        return None
    if source.derived:
        return "derived"
    found = {"tool": source.tool, "path": source.path}
    return {key: value for key, value in found.items() if value is not None} or None


def unit_words(unit: str | None) -> list[str]:
    """The words a reply may write `unit` with (the unit itself when it is not a known one)."""
    return list(UNIT_WORDS.get((unit or "").lower(), [unit] if unit else []))


def written_as(value: float | int, unit: str | None, text: str) -> str | None:
    """The first place `text` writes `value` (with its unit word where the prose has one), as written."""
    words = {word.lower() for word in unit_words(unit)}
    for match in _NUMBER.finditer(text):
        number = float(match.group(1).replace(",", "") + (match.group(2) or ""))
        if abs(number - float(value)) > 1e-9:
            continue
        word = match.group(3)
        dollar = match.group(0).startswith("$")
        if word and word.lower() in words or dollar and "$" in words:
            return match.group(0)
        if unit is None or not word or word.lower() not in _ALL_WORDS:
            return match.group(0)[: match.end(2 if match.group(2) else 1) - match.start()]
    return None


_ALL_WORDS = {word.lower() for words in UNIT_WORDS.values() for word in words}
