"""The one hook `scrubbers.analysis.analyzer` calls: which recognizers a policy gets, and the last pass over a
text's detections."""

from __future__ import annotations

import regex
from presidio_analyzer import EntityRecognizer

from scrubbers.policy import ScrubPolicy
from scrubbers.recognizers.addresses import InternationalAddressRecognizer
from scrubbers.recognizers.base import OneEntityRecognizer
from scrubbers.recognizers.east_asian_names import EastAsianNameRecognizer
from scrubbers.recognizers.handles import HandleRecognizer
from scrubbers.recognizers.logins import LoginRecognizer
from scrubbers.recognizers.lexicon import lexicon
from scrubbers.recognizers.lone_names import LoneNameRecognizer, reads_as_place
from scrubbers.recognizers.name_extent import widen_name
from scrubbers.recognizers.names import NameRecognizer
from scrubbers.recognizers.ner import FilteredSpacyRecognizer, heads_or_joins_a_title
from scrubbers.recognizers.numbers import InternationalValueRecognizer
from scrubbers.recognizers.paths import PathUserRecognizer
from scrubbers.recognizers.spelled_emails import SpelledEmailRecognizer

# A line break, also JSON-escaped inside text that did not decode ("jaeger-4.4.7\n  - app_version").
# "hasn't", "doesn’t": a word the negation is written onto is a verb, whatever the name lists hold ("Hasn")
_NEGATION_AFTER = regex.compile(r"['’]t\b")
_MONTHS = frozenset(
    "January February March April May June July August September October November December".split())
# words of time before a month ("for April", "from June", "since May"); not "to" or "by", which as often
# take a person ("talked to April", "approved by June")
_TIME_WORD_BEFORE = regex.compile(r"(?i:\b(?:in|on|for|from|since|until|till|through|thru|of|during|before|"
                                  r"after|next|last|this|early|late|mid|end|start)[ \t]+)$")
_YEAR_OR_DAY_AFTER = regex.compile(r"[ \t]+(?:\d{1,2}(?:st|nd|rd|th)?\b|\d{4}\b)")
_LINE_BREAK = regex.compile(r"\r?\n|\\r\\n|\\n|\u2028|\u2029")


def build_recognizers(policy: ScrubPolicy) -> list[EntityRecognizer]:
    """Our recognizers for the entities `policy` asks for (spaCy PERSON included, filtered)."""
    settings = policy.recognizers
    wanted = set(policy.entities)
    found: list[EntityRecognizer] = []
    not_names = [*settings.not_names, *policy.allow_terms]
    if "PERSON" in wanted:
        found.append(FilteredSpacyRecognizer(not_names, settings.strict_places, settings.ner_person_filter))
        if settings.name_gazetteer:
            roles = [*settings.person_roles, *settings.domain_person_roles]
            found.append(NameRecognizer(not_names, settings.strict_places, roles))
        if settings.lone_names:
            found.append(LoneNameRecognizer(not_names, settings.strict_places))
        if settings.east_asian_names:
            found.append(EastAsianNameRecognizer())
    if wanted & {"CREDIT_CARD", "IBAN_CODE", "PHONE_NUMBER"}:
        found.append(InternationalValueRecognizer(
            regions=settings.phone_regions, cards_after_cue=settings.card_after_cue_digits,
            luhn=settings.luhn_cards, iban=settings.iban_any_case, phones=settings.international_phones))
    if "STREET_ADDRESS" in wanted and settings.international_addresses:
        found.append(InternationalAddressRecognizer())
    if "EMAIL_ADDRESS" in wanted and settings.spelled_emails:
        found.append(SpelledEmailRecognizer())
    if "USER_NAME" in wanted and (settings.home_paths or settings.url_names):
        found.append(PathUserRecognizer(system_users=settings.system_users, home_paths=settings.home_paths,
                                        urls=settings.url_names))
    if "USER_NAME" in wanted and settings.handles:
        found.append(HandleRecognizer())
    if "USER_NAME" in wanted and settings.logins:
        found.append(LoginRecognizer())
    if "LOCATION" in wanted and settings.strict_places:
        found.append(PlaceRecognizer())
    return found


