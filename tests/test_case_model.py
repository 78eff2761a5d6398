"""The typed parts of the case model (ArgRule, Budgets), validation on assignment, and validate_case."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from promote.case.model import ArgRule, Case, ExpectedToolCall
from promote.case.problems import Problem
from promote.case.rules import PLACEHOLDER_RE
from promote.case.store import load_case
from promote.case.validate import validate_case
from tests.conftest import GOLDEN_CASES

HERO = GOLDEN_CASES / "hr.policy_carryover_004.yaml"


@pytest.mark.parametrize(
    "text, rule",
    [
        ("exact", ArgRule(kind="exact")),
        ("ignore", ArgRule(kind="ignore")),
        ("regex:^CA|NY$", ArgRule(kind="regex", pattern="^CA|NY$")),
        ("tolerance:0.5", ArgRule(kind="tolerance", tolerance=0.5)),
        ("tolerance:2", ArgRule(kind="tolerance", tolerance=2)),
        (["CA", "NY"], ArgRule(kind="one_of", values=["CA", "NY"])),
        ("one_of:[CA, NY]", ArgRule(kind="one_of", values=["CA", "NY"])),
    ],
)
def test_match_rules_are_typed_and_written_back_in_their_file_form(text, rule: ArgRule) -> None:
    call = ExpectedToolCall(name="t", args={"a": "CA"}, match={"a": text})
    assert call.match["a"] == rule
    written = call.model_dump(mode="json")["match"]["a"]
    assert written == (["CA", "NY"] if rule.kind == "one_of" else text)
    assert ExpectedToolCall.model_validate(
        {"name": "t", "args": {"a": 1}, "match": {"a": written}}
    ) == call.model_copy(update={"args": {"a": 1}})


@pytest.mark.parametrize("text", ["regex:(", "tolerance:many", "fuzzy", "tolerance:-1"])
def test_a_bad_match_rule_is_a_schema_error_at_its_argument(text: str, tmp_path: Path) -> None:
    path = tmp_path / "hr.rule_001.yaml"
    path.write_text(
        "id: hr.rule_001\ntitle: t\ninput: i\nexpected_tools:\n  calls:\n    - name: t\n"
        f"      args: {{a: 1}}\n      match: {{a: '{text}'}}\n"
    )
    problems = validate_case(path, residual_scan=None)
    assert [(p.rule, p.field, p.line) for p in problems] == [("schema", "expected_tools.calls[0].match.a", 8)]


def test_the_typed_rules_reach_the_model_of_a_golden_case() -> None:
    call = load_case(HERO).case.expected_tools.calls[1]
    assert {name: rule.kind for name, rule in call.match.items()} == {
        "topic": "exact", "jurisdiction": "exact"
    }


def test_editing_models_validate_on_assignment() -> None:
    case = load_case(HERO).case
    with pytest.raises(ValidationError):
        case.revision = 0
    with pytest.raises(ValidationError):
        case.id = "helm"
    with pytest.raises(ValidationError):
        case.numeric[0].oracle = None
    assert case.revision == 7


def test_validate_case_takes_a_file_a_tree_or_a_model() -> None:
    loaded = load_case(HERO)
    loaded.case.must_cite.append("PTO-XX-0000 §9")
    on_model = validate_case(loaded.case, residual_scan=None)
    assert [(p.rule, p.field, p.file, p.line) for p in on_model] == [
        ("must-cite", "must_cite[1]", None, None)
    ]
    loaded.tree["must_cite"].append("PTO-XX-0000 §9")
    on_tree = validate_case(loaded.tree, path=HERO, residual_scan=None)
    assert [(p.rule, p.field, p.file, p.line) for p in on_tree] == [
        ("must-cite", "must_cite[1]", str(HERO), 54)
    ]
    assert validate_case(HERO, residual_scan=None) == []
    assert all(isinstance(p, Problem) for p in on_model + on_tree)


def test_a_file_that_is_not_a_case_is_one_bad_input_problem(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("- a\n")
    (problem,) = validate_case(path)
    assert (problem.rule, problem.file, problem.line, problem.severity) == (
        "bad-input", str(path), 1, "error"
    )


def test_placeholders_in_the_expected_output_are_a_note_on_drafts_an_error_on_valid_cases() -> None:
    case = load_case(HERO).case
    case.expected_output = case.expected_output.replace("Up to", "<PERSON_1>, up to")
    (problem,) = validate_case(case, residual_scan=None)
    assert (problem.rule, problem.field, problem.severity) == ("output-placeholder", "expected_output",
                                                               "error")
    case.status = "draft"
    (problem,) = validate_case(case, residual_scan=None)
    assert problem.severity == "note"
    case.expected_output = case.expected_output.replace("<PERSON_1>", "<BLOB>")  # any placeholder counts
    assert validate_case(case, residual_scan=None)[0].rule == "output-placeholder"


def test_the_case_rules_know_every_placeholder_the_scrubber_writes() -> None:
    from scrubbers.trace_state.context import PLACEHOLDER

    assert PLACEHOLDER_RE.pattern == PLACEHOLDER.pattern
    assert all(PLACEHOLDER_RE.fullmatch(text)
               for text in ("<PERSON_1>", "<EMAIL_ADDRESS_3fa2c1>", "<REDACTED>", "<BLOB>"))


def test_a_problem_says_where_and_loads_back_from_its_json() -> None:
    problem = Problem(rule="must-cite", field="must_cite[0]", message="m", file="a.yaml", line=3, column=5)
    assert problem.where == "a.yaml:3:5"
    assert Problem.model_validate(problem.model_dump(mode="json")) == problem
    assert Case.model_json_schema()["$defs"]["ExpectedToolCall"]["properties"]["match"]


def test_a_rule_prints_as_the_file_writes_it() -> None:
    call = ExpectedToolCall(name="t", args={"a": "CA"}, match={"a": ["CA", "NY"], "b": "regex:^x$"})
    assert (str(call.match["a"]), str(call.match["b"])) == ("one_of:[CA, NY]", "regex:^x$")
