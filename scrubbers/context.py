"""Per-trace state: the placeholder mapping and the values already known to be personal.

One `ScrubContext` per trace makes the same value become the same placeholder everywhere in the trace,
and lets a name found in a tool result (`"name": "Maria Gonzalez"`) be caught in free text elsewhere in
the trace even when NER misses it there.
"""

from __future__ import annotations

import hashlib
import hmac

import regex

PERSON = "PERSON"
PLACEHOLDER = regex.compile(r"<[A-Z][A-Z_]*?_(?:\d+|[0-9a-f]{6})>|<REDACTED>|<BLOB>")
"""Text this engine writes; never personal, never re-scrubbed."""

_DIGIT_ENTITIES = {"PHONE_NUMBER", "US_SSN", "CREDIT_CARD", "US_BANK_NUMBER", "ABA_ROUTING_NUMBER"}
_TITLES = regex.compile(r"^(?:mr|mrs|ms|miss|mx|dr|prof)\.?\s+", regex.IGNORECASE)
_EDGE_PUNCTUATION = " \t\r\n.,;:!?\"'()[]{}<>"


def normalise(entity: str, value: str) -> str:
    """The identity of a value: same person/number written differently → same string."""
    text = " ".join(value.split()).strip(_EDGE_PUNCTUATION)
    if entity in _DIGIT_ENTITIES:
        digits = "".join(ch for ch in text if ch.isdigit())
        if entity == "PHONE_NUMBER" and len(digits) == 11 and digits.startswith("1"):
            digits = digits[1:]
        return digits or text.casefold()
    if entity == PERSON:
        text = _TITLES.sub("", text)
        if text.endswith("'s") or text.endswith("’s"):
            text = text[:-2]
    return text.casefold()


class ScrubContext:
    """Placeholders and known values of one trace. Not thread-safe: one trace, one worker."""

    def __init__(self, *, key: bytes | None = None, name_part_stopwords: frozenset[str] = frozenset()):
        self._key = key
        self._stopwords = name_part_stopwords
        self._placeholders: dict[tuple[str, str], str] = {}
        self._counters: dict[str, int] = {}
        # name part ("maria") → canonical full names it belongs to ("maria gonzalez")
        self._name_parts: dict[str, set[str]] = {}
        # surface text → (entity, case-sensitive?) for the deny-list matcher
        self._known: dict[str, tuple[str, bool]] = {}
        self._matcher: tuple[regex.Pattern | None, regex.Pattern | None] | None = None

    # placeholders ---------------------------------------------------------------------------------
    def placeholder(self, entity: str, value: str) -> str:
        """The placeholder for `value`, the same one every time in this context."""
        canonical = self._canonical(entity, normalise(entity, value))
        token = self._placeholders.get((entity, canonical))
        if token is None:
            token = self._alias(entity, canonical) or self._new_token(entity, canonical)
            self._placeholders[(entity, canonical)] = token
        return token

    def _canonical(self, entity: str, normalised: str) -> str:
        if entity != PERSON:
            return normalised
        tokens = normalised.split()
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
            self._name_parts.setdefault(part, set()).add(canonical)

    # known values ---------------------------------------------------------------------------------
    def remember(self, entity: str, value: str, *, detected: bool = False) -> None:
        """Add a value found in this trace to the deny list used on every later string.

        `detected` marks a value the analyzer found in prose (not one under a personal key): a single
        word found that way ("Employee", "Dental") is too often a false positive to deny trace-wide.
        """
        surface = " ".join(value.split()).strip(_EDGE_PUNCTUATION)
        if len(surface) < 3 or PLACEHOLDER.fullmatch(surface) or (surface.isdigit() and len(surface) < 4):
            return
        if detected and entity == PERSON and len(surface.split()) < 2:
            return
        if not any(ch.isdigit() or ch.isupper() or ch == "@" for ch in surface):
            return  # all-lowercase words ("string", "checking") are not worth a trace-wide deny entry
        if surface not in self._known:
            self._known[surface] = (entity, False)
            self._matcher = None
        if entity != PERSON:
            return
        name = _TITLES.sub("", surface)
        words = name.split()
        if len(words) < 2:
            return
        self._register_name(normalise(PERSON, name))
        for part in {words[0], words[-1]}:
            part = part.strip(_EDGE_PUNCTUATION)
            if len(part) >= 3 and part[0].isupper() and part not in self._stopwords and part not in self._known:
                # a bare first/last name is matched case-sensitively: "Rose" the person, not "rose"
                self._known[part] = (PERSON, True)
                self._matcher = None

    def known_values(self) -> list[tuple[str, str]]:
        """(entity, value) of every value remembered as given (not the name parts derived from them)."""
        return [(entity, surface) for surface, (entity, derived) in self._known.items() if not derived]

    def known_matches(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, entity) of every known value in `text`."""
        if not self._known:
            return []
        if self._matcher is None:
            self._matcher = (self._compile(False), self._compile(True))
        found = []
        for matcher in self._matcher:
            if matcher is not None:
                for match in matcher.finditer(text):
                    found.append((match.start(), match.end(), self._lookup(match.group())))
        return found

    def _compile(self, case_sensitive: bool) -> regex.Pattern | None:
        surfaces = sorted((s for s, (_, cs) in self._known.items() if cs == case_sensitive), key=len, reverse=True)
        if not surfaces:
            return None
        alternatives = "|".join(r"\s+".join(regex.escape(word) for word in s.split()) for s in surfaces)
        flags = 0 if case_sensitive else regex.IGNORECASE
        return regex.compile(rf"(?<![\w@.+-])(?:{alternatives})(?![\w@-])", flags)

    def _lookup(self, matched: str) -> str:
        surface = " ".join(matched.split())
        if surface in self._known:
            return self._known[surface][0]
        folded = surface.casefold()
        for known, (entity, case_sensitive) in self._known.items():
            if not case_sensitive and known.casefold() == folded:
                return entity
        return PERSON
