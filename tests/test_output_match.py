"""The output check's matchers answer exactly as the alternation regexes they replace would."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from scrubbers.speed.output_match import NumberMatcher, ValueMatcher, digit_runs

_PIECES = ["greg", "hallman", "greg.hallman@acme.io", "512", "44", "7723", "ann", "x", "é", "ß", "_", "@",
           ".", "+", "-", " ", "\n", "(", ")", "/", "1", "0"]


def _values_regex(forms: list[str]) -> re.Pattern:
    return re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, sorted(forms, key=len, reverse=True)))
                      + r")(?![^\W_])")


def _numbers_regex(numbers: list[str]) -> re.Pattern:
    separated = [r"[\s.()/-]{0,2}".join(number) for number in sorted(numbers, key=len, reverse=True)]
    return re.compile(r"(?<!\d)(?:" + "|".join(separated) + r")(?!\d)")


def test_value_matcher_whole_tokens_only() -> None:
    matcher = ValueMatcher(["greg hallman", "greg.hallman@acme.io", "+1 555 0100"])
    assert matcher.search("mail greg.hallman@acme.io today")
    assert matcher.search("call +1 555 0100.")
    assert matcher.search("(greg hallman)")
    assert matcher.search("x.greg hallman")  # joined into an identifier: still the value (issue 40)
    assert not matcher.search("xgreg hallman")  # inside a longer word
    assert not matcher.search("greg hallmann")  # glued after
    assert not matcher.search("greg  hallman")  # another spelling is the scrubber's job, not this check's


def test_number_matcher_any_separators_never_inside_a_longer_number() -> None:
    matcher = NumberMatcher(["512447723"])
    assert matcher.search("ssn 512 44 7723 on file")
    assert matcher.search("5124477 23")
    assert matcher.search("(512) 44-7723")
    assert not matcher.search("9512447723")
    assert not matcher.search("512   447723")  # three separators break the chain


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join),
       st.lists(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=4).map("".join), min_size=1,
                max_size=4))
def test_value_matcher_agrees_with_the_regex(text: str, forms: list[str]) -> None:
    forms = [form for form in forms if form]
    if forms:
        assert ValueMatcher(forms).search(text) == (_values_regex(forms).search(text) is not None)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["1", "2", "3", " ", "-", ".", "(", ")", "/", "  ", "a", "\n"]), max_size=24)
       .map("".join),
       st.lists(st.text(alphabet="123", min_size=1, max_size=6), min_size=1, max_size=3))
def test_number_matcher_agrees_with_the_regex(text: str, numbers: list[str]) -> None:
    assert NumberMatcher(numbers).search(text) == (_numbers_regex(numbers).search(text) is not None)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(["1", "2", "3", "4", " ", "-", ".", "(", ")", "/", "  ", "a", "\n", "5678"]),
                max_size=30).map("".join),
       st.lists(st.text(alphabet="1234", min_size=7, max_size=10), min_size=1, max_size=3))
def test_number_matcher_on_kept_digit_runs_answers_as_on_the_text(text: str, numbers: list[str]) -> None:
    # the output check reads a text's digit runs once and checks every trace's numbers against them
    matcher = NumberMatcher(numbers)
    assert matcher.search(text, digit_runs(text)) == matcher.search(text) == (
        _numbers_regex(numbers).search(text) is not None)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(alphabet="12a -", max_size=8), st.text(alphabet="1234", min_size=7, max_size=10),
       st.lists(st.sampled_from(["", "", " ", "-", "  ", ".", "(", "   "]), min_size=10, max_size=10),
       st.text(alphabet="12a -", max_size=8))
def test_number_matcher_on_kept_digit_runs_finds_a_written_number(before: str, number: str, gaps: list[str],
                                                                   after: str) -> None:
    written = "".join(digit + gap for digit, gap in zip(number, gaps))[: -len(gaps[len(number) - 1]) or None]
    text = before + written + after
    matcher = NumberMatcher([number])
    expected = _numbers_regex([number]).search(text) is not None
    assert matcher.search(text, digit_runs(text)) == matcher.search(text) == expected
