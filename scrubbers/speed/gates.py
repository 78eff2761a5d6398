"""Cheap tests that rule a recognizer out for a text before Presidio runs it.

Presidio runs every recognizer on every text, and a pattern recognizer pays for each of its patterns
(timing, logging, explanation objects) even where none can match: on a batch scrub that bookkeeping cost
more than the matching. A gate answers "can this recognizer find anything here?" with one search; only
a "no" that is certain skips it, so results are the same as without gates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import regex
from presidio_analyzer import EntityRecognizer, PatternRecognizer
from phonenumbers import PhoneMetadata
from phonenumbers.phonenumberutil import _VALID_PUNCTUATION, SUPPORTED_REGIONS
from presidio_analyzer.predefined_recognizers import EmailRecognizer, IpRecognizer, PhoneRecognizer


# Patterns that cannot be joined into one alternation without changing what they match: inline flags
# (which would apply to every alternative), backreferences by number (renumbered by joining) or by name.
_UNJOINABLE = regex.compile(r"\(\?[a-zA-Z]+\)|\(\?[a-zA-Z]*-[a-zA-Z]+|\\[1-9]|\(\?P=|\\g<")


# What every pattern of a recognizer needs, checked before its patterns: a search for one character or
# pair is far cheaper than the IPv6 patterns, which start a match at every letter a-f.
_NEEDS: dict[type, regex.Pattern] = {
    # a dotted quad (every IPv4 form, mapped and embedded ones too: octets of 1-3 digits), IPv6 groups or "::"
    IpRecognizer: regex.compile(r"\d\.\d{1,3}\.\d{1,3}\.\d|[0-9A-Fa-f]:[0-9A-Fa-f]|::"),
    EmailRecognizer: regex.compile("@"),
}


def gate_recognizers(recognizers: Iterable[EntityRecognizer]) -> None:
    """Give each recognizer a gate where one is known for its kind (pattern recognizers, phones)."""
    for recognizer in recognizers:
        if isinstance(recognizer, PhoneRecognizer):
            # libphonenumber's matcher is slow Python, and most texts hold some digits: its gate is
            # far cheaper than it, so it never opens
            chain = phone_chain(phone_min_digits(recognizer.supported_regions))
            _gate(recognizer, lambda text: chain.search(text) is not None, opens=False)
        elif type(recognizer).analyze is PatternRecognizer.analyze and recognizer.patterns:
            # only where `analyze` is Presidio's own: a subclass that overrides it may find more
            gate = _pattern_gate(recognizer)
            needs = _NEEDS.get(type(recognizer))
            if gate is not None:
                _gate(recognizer, gate if needs is None else _both(needs, gate))


INTERNATIONAL_PHONE_MIN_DIGITS = 6
"""The fewest digits of a valid phone number written with its country code: a 4-digit Austrian or
German number and its 2-digit code (libphonenumber's metadata; `international_phone_min_digits` works it
out from all regions, which loads every region's metadata, so a test checks this figure instead)."""


def phone_min_digits(regions: Iterable[str]) -> int:
    """The fewest digits a valid phone number can have: written with its country code (any region), or
    in the national format of one of `regions`."""
    national = [length for region in regions if (length := _shortest(region)) is not None]
    return min([INTERNATIONAL_PHONE_MIN_DIGITS, *national])


def international_phone_min_digits() -> int:
    """`INTERNATIONAL_PHONE_MIN_DIGITS` as the metadata of every region has it."""
    return min(length + len(str(PhoneMetadata.metadata_for_region(region).country_code))
               for region in SUPPORTED_REGIONS if (length := _shortest(region)) is not None)


def phone_chain(digits: int) -> regex.Pattern:
    """Where a phone number of at least `digits` digits could be written: that many digits with at most
    four of libphonenumber's punctuation characters between neighbours. Its matcher finds a number only
    inside such a chain (`_PATTERN` of `phonenumbers.phonenumbermatcher`: digit blocks joined by up to
    four `_VALID_PUNCTUATION` characters, matched ignoring case, so "x" and "X"), and the number's own
    digits, country code included, are all digits of the chain."""
    gap = f"[{_VALID_PUNCTUATION}]{{0,4}}"
    return regex.compile(rf"\d(?:{gap}\d){{{digits - 1}}}", regex.IGNORECASE)


def _shortest(region: str) -> int | None:
    """The shortest possible length of a national number of the region (libphonenumber's metadata)."""
    metadata = PhoneMetadata.metadata_for_region(region)
    if metadata is None:
        return None
    lengths = [length for description in (metadata.general_desc, metadata.fixed_line, metadata.mobile)
               if description is not None for length in description.possible_length or () if length > 0]
    return min(lengths) if lengths else None


def _pattern_gate(recognizer: PatternRecognizer) -> Callable[[str], bool] | None:
    """One search for all of the recognizer's patterns, with the flags Presidio compiles them with."""
    sources = [pattern.regex for pattern in recognizer.patterns]
    if len(sources) > 1 and any(_UNJOINABLE.search(source) for source in sources):
        return None  # (one pattern is never joined: read forward, its groups keep their numbers)
    forward = [lookbehind_ahead(source) for source in sources]
    # One pattern is compiled as Presidio compiles it (same source, same flags), so `regex`'s own cache
    # shares the work; only several, or one read forward, are compiled into a pattern of their own.
    if len(sources) == 1 and forward[0] is None:
        source = sources[0]
    else:
        source = "|".join(f"(?:{ahead or source})" for ahead, source in zip(forward, sources))
    try:
        joined = regex.compile(source, recognizer.global_regex_flags)
    except (regex.error, TypeError):
        return None
    return lambda text: joined.search(text) is not None


def lookbehind_ahead(source: str) -> str | None:
    """`(?<=X)Y` as `(?:X)Y`, for a pattern that starts with a lookbehind; else None.

    Both match somewhere in a text exactly when some X ends where a Y starts (the assertions inside X are
    read in the same text either way), so as a gate the second answers the same; but a search for the
    first tries the lookbehind backwards from every position of the text, which made the context rules
    ("born", "password", "bearer" before the value) the slowest gates of all."""
    if not source.startswith("(?<="):
        return None
    depth, at, in_class = 0, 0, False
    while at < len(source):
        char = source[at]
        if char == "\\":
            at += 2
            continue
        if in_class:
            if source.startswith("[:", at) and ":]" in source[at + 2:]:  # a POSIX class: [[:alpha:]]
                at = source.index(":]", at + 2) + 2
                continue
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if source.startswith(("[]", "[^]"), at):  # a "]" first in a class is a member, not its end
                at += 2 if source[at + 1] == "]" else 3
                continue
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return _checked_group(source[4:at], source[at + 1:])
        at += 1
    return None


def _checked_group(behind: str, rest: str) -> str | None:
    """`(?:behind)rest`, where `behind` compiles on its own: a lookbehind cut in the wrong place (a
    bracket this scanner misread) leaves an unbalanced part, and then no gate is built from it."""
    try:
        regex.compile(f"(?:{behind})")
    except regex.error:
        return None
    return f"(?:{behind}){rest}"


def _both(needs: regex.Pattern, gate: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda text: needs.search(text) is not None and gate(text)


def _gate(recognizer: Any, can_match: Callable[[str], bool], opens: bool = True) -> None:
    recognizer.analyze = _Gated(recognizer.analyze, can_match, opens)


class _Gated:
    """A recognizer's `analyze` behind its gate. A gate that lets most texts through only adds its own
    search to the recognizer's, so after `TRIAL` texts such a gate opens for good (same results), unless
    it was made not to (a gate far cheaper than its recognizer)."""

    TRIAL = 256

    def __init__(self, analyze: Callable[..., list], can_match: Callable[[str], bool], opens: bool = True):
        self.analyze = analyze
        """The recognizer's own `analyze`."""
        self.can_match = can_match
        """False only where the recognizer cannot find anything."""
        self.open = False
        """True once the gate has let most of its trial texts through."""
        self._tried = self._passed = 0
        self._trial = self.TRIAL if opens else float("inf")

    def __call__(self, text: str, entities: list[str], nlp_artifacts: Any = None,
                 regex_flags: int | None = None) -> list:
        if regex_flags is not None:  # other flags than the ones the gate was built with: no gate
            return self.analyze(text, entities, nlp_artifacts, regex_flags)
        if not self.open:
            self._tried += 1
            if not self.can_match(text):
                return []
            self._passed += 1
            self.open = self._tried >= self._trial and 2 * self._passed > self._tried
        return self.analyze(text, entities, nlp_artifacts)
