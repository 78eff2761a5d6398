"""The pull request's text: a title and a Markdown review checklist for each case.

Everything here is built from the case as committed (which passed the residual-PII gate) and from
counts: scrub results are counted by entity type, never shown. Text from the case is escaped so that
Markdown cannot swallow it (`<PERSON_1>` would otherwise vanish as an unknown HTML tag).
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple, Sequence

from promote.case.model import Case, ExpectedToolCall, SafetyRule

_CHECKS = (
    "The input is a real question this agent must handle, and nothing in it identifies anyone",
    "The expected output is what a correct agent should answer, word for word where it matters",
    "Each figure's oracle is the calculator of record for it",
    "The expected tools and their argument rules are the trajectory a correct agent takes",
)


class CaseForReview(NamedTuple):
    """One case as the PR presents it."""

    case: Case
    path: str
    """Where it is committed, relative to the repository root."""
    edit_of: int | None
    """The revision it replaces, when it is an edit of a case already in the repo."""
    notes: list[str]
    """What the SME must still confirm (the case's draft notes, then its review notes)."""


def pr_title(cases: Sequence[CaseForReview]) -> str:
    """`Add golden case <id>: <title>`, `Update ... (revision N)`, or a count for several cases."""
    if len(cases) == 1:
        case = cases[0].case
        verb = f"Update {case.tier} case {case.id} to revision {case.revision}" if cases[0].edit_of else (
            f"Add {case.tier} case {case.id}")
        return _one_line(f"{verb}: {case.title}")
    return _one_line(f"Add {len(cases)} cases: " + ", ".join(item.case.id for item in cases))


def pr_body(cases: Sequence[CaseForReview], *, extra_todos: Iterable[str] = ()) -> str:
    """The Markdown review checklist for every case, then what is left to do for the whole PR."""
    parts = [_case_section(item, heading=len(cases) > 1) for item in cases]
    todos = list(extra_todos)
    if todos:
        parts.append("### Before merging\n\n" + "\n".join(f"- [ ] {_text(todo)}" for todo in todos))
    parts.append("_Opened by `promote pr`. Scrub counts are by entity type; no value is shown._")
    return "\n\n".join(parts) + "\n"


def _case_section(item: CaseForReview, *, heading: bool) -> str:
    case = item.case
    lines = [f"## {_code(case.id)}: {_text(case.title)}" if heading else f"**{_text(case.title)}**", ""]
    lines.append(_summary(item))
    sections = [
        ("What the case asserts", _asserts(case)),
        ("Tool trajectory", _trajectory(case)),
        ("Figures and their oracles", _figures(case)),
        ("Citations", _citations(case)),
        ("Scrubbed", _scrub_counts(case)),
        ("For the SME to confirm", _confirm(item)),
    ]
    level = "####" if heading else "###"
    for name, body in sections:
        if body:
            lines += ["", f"{level} {name}", "", *body]
    return "\n".join(lines)


def _summary(item: CaseForReview) -> str:
    case = item.case
    kinds = ", ".join(case.kind) or "-"
    facts = [_code(item.path), f"revision {case.revision}", case.status, f"kind: {kinds}"]
    if item.edit_of is not None:
        facts.append(f"replaces revision {item.edit_of}")
    text = " · ".join(facts)
    provenance = case.provenance
    if provenance and provenance.trace:
        trace = provenance.trace
        text += f"\n\nPromoted from trace {_code(trace.trace_id)} turn {trace.turn}"
        if trace.service:
            text += f" of {_code(trace.service)}"
        if provenance.promoted_by:
            text += f" by {_text(provenance.promoted_by)}"
        text += "."
    elif provenance and provenance.promoted_by:
        text += f"\n\nAuthored by {_text(provenance.promoted_by)}."
    return text


def _asserts(case: Case) -> list[str]:
    lines = ["Given the input:", "", _quote(case.input)]
    if case.entities:
        handles = ", ".join(_code(entity.handle) for entity in case.entities)
        lines += ["", f"for {handles}" + (f" on tenant {_code(case.tenant.id)}" if case.tenant else "")]
    if case.expected_output:
        lines += ["", "the agent answers:", "", _quote(case.expected_output)]
    if case.safety and (case.safety.must_not or case.safety.must):
        lines += ["", "and its reply:", ""]
        lines += [f"- never: {_rule(rule)}" for rule in case.safety.must_not]
        lines += [f"- always: {_rule(rule)}" for rule in case.safety.must]
    return lines


def _rule(rule: SafetyRule) -> str:
    return _text(rule.category) + (f" ({_text(rule.scope)})" if rule.scope else "")


def _trajectory(case: Case) -> list[str]:
    if not case.expected_tools or not case.expected_tools.calls:
        return []
    lines = [f"Order: {_code(case.expected_tools.order)}", ""]
    lines += [f"{index}. {_call(call)}" for index, call in enumerate(case.expected_tools.calls, start=1)]
    return lines


def _call(call: ExpectedToolCall) -> str:
    text = _code(call.name)
    if call.args:
        pairs = (f"{_code(name)} = {_code(_scalar(value))}" for name, value in call.args.items())
        text += " with " + ", ".join(pairs)
    if call.match:
        rules = (f"{_code(name)}: {_code(_scalar(rule))}" for name, rule in call.match.items())
        text += "; match " + ", ".join(rules)
    return text


def _figures(case: Case) -> list[str]:
    if not case.numeric:
        return []
    lines = ["| figure | value | unit | tolerance | oracle | found in |", "|---|---|---|---|---|---|"]
    for figure in case.numeric:
        oracle = _cell(figure.oracle)
        if figure.oracle == "unassigned":
            oracle = "**unassigned**"
        lines.append(f"| {_cell(figure.name)} | {figure.value:g} | {_cell(figure.unit or '')} | "
                     f"{figure.tolerance:g} | {oracle} | {_cell(_source(figure.source))} |")
    return lines


def _source(source: Any) -> str:
    if source is None:
        return ""
    if source.derived:
        return "reply only (derived)"
    return " ".join(part for part in (source.tool, source.path) if part)


def _citations(case: Case) -> list[str]:
    known = {chunk.citation for chunk in case.retrieval_context}
    lines = [f"- [ ] {_code(citation)} must be cited" + ("" if citation in known else " (no retrieval chunk)")
             for citation in case.must_cite]
    lines += [f"- {_code(chunk.citation)} in the golden context" for chunk in case.retrieval_context
              if chunk.citation not in case.must_cite]
    return lines


def _scrub_counts(case: Case) -> list[str]:
    scrubbed = case.provenance.scrubbed if case.provenance else None
    if scrubbed is None:
        return []
    lines = [f"{_text(scrubbed.engine)} {_text(scrubbed.version)}, policy {_code(scrubbed.policy)}", ""]
    if not scrubbed.replaced:
        return [*lines, "Nothing was replaced."]
    lines += ["| entity type | replaced |", "|---|---|"]
    lines += [f"| {_cell(kind)} | {count} |" for kind, count in sorted(scrubbed.replaced.items())]
    return lines


def _confirm(item: CaseForReview) -> list[str]:
    return [f"- [ ] {_text(note)}" for note in item.notes] + [f"- [ ] {check}" for check in _CHECKS]


# Escaping ------------------------------------------------------------------------------------------

def _text(value: object) -> str:
    """Inline prose: HTML-significant characters escaped, kept on one line."""
    text = " ".join(str(value).split())
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _quote(value: str) -> str:
    return "\n".join("> " + _text(line) if line.strip() else ">" for line in value.splitlines() or [""])


def _code(value: object) -> str:
    """Inline code: fenced with more backticks than the value holds."""
    text = " ".join(str(value).split())
    fence = "`" * (max((len(run) for run in _backtick_runs(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _backtick_runs(text: str) -> list[str]:
    runs, current = [], ""
    for char in text:
        if char == "`":
            current += char
        elif current:
            runs.append(current)
            current = ""
    return runs + ([current] if current else [])


def _cell(value: object) -> str:
    return _text(value).replace("|", "\\|")


def _scalar(value: object) -> str:
    if isinstance(value, list):
        return "one of " + ", ".join(str(item) for item in value)
    return str(value)


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 120 else text[:117].rstrip() + "..."
