"""The output check's matchers: is a value a trace is known to hold anywhere in a text about to be written?

One alternation regex of every known value would answer that, but `re` compiles such a pattern in Python,
once per trace and per state of its context: on a batch scrub that compiling alone cost more than the
searching. These matchers give the same answers without compiling anything: a known value can only occur
where its first word is a word token of the text, so most texts are ruled out by one set intersection.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Letters and digits only: a known value glued into an identifier by "_", "-", "." or "+" is still the
# value (`lookup_gregory_hallman`, `laptop-gregory-hallman-01`, `2.13.0+gregory.hallman`; issue 40)
_WORD = re.compile(r"[^\W_]+")
_NOT_DIGIT = re.compile(r"\D")
_LONG_CHAINS: dict[int, re.Pattern] = {}
"""Compiled `_chains_of_at_least` patterns, by digit count."""


class ValueMatcher:
    """Finds, in case-folded text, any of the given case-folded values not glued to a letter or a digit.

    The same matches as `(?<![^\\W_])(?:v1|v2|…)(?![^\\W_])`: inside an identifier joined by `_`, `-`,
    `.`, `+` or `@` a value is found; inside a longer word (`greg` in `gregory`) it is not.
    """

    def __init__(self, forms: Iterable[str]):
        self._by_first_word: dict[str, list[str]] = {}
        self._wordless: list[str] = []
        for form in forms:
            first = _WORD.search(form)
            if first is None:
                self._wordless.append(form)
            else:
                self._by_first_word.setdefault(first.group(), []).append(form)
        self._first_words = frozenset(self._by_first_word)

    def search(self, text: str, words: frozenset[str] | None = None) -> bool:
        """True when one of the values occurs in `text` as a whole token (`words`: its word tokens,
        `word_tokens(text)`, when the caller keeps them for a text it checks again and again)."""
        # A value starting where it is not glued to a word character begins its text token with its own
        # first word, so only the values whose first word is one of the text's tokens can occur.
        if self._wordless and any(_occurs(text, form) for form in self._wordless):
            return True
        candidates = self._first_words.intersection(word_tokens(text) if words is None else words)
        # most texts share no word with any value: answered without building a generator
        return bool(candidates) and any(_occurs(text, form) for word in candidates
                                        for form in self._by_first_word[word])


def word_tokens(text: str) -> frozenset[str]:
    """The word tokens (`\\w+` runs) of a text, as `ValueMatcher.search` takes them."""
    return frozenset(_WORD.findall(text))


class NumberMatcher:
    """Finds the digits of any of the given numbers, whatever separates them (`[\\s.()/-]{0,2}` between
    neighbouring digits), not glued to another digit: the matches of
    `(?<!\\d)(?:d[\\s.()/-]{0,2}d…|…)(?!\\d)`."""

    def __init__(self, numbers: Iterable[str]):
        self._numbers = sorted(set(numbers), key=len)
        self._chains = _chains_of_at_least(len(self._numbers[0]) if self._numbers else 1)

    def search(self, text: str, runs: tuple[tuple[str, str], ...] | None = None) -> bool:
        """True when one of the numbers occurs in `text` (`runs`: its `digit_runs`, when the caller keeps
        them for a text it checks again and again; used only when every number is that long)."""
        if not self._numbers:
            return False
        shortest = len(self._numbers[0])
        if runs is None or shortest < RUN_DIGITS:
            runs = _runs(self._chains, text)
        for written, plain in runs:
            # every chain of `shortest` digits or more is one run of `digit_runs` (a run is a maximal
            # chain: at each digit one separator count at most leads on to a digit)
            if len(plain) < shortest or not any(number in plain for number in self._numbers):
                continue
            digits = [index for index, char in enumerate(written) if char.isdigit()]
            # a match may start (end) only at a digit with a separator, not a digit, before (after) it
            starts = {0} | {n for n in range(1, len(digits)) if digits[n] - digits[n - 1] > 1}
            ends = {len(digits)} | {n for n in starts if n}
            for number in self._numbers:
                position = plain.find(number)
                while position != -1:
                    if position in starts and position + len(number) in ends:
                        return True
                    position = plain.find(number, position + 1)
        return False


RUN_DIGITS = 7
"""The fewest digits of a run `digit_runs` gives: the output check's numbers all have as many or more."""


def digit_runs(text: str) -> tuple[tuple[str, str], ...]:
    """(as written, its digits) of each chain of at least `RUN_DIGITS` digits in `text`, in order (digits
    with at most two of `NumberMatcher`'s separators between neighbours)."""
    return _runs(_chains_of_at_least(RUN_DIGITS), text)


def _runs(chains: re.Pattern, text: str) -> tuple[tuple[str, str], ...]:
    return tuple((chain.group(), _NOT_DIGIT.sub("", chain.group())) for chain in chains.finditer(text))


def _chains_of_at_least(digits: int) -> re.Pattern:
    """Digit chains of at least `digits` digits: digits with at most two separators between neighbours
    (`512 44 7723`, `(555) 010-4477`). A shorter chain cannot hold a number that long, and the regex
    engine passes over it far faster than a loop over every chain would."""
    pattern = _LONG_CHAINS.get(digits)
    if pattern is None:
        pattern = _LONG_CHAINS[digits] = re.compile(rf"\d(?:[\s.()/-]{{0,2}}\d){{{max(digits, 1) - 1},}}")
    return pattern


def _occurs(text: str, form: str) -> bool:
    """Whether `form` occurs in `text` as a whole token."""
    position = text.find(form)
    while position != -1:
        end = position + len(form)
        before = text[position - 1] if position else ""
        after = text[end] if end < len(text) else ""
        if not before.isalnum() and not after.isalnum():
            return True
        position = text.find(form, position + 1)
    return False