class Refiner:
    """The last pass over one text's detections (from every recognizer, key rule and pattern)."""

    def __init__(self, policy: ScrubPolicy) -> None:
        settings = policy.recognizers
        self.strict_places = settings.strict_places
        self.lexicon = lexicon()
        self.brands = frozenset(settings.brands)
        self.venue_words = frozenset(settings.venue_words)
        self.not_names = frozenset([*settings.not_names, *policy.allow_terms])

    def __call__(self, text: str, found: list) -> list:
        out = []
        for d in found:
            if d.entity == "PERSON":
                d = d._replace(start=_name_start_in_url(text, d.start, d.end))
            for s, e in split_at_line_breaks(text, d.start, d.end):
                if d.entity == "PERSON" and not self.strict_places and self._only_a_place(text, s, e):
                    continue
                if d.entity == "PERSON" and self._a_thing(text, s, e):
                    continue
                if d.entity == "PERSON" and _NEGATION_AFTER.match(text, e):
                    continue
                if d.entity == "PERSON":
                    s, e = widen_name(text, s, e, self.lexicon, self.not_names)
                    if text.endswith(("'s", "’s"), s, e) and e - s > 3:
                        e -= 2  # a possessive stays: "<PERSON_1>'s form", not "<PERSON_1> form"
                out.append(d._replace(start=s, end=e) if (s, e) != (d.start, d.end) else d)
        return out

    def led_by_a_given_name(self, surface: str) -> bool:
        """Does the span start with a given name that is no frequent English word ("Tim Cook", "Sarah
        Teller", "Chelsea Handler")? Then it is a person, even where a job title's pattern fits it
        ("Warehouse Associate", "Baggage Handler" start with words)."""
        words = _words(surface)
        if len(words) < 2:
            return False
        lex = self.lexicon
        first = words[0]
        return not lex.is_frequent_word(first) and (first in lex.first or first in lex.ambiguous)

    def _a_brand_or_venue(self, surface: str) -> bool:
        """"Grand Hyatt", "Mastercard Gold", "Google Meet", "Hilton Garden Inn", "The Plaza Hotel": a span
        with a venue word, or led by a brand, or made of brands and common words only. "Conrad Hilton"
        (a given name first, no venue word) stays a person."""
        words = _words(surface)
        if not words or not (self.brands or self.venue_words):
            return False
        if any(w in self.venue_words for w in words):
            return True
        if not any(w in self.brands for w in words):
            return False
        lex = self.lexicon
        if words[0] in self.brands:
            return True
        if words[0] in lex.first:
            return False
        return all(w in self.brands or (lex.is_word(w) and not lex.is_name(w)) for w in words)

    def _a_thing(self, text: str, start: int, end: int) -> bool:
        return (self._a_brand_or_venue(text[start:end]) or self._common_words(text, start, end)
                or _a_month(text, start, end))

    def _common_words(self, text: str, start: int, end: int) -> bool:
        """"Employee Handbook", "Service Desk", "- Vacation", "Sure, here": every word one a dictionary
        writes in lower case and no name list holds (the top names of 105 countries, with names that are
        also words: "Mark", "Rose"), two or more of them, or one heading a sentence, line or cell or in a
        Title Case run: a heading, a thing or a button, whatever cue stood before it. One such word inside
        a sentence stays a name ("whenever Trump says")."""
        words = _words(text[start:end])
        lex = self.lexicon
        if not words or not all(w.isalpha() and lex.is_dictionary_word(w) and not lex.is_any_name(w)
                                and not lex.is_any_name(w.capitalize()) for w in words):
            return False
        return len(words) > 1 or heads_or_joins_a_title(text, start, end)

    def _only_a_place(self, text: str, start: int, end: int) -> bool:
        """A place name NER or a cue pattern took for a person ("from San Francisco"); a place that is
        also a name stays a person unless a place word or a region stands by it."""
        surface = text[start:end]
        lex = self.lexicon
        surface = surface.strip(" .,")
        if surface in lex.countries:
            return True
        # a big city is a place; a place that is also a name ("Murphy", "Davis"), or a small town ("Obama"),
        # is a place only where one is named: "in Davis", "Davis, CA" (`reads_as_place` weighs both)
        return surface in lex.places and reads_as_place(text, start, end, lex)


def _words(surface: str) -> list[str]:
    """The words of a span, without the punctuation around them."""
    return [w for w in (w.strip(".,;:!?()\"'") for w in surface.split()) if w]


def _a_month(text: str, start: int, end: int) -> bool:
    """"results for April", "from June", "April 2026": a month where a word of time stands before it or a
    year or day after it; "April approved it", "Thanks, June" stay names."""
    if text[start:end] not in _MONTHS:
        return False
    time_before = _TIME_WORD_BEFORE.search(text, max(0, start - 16), start)
    return bool(time_before or _YEAR_OR_DAY_AFTER.match(text, end))


def split_at_line_breaks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """[start, end) as one piece per line, each without surrounding whitespace: a replacement covers
    exactly the value and never eats a line break or merges two lines."""
    piece = text[start:end]
    if "\n" not in piece and "\\" not in piece and "\u2028" not in piece and "\u2029" not in piece:
        return [(start, end)]
    pieces, pos = [], start
    for m in [*_LINE_BREAK.finditer(text, start, end), None]:
        stop = m.start() if m else end
        s, e = pos, stop
        while s < e and text[s] in " \t\r":
            s += 1
        while e > s and text[e - 1] in " \t\r":
            e -= 1
        if e > s:
            pieces.append((s, e))
        if m:
            pos = m.end()
    return pieces


class PlaceRecognizer(OneEntityRecognizer):
    """LOCATION: countries, cities and airports of the lexicon (strict geographic redaction only)."""

    ENTITY = "LOCATION"
    NAME = "places"
    _CANDIDATE = regex.compile(
        r"(?<![\w-])\p{Lu}[\p{L}\p{M}'’.-]*(?:[ \t]\p{Lu}[\p{L}\p{M}'’.-]*){0,3}(?![\w-])")

    def __init__(self) -> None:
        self.places = lexicon().places
        super().__init__()

    def spans(self, text: str) -> list[tuple[int, int, float]]:
        found = []
        for m in self._CANDIDATE.finditer(text):
            words = m.group().split()
            for size in range(len(words), 0, -1):  # the longest place inside the capitalised run
                for i in range(len(words) - size + 1):
                    candidate = " ".join(words[i:i + size])
                    if candidate in self.places:
                        start = m.start() + m.group().index(candidate)
                        found.append((start, start + len(candidate), 0.7))
                        break
                else:
                    continue
                break
        return found


def _name_start_in_url(text: str, start: int, end: int) -> int:
    """Where a person's name found at [start, end) begins: NER reads `https://x.com/search?q=Maria
    Gonzalez` as one person, so the name starts after the last "?", "=" or "&" in the span (and "/"
    where the span holds a URL's "://"); "Kónya/Becker" and "By: Varvio" are names as they are."""
    delimiters = "?=&/" if "://" in text[start:end] else "?=&"
    cut = max(text.rfind(delimiter, start, end) for delimiter in delimiters)
    if cut < start or cut + 1 >= end or not any(ch.isalpha() for ch in text[cut + 1:end]):
        return start
    return cut + 1
