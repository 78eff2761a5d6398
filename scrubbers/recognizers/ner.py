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
# labels NER gives a person's name it does not know for one ("Scooter Braun" as ORG, "Selma" as GPE)
_NAMED_OTHERWISE = frozenset({"ORG", "GPE", "NORP", "PRODUCT", "WORK_OF_ART", "FAC", "LOC", "EVENT"})
# where a sentence, a line, a list item or a table cell starts
_SENTENCE_HEAD = regex.compile(r"(?:^|[.!?:;\"“(\[>*•|-]|\n)[ \t\"'“‘(\[]*$")
_CAPITAL_BEFORE = regex.compile(r"\p{Lu}[\p{L}\p{M}]*[ \t]+$")
_CAPITAL_AFTER = regex.compile(r"[ \t]+\p{Lu}")
# verbs and greetings NER takes into a lower-case name: "ping mgonzalez", "thanks dana"
_LEADING_CUE = regex.compile(r"(?:hi|hey|hello|thanks|thank|ping|ask|tell|email|message|call|cc|dear|ty|thx)"
                             r"[ \t,]+(?=\S)")
_PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
_OTHER_LABEL_SCORE = 0.6


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
                start = _after_cue_words(text, start, end) if self.enabled else start
                if not self.enabled or self.plausible(text, start, end):
                    results.append(RecognizerResult(result.entity_type, start, end, result.score,
                                                    result.analysis_explanation, result.recognition_metadata))
        doc = getattr(nlp_artifacts, "tokens", None)
        if self.enabled and doc is not None and "PERSON" in entities:
            for entity in doc.ents:
                if entity.label_ not in _NAMED_OTHERWISE:
                    continue
                for start, end in _lines_of(text, entity.start_char, entity.end_char):
                    if entity.label_ in _PLACE_LABELS and " " not in text[start:end]:
                        continue  # one word the model reads as a place ("Seville") is a place
                    if self.names_only(text, start, end):
                        results.append(RecognizerResult("PERSON", start, end, _OTHER_LABEL_SCORE))
        return results

    def names_only(self, text: str, start: int, end: int) -> bool:
        """Is an entity NER labelled otherwise (an organisation, a place, a group) made of names only: a
        given name then surnames ("KRISTEN BELL", "justin bieber" tagged ORG), or one clean name that is
        no common word and no place? The model saw a proper name; the name lists say whose."""
        words = _WORD.findall(text[start:end])
        lex = self.lexicon
        cased = [w if w[:1].isupper() and not w.isupper() else w.capitalize() for w in words]
        if not words or len(words) > 3 or any(w in self.not_names for w in cased) \
                or _DIGIT.search(text[start:end]):
            return False
        if not self.places_are_names and (" ".join(cased) in lex.places or any(
                w in lex.big_places or (len(cased) == 1 and w in lex.places) for w in cased)):
            return False  # "Seville", "New York"; "Kristen Bell" holds a small town's name, and is a name
        if len(words) == 1:
            if words[0].isupper() and len(words[0]) < 5:
                return False  # "IBAN", "JSON": an acronym
            # a given name; a surname alone labelled so is as often a firm or a town ("Seville", "Dell")
            return cased[0] in lex.first and not lex.is_dictionary_word(cased[0])
        if cased[0] in lex.first and all(w in lex.first or w in lex.last for w in cased[1:]):
            return True
        # two or three capitalised words none of which is a word of English or a known name: the small
        # model tags unknown full names ORG ("Thaddeus Pennywhistle"); an organisation's name holds a word
        return all(w[:1].isupper() and w[1:].islower() and not lex.is_frequent_word(w)
                   and not lex.is_dictionary_word(w) for w in words)

    def plausible(self, text: str, start: int, end: int) -> bool:
        """Could text[start:end], tagged PERSON, be a person? (see the module docstring)"""
        lex = self.lexicon
        span = text[start:end]
        words = _WORD.findall(span)
        if not words or span in self.not_names:
            return False
        if any(lex.is_name(w) and w not in self.not_names for w in words) and not _DIGIT.search(span):
            return self.places_are_names or not reads_as_place(text, start, end, lex)
        if _DIGIT.search(span):
            return False
        if not self.places_are_names and span in lex.places and (
                span in lex.big_places or reads_as_place(text, start, end, lex)):
            return False  # "San Francisco", "from Leeds"; "when Obama spent it" (a town in Japan too)
        following = text[end:end + 2]
        if len(words) == 1:
            word = words[0]
            if word[0].islower():  # "json", "output": a name typed in lower case is on the name lists
                return self._lower_name(word)
            if word.isupper() and len(word) <= 3:  # "LH", "KE"
                return False
            if following.startswith(":") and _LIST_HEAD.search(text[:start]):
                return False  # a label heading a line: "Namespace: default"
            if word in self.not_names or (lex.is_dictionary_word(word) and word not in lex.ambiguous and (
                    not lex.is_frequent_word(word) or heads_or_joins_a_title(text, start, end))):
                # "Metadata", "Fetch" heading a line or a sentence, or in a Title Case run; mid-sentence
                # a capital marks a name ("the VMAs Eminem is")
                return False
            if word in lex.ambiguous and _LIST_HEAD.search(text[:start]) and not following.startswith(","):
                return False  # "Show pods in ..." heading a list item
            return True
        if all(w[0].islower() for w in words):  # "kevin smith", "rick astley"; "max retries" is no one
            return any(self._lower_name(w) for w in words) and not any(
                lex.is_dictionary_word(w) and not self._lower_name(w) for w in words)
        # a name the lists call ambiguous only for how often people bear it ("Donald": no dictionary
        # writes it in lower case) is a name here, where NER read a person
        ambiguous = sum(w in lex.ambiguous and lex.is_frequent_word(w) for w in words)
        plain = sum((lex.is_dictionary_word(w) or w in self.not_names) and w not in lex.ambiguous
                    for w in words)
        return not (ambiguous <= 1 and ambiguous + plain == len(words))


    def _lower_name(self, word: str) -> bool:
        """A lower-case word NER calls a person that is a name on the lists and not a common word."""
        lex = self.lexicon
        cased = word.capitalize()
        return (cased in lex.first or cased in lex.last) \
            and cased not in self.not_names


def _after_cue_words(text: str, start: int, end: int) -> int:
    """Where a name NER found starts once the verbs and greetings it took in are left out: "ping
    mgonzalez", "thanks dana" (in lower case NER reads them as part of the name)."""
    while True:
        cue = _LEADING_CUE.match(text, start, end)
        if not cue:
            return start
        start = cue.end()


def heads_or_joins_a_title(text: str, start: int, end: int) -> bool:
    """Does the word at [start, end) head a sentence, a line, a list item or a table cell, or stand in a
    Title Case run? There a capital says nothing of a name ("Fetch the logs", "| Max |", "Leave Policy")."""
    head = _SENTENCE_HEAD.search(text, max(0, start - 4), start)
    return head is not None or _capitalised_neighbour(text, start, end)


def _capitalised_neighbour(text: str, start: int, end: int) -> bool:
    """Is the word beside [start, end) capitalised too: a title, a heading or a product's name?"""
    return bool(_CAPITAL_BEFORE.search(text, max(0, start - 30), start) or _CAPITAL_AFTER.match(text, end))


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
