"""A given name and a surname typed in lower case with no cue go; code and tools in lower case stay."""

from __future__ import annotations

import pytest

from promote.scrubbing import engine
from scrubbers.recognizers.names import NameRecognizer

REMOVED = [
    ("ask elena vasquez about it", "ask <PERSON_1> about it"),
    ("gregory hallman's pto request", "<PERSON_1>'s pto request"),
    ("cc szabina gelencsér and ivan petrov", "cc <PERSON_1> and <PERSON_2>"),
    # "greg" is a common word, so the pair rule alone does not take it; NER reads it as a person and the
    # name lists agree, which is enough (issue 36: what the model finds is kept unless a reason says no)
    ("greg hallman", "<PERSON_1>"),
]
KEPT = [
    "push it to the git repo",
    ":param str name: the employee's name",
    "use django with redis and run spark jobs",
    "kubectl rollout status deployment/payments-api",
]


@pytest.mark.parametrize(("text", "expected"), REMOVED)
def test_an_uncued_lower_case_full_name_is_replaced(text: str, expected: str) -> None:
    assert engine().scrub_text(text, engine().new_context()) == expected


@pytest.mark.parametrize("text", KEPT)
def test_lower_case_words_that_are_no_full_name_stay(text: str) -> None:
    assert engine().scrub_text(text, engine().new_context()) == text


@pytest.mark.parametrize(("text", "name"), [
    ("(elena vasquez) asked for leave", "elena vasquez"),
    ("notes:\telena\tvasquez called", "elena\tvasquez"),
    ('re "gregory hallman" pto', "gregory hallman"),
    ("«szabina gelencsér» replied", "szabina gelencsér"),
])
def test_the_lower_case_pair_rule_reads_a_pair_after_a_bracket_a_quote_or_a_tab(text: str, name: str) -> None:
    # the rule first looks for a listed given name among the text's words (`_GIVEN_CANDIDATE`): these
    # pairs start after characters that word search must let through
    found = [text[start:end] for start, end, _ in NameRecognizer()._lower_pairs(text)]
    assert found == [name]
