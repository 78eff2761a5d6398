"""The rules of portable-v1 beyond the schema (docs/case-format.md, "Rules").

Pure functions over a validated `Case`; each problem is (field location, rule, message, severity);
`promote.case.validate` turns them into located `Problem`s.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Literal

from promote.case.model import Case

Severity = Literal["error", "note"]
RuleProblem = tuple[tuple[Any, ...], str, str, Severity]

# The placeholders the scrubber writes: the same pattern as `scrubbers.trace_state.context.PLACEHOLDER`
# (a test keeps the two equal; importing it from there would load Presidio).
PLACEHOLDER_RE = re.compile(r"<[A-Z]{2}[A-Z_]*?_(?:\d{1,5}|[0-9a-f]{6})>|<REDACTED>|<BLOB>")
UNASSIGNED_ORACLE = "unassigned"
UNRESOLVED_PREFIX = "unresolved."

# A number as prose writes it: 40, 62.5, 2,431.18, $2,431.18 (sign and currency handled apart).
_NUMBER_RE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w]|\.\d)")
_UNIT_WORDS = {
    "h": {"h", "hr", "hrs", "hour", "hours"},
    "d": {"d", "day", "days"},
    "days": {"d", "day", "days"},
    "weeks": {"week", "weeks", "wk", "wks"},
    "%": {"%", "percent"},
    "usd": {"$", "usd", "dollars", "dollar"},
    "$": {"$", "usd", "dollars", "dollar"},
}
_KNOWN_UNIT_WORDS = set().union(*_UNIT_WORDS.values())


def case_rule_problems(case: Case, file_stem: str | None = None) -> list[RuleProblem]:
    """Every rule violation of a schema-valid case; drafts get notes where valid cases get errors."""
    problems = list(_id_rules(case, file_stem))
    problems += _figure_rules(case)
    problems += _citation_rules(case)
    problems += _kind_rules(case)
    problems += _match_rules(case)
    problems += _draft_todos(case)
    return problems


def _id_rules(case: Case, file_stem: str | None) -> Iterator[RuleProblem]:
    if file_stem is not None and case.id != file_stem:
        yield (
            ("id",), "id", "the id does not match the file name: rename one of them", "error"
        )


def _figure_rules(case: Case) -> Iterator[RuleProblem]:
    output = case.expected_output or ""
    for index, figure in enumerate(case.numeric):
        if not figure_in_text(figure.value, figure.unit, output):
            yield (
                ("numeric", index, "value"),
                "figure-in-output",
                "this figure's value (with its unit) does not appear in expected_output as written",
                "error",
            )


def figure_in_text(value: float, unit: str | None, text: str, tolerance: float = 0) -> bool:
    """True when `value` (give or take `tolerance`) is written in `text`, with a compatible unit where
    the prose names one."""
    for match in _NUMBER_RE.finditer(text):
        number = float(match.group(1).replace(",", "") + (match.group(2) or ""))
        if abs(number - float(value)) > abs(float(tolerance)) + 1e-9:
            continue
        if unit is None:
            return True
        prose_unit = _unit_near(text, match.start(), match.end())
        if prose_unit is None or prose_unit in _UNIT_WORDS.get(unit.lower(), {unit.lower()}):
            return True
    return False


def _unit_near(text: str, start: int, end: int) -> str | None:
    if start > 0 and text[start - 1] == "$":
        return "$"
    after = re.match(r"\s*(%|[A-Za-z]+)", text[end:])
    if after and after.group(1).lower() in _KNOWN_UNIT_WORDS:
        return after.group(1).lower()
    return None


def _citation_rules(case: Case) -> Iterator[RuleProblem]:
    citations = {chunk.citation for chunk in case.retrieval_context}
    for index, citation in enumerate(case.must_cite):
        if citation not in citations:
            yield (
                ("must_cite", index),
                "must-cite",
                "not the citation of any retrieval_context chunk: add the chunk",
                "error",
            )


def _kind_rules(case: Case) -> Iterator[RuleProblem]:
    needs = {
        "retrieval": (bool(case.retrieval_context), "retrieval_context"),
        "numeric": (bool(case.numeric), "numeric"),
        "safety": (case.safety is not None and bool(case.safety.must_not or case.safety.must), "safety"),
        "functional": (
            bool(case.expected_tools and case.expected_tools.calls) or bool(case.expected_output),
            "expected_tools or expected_output",
        ),
    }
    for index, kind in enumerate(case.kind):
        present, field = needs[kind]
        if not present:
            yield ("kind", index), "kind-data", f"kind {kind} needs {field}", "error"


def _match_rules(case: Case) -> Iterator[RuleProblem]:
    # The rules themselves are typed (`ArgRule`); what is left is that each names an argument.
    if case.expected_tools is None:
        return
    for call_index, call in enumerate(case.expected_tools.calls):
        for argument, rule in (call.match or {}).items():
            where = ("expected_tools", "calls", call_index, "match", argument)
            if argument not in (call.args or {}) and rule.kind != "ignore":
                yield (
                    where,
                    "match-args",
                    "this rule names an argument that is not in args: add it or use ignore",
                    "error",
                )


def _draft_todos(case: Case) -> Iterator[RuleProblem]:
    """What a reviewer must still fill in: a note on a draft, an error once the case is valid."""
    severity: Severity = "note" if case.status == "draft" else "error"
    for index, entity in enumerate(case.entities):
        if entity.handle.startswith(UNRESOLVED_PREFIX) or entity.resolves_to is None:
            yield ("entities", index, "handle"), "draft-todo", (
                "this entity is not mapped to an overlay handle and sandbox record"
            ), severity
    for index, figure in enumerate(case.numeric):
        if figure.oracle == UNASSIGNED_ORACLE:
            yield ("numeric", index, "oracle"), "draft-todo", (
                "this figure has no oracle of record yet"
            ), severity
    if case.expected_tools is not None:
        for index, call in enumerate(case.expected_tools.calls):
            for argument, value in (call.args or {}).items():
                if PLACEHOLDER_RE.search(str(value)):
                    yield ("expected_tools", "calls", index, "args", argument), "draft-todo", (
                        "this argument holds a scrub placeholder: "
                        "replace it with a sandbox value or match it with ignore/regex"
                    ), severity
    if case.expected_output and PLACEHOLDER_RE.search(case.expected_output):
        # The golden answer is what the agent should say to the sandbox entity: it names that entity or
        # nobody, never a scrubbed production person.
        yield ("expected_output",), "output-placeholder", (
            "expected_output holds a scrub placeholder: name the sandbox entity or nobody"
        ), severity
