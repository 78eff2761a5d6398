"""spaCy's PERSON spans, minus the ones that are plainly not a person.

The small English model tags list labels ("Namespace:", "Chart:"), verbs heading list items ("Show",
"Fetch"), lower-case words (`output: json`), product and model names (`gpt-4o`) and places ("San
Francisco", "JFK") as people. A span is dropped only when it holds no given name or surname of the
name lists and is one of those shapes; anything else NER calls a person stays a person (fail closed).
Spans are cut at line breaks first, so a replacement never merges two lines.
"""

from __future__ import annotations

import regex
from presidio_analyzer import RecognizerResult
from presidio_analyzer.predefined_recognizers import SpacyRecognizer

from scrubbers.recognizers.lexicon import Lexicon, lexicon
from scrubbers.recognizers.lone_names import reads_as_place

_WORD = regex.compile(r"[\p{L}\p{M}][\p{L}\p{M}'’.-]*")
_LIST_HEAD = regex.compile(r"(?:^|\n)[ \t]*(?:[-*•>]|\d{1,3}[.)])?[ \t]*$")
_DIGIT = regex.compile(r"\d")


class FilteredSpacyRecognizer(SpacyRecognizer):
    """`SpacyRecognizer` for PERSON with the filter of the module docstring."""

    def __init__(self, not_names: list[str] = (), places_are_names: bool = False,
                 enabled: bool = True) -> None:
        super().__init__(supported_entities=["PERSON"])
        self.lexicon: Lexicon = lexicon()
        self.not_names = frozenset(not_names)
        self.places_are_names = places_are_names
        self.enabled = enabled

    def analyze(self, text, entities, nlp_artifacts=None):  # type: ignore[no-untyped-def, override]
        results = []
        for result in super().analyze(text, entities, nlp_artifacts):
            for start, end in _lines_of(text, result.start, result.end):
                if not self.enabled or self.plausible(text, start, end):
                    results.append(RecognizerResult(result.entity_type, start, end, result.score,
                                                    result.analysis_explanation, result.recognition_metadata))
        return results

    def plausible(self, text: str, start: int, end: int) -> bool:
        """Could text[start:end], tagged PERSON, be a person? (see the module docstring)"""
        lex = self.lexicon
        span = text[start:end]
        words = _WORD.findall(span)
        if not words or span in self.not_names:
            return False
        if any(lex.is_name(w) and w not in self.not_names for w in words) and not _DIGIT.search(span):
            return self.places_are_names or not reads_as_place(text, start, end, lex)
        if _DIGIT.search(span) or (not self.places_are_names and span in lex.places):
            return False
        following = text[end:end + 2]
        if len(words) == 1:
            word = words[0]
            if word[0].islower():  # "json", "output": a name typed in lower case is on the name lists
                return self._lower_name(word)
            if word.isupper() and len(word) <= 3:  # "LH", "KE"
                return False
            if following.startswith(":") and _LIST_HEAD.search(text[:start]):
                return False  # a label heading a line: "Namespace: default"
            if (lex.is_word(word) or word in self.not_names) and word not in lex.ambiguous:
                return False  # "Metadata", "Fetch", "Helm"
            if word in lex.ambiguous and _LIST_HEAD.search(text[:start]) and not following.startswith(","):
                return False  # "Show pods in ..." heading a list item
            return True
        if all(w[0].islower() for w in words):  # "kevin smith", "rick astley"; "max retries" is no one
            return any(self._lower_name(w) for w in words) and not any(
                lex.is_word(w) and not self._lower_name(w) for w in words)
        ambiguous = sum(w in lex.ambiguous for w in words)
        plain = sum((lex.is_word(w) or w in self.not_names) and w not in lex.ambiguous for w in words)
        return not (ambiguous <= 1 and ambiguous + plain == len(words))


    def _lower_name(self, word: str) -> bool:
        """A lower-case word NER calls a person that is a name on the lists and not a common word."""
        lex = self.lexicon
        cased = word.capitalize()
        return (cased in lex.first or cased in lex.last) \
            and cased not in self.not_names


def _lines_of(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """[start, end) cut at line breaks, each piece stripped of surrounding whitespace and punctuation."""
    pieces = []
    pos = start
    for part in text[start:end].split("\n"):
        piece_start, piece_end = pos, pos + len(part)
        while piece_start < piece_end and not text[piece_start].isalnum():
            piece_start += 1
        while piece_end > piece_start and not (text[piece_end - 1].isalnum() or text[piece_end - 1] == "."):
            piece_end -= 1
        if text.endswith(("'s", "’s"), piece_start, piece_end) and piece_end - piece_start > 3:
            piece_end -= 2  # a possessive stays: "<PERSON_1>'s request"
        if piece_end > piece_start:
            pieces.append((piece_start, piece_end))
        pos += len(part) + 1
    return pieces
