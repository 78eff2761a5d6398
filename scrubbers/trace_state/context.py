"""Per-trace state: the placeholder mapping and the values already known to be personal.

One `ScrubContext` per trace makes the same value become the same placeholder everywhere in the trace,
and lets a name found in a tool result (`"name": "Maria Gonzalez"`) be caught in free text elsewhere in
the trace even when NER misses it there.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import NamedTuple

import regex

from scrubbers.trace_state.email_forms import KnownAddresses, plain_address, written_forms
from scrubbers.speed import RUN_DIGITS, NumberMatcher, ValueMatcher

PERSON = "PERSON"
EMAIL = "EMAIL_ADDRESS"
PLACEHOLDER = regex.compile(r"<[A-Z]{2}[A-Z_]*?_(?:\d{1,5}|[0-9a-f]{6})>|<REDACTED>|<BLOB>")
"""Text this engine writes; never personal, never re-scrubbed. A trace never needs more than five
digits of numbering: `<SSN_512447723>` is a value dressed up as a placeholder, not one of ours."""

DIGIT_ENTITIES = {"PHONE_NUMBER", "US_SSN", "CREDIT_CARD", "US_BANK_NUMBER", "ABA_ROUTING_NUMBER"}
_TITLES = regex.compile(r"^(?:mr|mrs|ms|miss|mx|dr|prof)\.?\s+", regex.IGNORECASE)
_EDGE_PUNCTUATION = " \t\r\n.,;:!?\"'()[]{}<>"
_FORM_SPACE = regex.compile(r"(?<=\p{L})\+(?=\p{L})")
_LETTER_WORDS = regex.compile(r"[\p{L}'’-]+(?: [\p{L}'’-]+)*")


def normalise(entity: str, value: str) -> str:
    """The identity of a value: same person/number written differently → same string."""
    text = " ".join(value.split()).strip(_EDGE_PUNCTUATION)
    if entity in DIGIT_ENTITIES:
        digits = "".join(ch for ch in text if ch.isdigit())
        if entity == "PHONE_NUMBER" and len(digits) == 11 and digits.startswith("1"):
            digits = digits[1:]
        return digits or text.casefold()
    if entity == EMAIL:  # "ghallman at acme-retail dot com" is ghallman@acme-retail.com
        return plain_address(text)
    if entity == PERSON:
        text = _TITLES.sub("", _FORM_SPACE.sub(" ", text))  # "Maria+Gonzalez" of a URL query is her too
        if text.endswith("'s") or text.endswith("’s"):
            text = text[:-2]
    return text.casefold()


class ScrubContext:
    """Placeholders and known values of one trace. Not thread-safe: one trace, one worker."""

    def __init__(self, *, key: bytes | None = None, name_part_stopwords: frozenset[str] = frozenset(),
                 common_words: frozenset[str] | None = None, frequent_words: frozenset[str] | None = None):
        self._key = key
        self._stopwords = name_part_stopwords
        # lower-case common words: a name part that is none of them is matched in any case ("hallman")
        self._common_words = common_words
        # lower-case words of English text, names that dictionaries write in lower case among them ("mark")
        self._frequent_words = frequent_words
        self._placeholders: dict[tuple[str, str], str] = {}
        self._counters: dict[str, int] = {}
        # name part ("maria") → canonical full names it belongs to ("maria gonzalez")
        self._name_parts: dict[str, set[str]] = {}
        # surface text → (entity, case-sensitive?) for the deny-list matcher
        self._known: dict[str, tuple[str, bool]] = {}
        # case-folded first word of a surface → the surfaces starting with it (the matcher's index)
        self._by_first_word: dict[str, list[_Surface]] = {}
        self._first_words: set[str] = set()  # its keys, as a set (set-to-set tests walk the smaller one)
        self.memo: dict[str | tuple[str, str], tuple[str | None, tuple[str, ...], int]] = {}
        """Output by text (prose) or (entity, text) (whole values), for this context's state; the engine
        fills it, any change empties it."""
        self._remembered: set[tuple[str, str, bool]] = set()
        self.learned: set[str] = set()
        """Texts whose detections were already remembered (the engine's learn pass skips them)."""
        self.version = 0
        """Bumped whenever a known value or a name is added (what the memo depends on)."""
        self._matchers: tuple[int, ValueMatcher | None, NumberMatcher | None] | None = None
        self.checked: dict[str, bool] = {}
        """The output check's answer by text, for this context's state (histories repeat in every call)."""
        self._pieces: dict[tuple[str, str], str] = {}  # (entity, normalised piece) → the split value it is of
        self._emails = KnownAddresses()  # known e-mail addresses, found however they are written out
        self.replaced: dict[str, set[str]] = {}
        """What the engine replaced in this trace: each placeholder (or the redaction mark) it wrote, with
        the values it wrote it over, as written and as they read (disguises taken off). Raw: never printed
        or written; the write gate's known values, so nothing has to be found again by diffing output."""

    # placeholders ---------------------------------------------------------------------------------
    def placeholder(self, entity: str, value: str) -> str:
        """The placeholder for `value`, the same one every time in this context (and `value` noted in
        `replaced` under it: the engine asks for a placeholder only to write it over `value`)."""
        token = self._placeholder(entity, value)
        self.replaced.setdefault(token, set()).add(value)
        return token

    def note_replaced(self, mark: str, value: str) -> None:
        """`value` was written over with `mark` (a placeholder, or the redaction mark where nothing could
        be made of it)."""
        self.replaced.setdefault(mark, set()).add(value)

    def _placeholder(self, entity: str, value: str) -> str:
        normalised = normalise(entity, value)
        if self._pieces:
            whole = self._pieces.get((entity, normalised))
            if whole is not None and normalise(entity, whole) != normalised:
                return self._placeholder(entity, whole)  # a piece of a split value: the whole value's token
        canonical = self._canonical(entity, normalised)
        token = self._placeholders.get((entity, canonical))
        if token is None:
            token = self._alias(entity, canonical) or self._new_token(entity, canonical)
            self._placeholders[(entity, canonical)] = token
        return token

    def _canonical(self, entity: str, normalised: str) -> str:
        if entity != PERSON:
            return normalised
        tokens = normalised.split()
        if not tokens:  # a surface of punctuation alone normalises to nothing: no parts to register
            return normalised
        if len(tokens) == 1:
            fulls = self._name_parts.get(normalised)
            return next(iter(fulls)) if fulls and len(fulls) == 1 else normalised
        self._register_name(normalised)
        return normalised

    def _alias(self, entity: str, canonical: str) -> str | None:
        """A full name seen after its first (or last) name alone takes that name's placeholder."""
        if entity != PERSON or " " not in canonical:
            return None
        for part in (canonical.split()[0], canonical.split()[-1]):
            if self._name_parts.get(part) == {canonical} and (PERSON, part) in self._placeholders:
                return self._placeholders[(PERSON, part)]
        return None

    def _new_token(self, entity: str, canonical: str) -> str:
        if self._key is not None:
            digest = hmac.new(self._key, f"{entity}|{canonical}".encode(), hashlib.sha256).hexdigest()
            return f"<{entity}_{digest[:6]}>"
        self._counters[entity] = self._counters.get(entity, 0) + 1
        return f"<{entity}_{self._counters[entity]}>"

    def _register_name(self, canonical: str) -> None:
        tokens = canonical.split()
        for part in {tokens[0], tokens[-1]}:
            if canonical not in self._name_parts.setdefault(part, set()):
                self._name_parts[part].add(canonical)
                self._changed()  # a bare name may now map to another placeholder

    # known values ---------------------------------------------------------------------------------
    def remember(self, entity: str, value: str, *, detected: bool = False) -> None:
        """Add a value found in this trace to the deny list used on every later string.

        `detected` marks a value the analyzer found in prose (not one under a personal key): a single
        word found that way ("Employee", "Dental") is too often a false positive to deny trace-wide.
        """
        if (entity, value, detected) in self._remembered:  # the same value again: nothing new to learn
            return
        if self._pieces and (entity, normalise(entity, value)) in self._pieces:
            return  # a piece of a split value, known already (see `remember_split`)
        self._remembered.add((entity, value, detected))
        surface = " ".join(value.split()).strip(_EDGE_PUNCTUATION)
        if len(surface) < 3 or PLACEHOLDER.fullmatch(surface) or (surface.isdigit() and len(surface) < 4):
            return
        if detected and entity == PERSON and len(surface.split()) < 2:
            if self._no_word_but_a_name(surface) and surface not in self._known:
                self._add_known(surface, entity, True)  # as written: "Cadel", not "cadel" in a URL
            return
        if not any(ch.isdigit() or ch.isupper() or ch == "@" for ch in surface) and (
                detected or not self._lower_case_value(entity, surface)):
            # all-lowercase common words ("string", "checking") are not worth a trace-wide deny entry; a
            # log-in under a personal key ("ghallman") is no word, and goes wherever the trace writes it
            return
        if surface not in self._known:
            self._add_known(surface, entity, False)
        if entity != PERSON:
            return
        name = _TITLES.sub("", surface)
        words = name.split()
        if len(words) < 2:
            return
        self._register_name(normalise(PERSON, name))
        for part in {words[0], words[-1]}:
            part = part.strip(_EDGE_PUNCTUATION)
            if (len(part) >= 3 and part[0].isupper() and part not in self._stopwords
                    and part not in self._known):
                # a bare first/last name that is also a word is matched case-sensitively ("Rose" the
                # person, not "rose"); one that is no word in any case ("hallman, gregory" in chat)
                common = self._common_words is None or part.lower() in self._common_words
                self._add_known(part, PERSON, common)

    def _no_word_but_a_name(self, surface: str) -> bool:
        """Whether one word the analyzer found as a person in prose is denied trace-wide all the same: a
        capitalised word of letters that is no frequent English word ("Cadel", "Taecyeon"), so the other
        places the trace writes it lose it too; "Employee", "Dental" or "Blades" found once stay where
        they are."""
        common, frequent = self._common_words, self._frequent_words
        return (common is not None and frequent is not None and len(surface) >= 4 and surface[0].isupper()
                and _LETTER_WORDS.fullmatch(surface) is not None and surface not in self._stopwords
                and surface.lower() not in common and surface.lower() not in frequent)

    def _lower_case_value(self, entity: str, surface: str) -> bool:
        """Whether a lower-case value given under a personal key is worth denying trace-wide: one word at
        least is no common English word, and a person's name is made of letters only (a `name` key also
        holds code: `gcp.vertex.agent`, `call_llm`)."""
        common = self._common_words
        if common is None or len(surface) < 4:
            return False
        if entity == PERSON and not _LETTER_WORDS.fullmatch(surface):
            return False
        return not all(word in common for word in _WORD.findall(surface.lower()))

    def remember_split(self, entity: str, whole: str, pieces: tuple[str, ...]) -> None:
        """A value found only where adjacent parts of a message are read joined (`scrubbers.structure.joins`):
        the whole value is known like any other, and each piece is known on its own, so the part that
        holds it loses it (under the whole value's placeholder) and the output check looks for it.
        A piece too short to say anything alone (two characters, three digits) is not denied."""
        self.remember(entity, whole)
        for piece in pieces:
            surface = " ".join(piece.split()).strip(_EDGE_PUNCTUATION)
            if len(surface) < 3 or PLACEHOLDER.fullmatch(surface) or (surface.isdigit() and len(surface) < 4):
                continue
            if entity == PERSON and surface in self._stopwords:
                continue
            self._pieces.setdefault((entity, normalise(entity, surface)), whole)
            if surface not in self._known:
                self._add_known(surface, entity, False)

    def _add_known(self, surface: str, entity: str, case_sensitive: bool) -> None:
        self._known[surface] = (entity, case_sensitive)
        first = _WORD.search(surface)
        parts = surface.split() if case_sensitive else surface.lower().split()
        indexed = _Surface(surface, entity, case_sensitive, first.start() if first else None, parts)
        if entity == EMAIL:
            self._emails.add(surface)
        first_word = first.group().casefold() if first else ""
        self._by_first_word.setdefault(first_word, []).append(indexed)
        self._first_words.add(first_word)
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        self.memo.clear()
        self.checked.clear()

    def known_values(self) -> list[tuple[str, str]]:
        """(entity, value) of every value remembered as given (not the name parts derived from them)."""
        return [(entity, surface) for surface, (entity, derived) in self._known.items() if not derived]

    def output_matchers(self) -> tuple[ValueMatcher | None, NumberMatcher | None]:
        """(values, numbers): what the output check looks for, built once per state of the context.

        `values` matches, in case-folded text, every value the trace is known to hold as given (and a
        full name written as an identifier, `gregory_hallman`); `numbers` matches the digits of each
        known number of seven digits or more, whatever separates them (`512 44 7723`, `5124477 23`).
        """
        if self._matchers is not None and self._matchers[0] == self.version:
            return self._matchers[1], self._matchers[2]
        forms: set[str] = set()
        numbers: set[str] = set()
        for surface, (entity, derived) in self._known.items():
            if derived:
                continue
            folded = surface.casefold()
            forms.add(folded)
            if entity == PERSON and " " in folded:
                forms |= {folded.replace(" ", joint) for joint in ("_", ".", "", "-", "+")}
            if entity == EMAIL:
                forms.update(written_forms(folded))
            digits = "".join(ch for ch in surface if ch.isdigit())
            if entity in DIGIT_ENTITIES and len(digits) >= RUN_DIGITS:
                numbers.add(digits)
        values = ValueMatcher(forms) if forms else None
        number_matcher = NumberMatcher(numbers) if numbers else None
        self._matchers = (self.version, values, number_matcher)
        return values, number_matcher

    def might_match(self, words: frozenset[str]) -> bool:
        """False when no known value can occur in a text with these word tokens (see `known_matches`)."""
        return "" in self._first_words or not words.isdisjoint(self._first_words)

    def known_matches(self, text: str, words: frozenset[str]) -> list[tuple[int, int, str]]:
        """(start, end, entity) of every known value in `text`, longest first where they overlap.

        `words` are the case-folded word tokens of `text`: a known value can only match where its first
        word is a token, so most texts are ruled out by a set lookup and never reach the matcher.
        """
        if not self._known:
            return []
        # a set-to-set intersection walks the smaller of the two, in C
        first_words = words.intersection(self._first_words)
        if "" in self._first_words:
            first_words.add("")
        if not first_words:
            return []
        lowered = text.lower()
        aligned = len(lowered) == len(text)  # lower() kept every character at its position
        found = []
        for word in first_words:
            for known in self._by_first_word[word]:
                if known.offset is None or not word.isascii() or not aligned:
                    pattern = _surface_pattern(known.surface, known.case_sensitive)
                    found += [(m.start(), m.end(), known.entity) for m in pattern.finditer(text)]
                    continue
                # Try the value only where its first word occurs, not at every position of the text.
                haystack = text if known.case_sensitive else lowered
                position = lowered.find(word)
                while position != -1:
                    start = position - known.offset
                    end = _match_at(text, haystack, start, known.parts) if start >= 0 else None
                    if end is not None:
                        found.append((start, end, known.entity))
                    position = lowered.find(word, position + 1)
        # an address the trace holds, however it is written out ("ghallman at acme-retail dot com")
        found += [(start, end, EMAIL) for start, end in self._emails.written_in(text)]
        # What one alternation regex would pick: leftmost first, then the longest, never overlapping.
        found.sort(key=lambda f: (f[0], f[0] - f[1], f[2]))  # entity last: same order in every process
        chosen: list[tuple[int, int, str]] = []
        for item in found:
            if not chosen or item[0] >= chosen[-1][1]:
                chosen.append(item)
        return chosen


class _Surface(NamedTuple):
    """A known value as the matcher needs it, worked out once when it is remembered."""

    surface: str
    entity: str
    case_sensitive: bool
    offset: int | None
    """Where its first word starts in it; None when it has no word."""
    parts: list[str]
    """Its words (lower-cased unless case-sensitive), to be matched with any whitespace between them."""


# Only for values `_match_at` cannot test (no word, or a non-ASCII first word): compiled once per value.
_PATTERNS: dict[tuple[str, bool], re.Pattern] = {}
_PATTERN_CACHE_SIZE = 20_000
_WORD = regex.compile(r"\w+")


def _match_at(text: str, haystack: str, start: int, parts: list[str]) -> int | None:
    """Where a known value written as `parts` (whitespace runs between them) ends when it starts at
    `start` as a whole token, else None. The same test as `_surface_pattern`, without compiling it."""
    if start > 0 and _glued_before(text[start - 1]):
        return None
    position = start
    for number, part in enumerate(parts):
        if number:
            gap = position
            while gap < len(text) and text[gap].isspace():
                gap += 1
            if gap == position:
                return None
            position = gap
        if not haystack.startswith(part, position):
            return None
        position += len(part)
    if position < len(text) and _glued_after(text[position]):
        return None
    return position


def _glued_before(char: str) -> bool:
    return char.isalnum() or char in "_@.+-"


def _glued_after(char: str) -> bool:
    return char.isalnum() or char in "_@-"


def _surface_pattern(surface: str, case_sensitive: bool) -> re.Pattern:
    """The matcher of one known value, shared by every context (traces of one run share their cast)."""
    pattern = _PATTERNS.get((surface, case_sensitive))
    if pattern is None:
        words = r"\s+".join(re.escape(word) for word in surface.split())
        pattern = re.compile(rf"(?<![\w@.+-])(?:{words})(?![\w@-])", 0 if case_sensitive else re.IGNORECASE)
        if len(_PATTERNS) >= _PATTERN_CACHE_SIZE:
            _PATTERNS.clear()
        _PATTERNS[(surface, case_sensitive)] = pattern
    return pattern
