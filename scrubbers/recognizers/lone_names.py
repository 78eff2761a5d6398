"""A name standing alone, with no cue word: told by the name lists, how common the word is in English,
its capitals and where it stands.

NER misses many single names in text it was not trained on ("Tomomi is from ...", "Marrero and Murphy
were ...", "Poor Jimmy xD"), and a cue word ("Thanks,", "my colleague") is often not there. What is
left to go on generalises across writers:

- **A clean name**: a capitalised word on the name lists of names-dataset (a country's top 2,000) that
  is not a common English word (wordfreq): "Tomomi", "Marrero", "Kaylee". Anywhere, sentence starts too.
- **A name that is also a common word** ("Mark", "Justin", "Rachel": names whose frequency as words
  comes from people bearing them, the lexicon's `first`/`last` that `english` also holds): only inside
  a sentence, where a capital means a name; at a sentence start ("Mark the request done") it stays.
- **A place that is also a name** ("Davis", "Charlotte"): only where no place cue stands before it
  ("in", "from", "near", ...) and no region follows (", CA").
- **A list of names**: three or more capitalised items joined by commas and "and", most of them on the
  name lists: every item is a name ("They had 6: Gaetane, Hannah, Derek and Anna").

Words the policy allows (`allow_terms`, `not_names`) never count; ambiguous names ("Will", "May",
"Hope") need a cue (`names.py`, `cues.py`). All-capital words are acronyms more often than names.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from scrubbers.recognizers.base import OneEntityRecognizer
from scrubbers.recognizers.lexicon import Lexicon, lexicon
from scrubbers.recognizers.names import _INTERJECTIONS

ENTITY = "PERSON"
_SCORE = 0.6
_LIST_SCORE = 0.65
# A capitalised word (any cased alphabet), with inner apostrophes and hyphenated parts, standing alone:
# not glued to a path, an address, a handle's "@" or an identifier's "_" / "." / "-".
_WORD = regex.compile(
    r"(?<![\p{L}\p{M}\p{N}_@/\\.#$-])(?P<word>\p{Lu}[\p{Ll}\p{M}]+(?:['’]\p{Lu}?[\p{Ll}\p{M}]+)*"
    r"(?:-\p{Lu}[\p{Ll}\p{M}]+)*)(?![\p{L}\p{M}\p{N}_@/\\-]|\.[\p{L}\p{N}])")
# a lower-case word or an all-capital one (four letters or more) standing alone in prose, not in code
_OTHER_CASE = regex.compile(
    r"(?<![\p{L}\p{M}\p{N}_@/\\.#$:=<-])(?P<word>\p{Ll}{3,}|\p{Lu}{4,})"
    r"(?![\p{L}\p{M}\p{N}_@/\\(=>-]|\.[\p{L}\p{N}]|[ \t]*[=:(])")
# weekday and month short forms are given names too ("Jan", "Sun"), but a calendar word first
_CALENDAR = frozenset("Mon Tue Tues Wed Thu Thur Thurs Fri Sat Sun "
                      "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec".split())
# a verb a person is the subject of, right after the word: "Scott is", "Jacob lives", "Gary said"
_SUBJECT_VERB = regex.compile(r"(?:['’]s[ \t]+\p{Ll}+[ \t]+)?[ \t]+(?:is|was|has|had|lives|lived|says|said|"
                              r"told|asked|wrote|works|worked|loves|hates|thinks|wants|knows)\b")
_LOWER_WORD = regex.compile(r"(?<![\p{L}\p{M}])\p{Ll}[\p{Ll}\p{M}]+")
_CAPITALISED_RUN_BEFORE = regex.compile(r"(?:\p{Lu}[\p{Ll}\p{M}]+[ \t]){1,2}$")
_CAPITALISED_RUN_AFTER = regex.compile(r"(?:[ \t]\p{Lu}[\p{Ll}\p{M}]+){1,2}")
# a lower-case noun and a colon after the word make it a label ("Pun idea:"); a verb of speech does not
_LABEL_AFTER = regex.compile(r"[ \t]+(?!(?:said|says|asked|asks|wrote|writes|replied|replies|adds|added|"
                             r"notes|noted|here|again|too)\b)\p{Ll}+[ \t]*:(?!//)")
_ARTICLE_BEFORE = regex.compile(r"(?i:\b(?:the|a|an)[ \t]+)$")
_NEXT_WORD = regex.compile(r"[ \t]+(\p{Lu}[\p{Ll}\p{M}]+)\b")
_CAPITALISED = regex.compile(r"\p{Lu}[\p{Ll}\p{M}]+")
# where a sentence starts: the text's start, a line's start, or after an end mark, a colon, a quote or a
# table's cell mark
_SENTENCE_START = regex.compile(r"(?:^|[.!?:;\"“”(\[>*•|-]|\n)[ \t\"'“‘(\[]*$")
# words before a place ("from Davis", "in Charlotte") and a region after one ("Davis, CA")
_PLACE_BEFORE = regex.compile(r"(?i:\b(?:in|at|from|near|to|into|of|via|around|outside|across|toward|"
                              r"towards|visit|visiting|downtown|flight|flights|city|town|country|location|"
                              r"destination|origin|region|state|hometown|based)[ \t]*[:=]?[ \t]*)$")
_PLACE_LABEL_BEFORE = regex.compile(r"(?i:\b(?:city|town|country|location|destination|origin|region|"
                                    r"hometown|office|based[ \t]+in)[ \t]*[:=][ \t]*)$")
_TITLE_BEFORE = regex.compile(r"(?i:\b(?:mr|mrs|ms|mx|miss|dr|prof|sir|madam|dame)\.?[ \t]+)$")
_SPOKEN_TO = regex.compile(r"(?i:\b(?:said|says|shouted|yelled|whispered|replied|cried|screamed|talked|spoke|"
                           r"wrote|waved|smiled|lied|complained)\b[^.!?\n]{0,30}\b(?:to|at)[ \t]+)$")
_REGION_AFTER = regex.compile(
    r"^,?[ \t]+(?:\p{Lu}{2}\b|(?P<region>\p{Lu}\p{Ll}+(?:[ \t]\p{Lu}\p{Ll}+)?)[ \t]*(?:,|$|\n))")
# a place's site after it, alone or after more places: "the Reno office", "Victoria and Alexandria sites"
# ("Victoria's office" is a person's: the possessive stops it)
_SITE_AFTER = regex.compile(
    r"(?:[ \t]*(?:,|and|&|or)[ \t]*\p{Lu}[\p{L}.-]+(?:[ \t]\p{Lu}[\p{L}.-]+)?){0,3}[ \t]+(?i:offices?|sites?"
    r"|warehouses?|DCs?|campus(?:es)?|plants?|stores?|branch(?:es)?|hubs?|call[ \t]+cent(?:er|re)s?"
    r"|headquarters|HQ|locations?|facilit(?:y|ies)|depots?|distribution[ \t]+cent(?:er|re)s?|clinics?)\b")
# a list: items of one to three capitalised words joined by ", " / " and " / " & "
_ITEM = r"\p{Lu}[\p{Ll}\p{M}'’-]+(?:[ \t]\p{Lu}[\p{Ll}\p{M}'’.-]*){0,2}"
_LIST = regex.compile(
    rf"(?<![\p{{L}}\p{{M}}\p{{N}}_@/\\.-])(?:{_ITEM})(?:[ \t]*,[ \t]*(?:{_ITEM})){{1,}}"
    rf"(?:,?[ \t]+(?:and|&|or)[ \t]+(?:{_ITEM}))?")
_LOWER_ITEM = regex.compile(r"\p{Ll}[\p{Ll}\p{M}'’-]+")
_LOWER_LIST = regex.compile(r"(?<![\p{L}\p{M}\p{N}_@/\\.-])\p{Ll}[\p{Ll}\p{M}'’-]+"
                            r"(?:[ \t]*,[ \t]*\p{Ll}[\p{Ll}\p{M}'’-]+){1,}"
                            r",?[ \t]+(?:and|&)[ \t]+\p{Ll}[\p{Ll}\p{M}'’-]+(?![\p{L}\p{M}\p{N}_@-])")
# the first line of a text or of a block: two or three capitalised words alone, more lines after it
_HEADER_LINE = regex.compile(r"(?:\A|\n[ \t>]*\n)[ \t>]*(?P<name>\p{Lu}[\p{Ll}\p{M}'’-]+(?:[ \t]+\p{Lu}\.?"
                             r"(?:[\p{Ll}\p{M}'’-]+)?){1,2})[ \t]*\n")
# a transcript line: a speaker's one word, a colon, then speech of two words or more (or a quote)
_SPEAKER_LINE = regex.compile(r"(?m)^[ \t>]*(?P<who>\p{Lu}[\p{Ll}\p{M}'’-]+)[ \t]*:[ \t]*"
                              r"(?=[\"“]|\S+[ \t]+\S+)")
# after a term and its colon, a definition starts in lower case ("the amount of ...", "unused leave")
_GLOSS = regex.compile(r"[ \t]*(?:the|a|an|\p{Ll}+)\b")
_ITEM_SPLIT = regex.compile(r"[ \t]*,[ \t]*(?:(?:and|&|or)[ \t]+)?|,?[ \t]+(?:and|&|or)[ \t]+")
_PAIR = regex.compile(rf"(?<![\p{{L}}\p{{M}}\p{{N}}_@/\\.-])(?P<a>{_ITEM})[ \t]+(?:and|&)[ \t]+(?P<b>{_ITEM})"
                      rf"(?![\p{{L}}\p{{M}}\p{{N}}_@-])")


def reads_as_place(text: str, start: int, end: int, lex: Lexicon) -> bool:
    """Is text[start:end] a place here: a country, or a place of the lexicon with a place word before it
    ("from Davis") or a region after it ("Davis, CA")? A place that is also a name is a name elsewhere."""
    surface = text[start:end]
    if _TITLE_BEFORE.search(text, max(0, start - 8), start):
        return False  # "Ms. Austin": a title is for a person
    popular_name = surface in lex.popular_first  # "Sofia", "Charlotte": a person as often as the city
    if surface in lex.countries or (surface in lex.big_places and not popular_name):
        return True  # "Vienna", "Athens"; "Sofia", "Charlotte" are as often a popular given name
    if _PLACE_LABEL_BEFORE.search(text, max(0, start - 24), start):
        return True  # "City: Seville", "destination = Leeds": a place whatever the lists say
    if surface not in lex.places:
        return _in_place_name(text, start, end, lex)  # "São Paulo", "Santa Clara"
    if _PLACE_BEFORE.search(text, max(0, start - 20), start):
        # "to" and "at" after a verb of speech take a person: "said Gladys to Logan", "shouted at Gary"
        return not _SPOKEN_TO.search(text, max(0, start - 50), start)
    if _SITE_AFTER.match(text, end):
        return True  # "the Reno office", "Dublin and Cork sites"
    region = _REGION_AFTER.match(text[end:end + 40])  # "Davis, CA", "Davis, California"; not "Mary, Ariana"
    return bool(region) and (region.group("region") is None or region.group("region") in lex.places)


def _in_place_name(text: str, start: int, end: int, lex: Lexicon) -> bool:
    """Is the word at [start, end) part of a place name of two or three capitalised words?"""
    before = _CAPITALISED_RUN_BEFORE.search(text, max(0, start - 40), start)
    after = _CAPITALISED_RUN_AFTER.match(text, end)
    words = [*(before.group().split() if before else []), text[start:end],
             *(after.group().split() if after else [])]
    at = len(before.group().split()) if before else 0
    for size in (2, 3):
        for first in range(max(0, at - size + 1), min(at, len(words) - size) + 1):
            if " ".join(words[first:first + size]) in lex.places:
                return True
    return False


class LoneNameRecognizer(OneEntityRecognizer):
    """PERSON: single names and lists of names with no cue (see the module docstring)."""

    ENTITY = ENTITY
    NAME = "lone names"

    def __init__(self, not_names: list[str] = (), places_are_names: bool = False) -> None:
        self.lexicon: Lexicon = lexicon()
        self.not_names = frozenset(not_names)
        self.places_are_names = places_are_names
        super().__init__()

    def spans(self, text: str) -> Iterator[tuple[int, int, float]]:
        if " " not in text.strip():
            return  # one word with no sentence around it (a JSON value): its key decides, not the lists
        for match in _WORD.finditer(text):
            start, end = match.start("word"), match.end("word")
            if text.endswith(("'s", "’s"), start, end):
                end -= 2  # a possessive: "Franciska's kid" (the "'s" stays)
            if self.alone_is_name(text, start, end):
                yield start, end, _SCORE
        for match in _OTHER_CASE.finditer(text) if self._english(text) else ():
            word = match.group("word")
            cased = word.capitalize()
            if self._other_case_name(word) \
                    and cased not in self.not_names and word not in self.not_names \
                    and not reads_as_place(text[:match.start()] + cased, match.start(), match.end(),
                                           self.lexicon):
                yield match.start("word"), match.end("word"), _SCORE
        if "," in text or " and " in text or "&" in text:
            yield from self._lists(text)
            yield from self._lower_lists(text)
        if text.count(":") >= 2 and "\n" in text:
            yield from self._speakers(text)
        if "\n" in text:
            yield from self._header_names(text)

    def alone_is_name(self, text: str, start: int, end: int) -> bool:
        """Is the capitalised word text[start:end], with no cue around it, a person's name?"""
        word = text[start:end]
        lex = self.lexicon
        if word in self.not_names or word in _CALENDAR or not (word in lex.first or word in lex.last):
            return False
        at_start = _SENTENCE_START.search(text, max(0, start - 4), start) is not None
        if _ARTICLE_BEFORE.search(text, max(0, start - 6), start):
            return False  # "The Plaza Hotel", "the Watcher": an article makes it a thing or a title
        if _LABEL_AFTER.match(text, end):
            return False  # "Pun idea: ...", "Status check: ...": a label, not a name
        if self._title_follows(text, end):
            return False  # "Forklift Operator", "Kaylee Street": part of a longer title or name of a thing
        if lex.is_word(word) and (at_start or self._in_title(text, start, end)) and not (
                _SUBJECT_VERB.match(text, end)):
            return False  # "Mark the request as done", "Happy Rose Day"; but "Scott is from Leeds"
        return self.places_are_names or not reads_as_place(text, start, end, lex)

    def _english(self, text: str) -> bool:
        """Is the text English, by its lower-case words (the first 200): the lower-case rule weighs a word
        against English word frequency, which says nothing of Spanish or Latin ("dolor" is a name too)."""
        words = _LOWER_WORD.findall(text, 0, 2_000)[:200]
        # a text of a few words gives no evidence of another language: read as English
        return len(words) < 5 or sum(self.lexicon.is_frequent_word(w) for w in words) * 5 >= len(words) * 2

    def _other_case_name(self, word: str) -> bool:
        """A lower-case or all-capital word that is a name: a given name of four letters or more (short
        ones are slang and short forms: "dem", "vid"), not a frequent word ("billing", "trending")."""
        lex, cased = self.lexicon, word.capitalize()
        if len(word) < (4 if word.islower() else 5) or lex.is_frequent_word(word) or cased in lex.ambiguous:
            return False  # all capitals: "IBAN", "HTTP", "JSON" are acronyms
        return cased in lex.first if word.islower() else (cased in lex.first or cased in lex.last)

    def _title_follows(self, text: str, end: int) -> bool:
        """Does a capitalised common word (not a name) follow the word ("Forklift Operator")?"""
        after = _NEXT_WORD.match(text, end)
        if not after:
            return False
        lex, following = self.lexicon, after.group(1)
        return lex.is_word(following) and not lex.is_name(following) and following not in lex.ambiguous

    def _in_title(self, text: str, start: int, end: int) -> bool:
        """Is a capitalised common word next to the word: a title or a heading, where every word has a
        capital ("Good Day Sunshine")?"""
        last_before = text[max(0, start - 20):start].split()[-1:]
        before = _CAPITALISED.findall(last_before[0])[-1:] if last_before else []  # "(Happy" reads "Happy"
        neighbours = [word.strip(".,!?;:") for word in [*before, *text[end:end + 20].split()[:1]]]
        lex = self.lexicon
        return any(_CAPITALISED.fullmatch(word) and lex.is_word(word) and not lex.is_name(word)
                   for word in neighbours)

    def _lower_lists(self, text: str) -> Iterator[tuple[int, int, float]]:
        """A list of three or more lower-case single words, most of them given names, in chat: every
        item that is not a frequent word ("silvana, adam, kristina and caleb")."""
        lex = self.lexicon
        for match in _LOWER_LIST.finditer(text):
            items = [(m.start(), m.end(), m.group()) for m in _LOWER_ITEM.finditer(match.group())]
            named = sum(w.capitalize() in lex.first for _, _, w in items)
            if len(items) < 3 or named * 3 < len(items) * 2:
                continue
            for start, end, word in items:
                if word.capitalize() in lex.first or not lex.is_frequent_word(word):
                    yield match.start() + start, match.start() + end, _LIST_SCORE

    def _header_names(self, text: str) -> Iterator[tuple[int, int, float]]:
        """A name heading a letter, a résumé or a contact card: the first line of a text (or of a block
        after a blank line) of two or three capitalised words, none a common or frequent word or a place
        ("Einojuhani Pyysalo\n\nBus driver\n...")."""
        lex = self.lexicon
        for match in _HEADER_LINE.finditer(text):
            words = match.group("name").split()
            if any(lex.is_word(w) or lex.is_frequent_word(w) or w in lex.places or w in self.not_names
                   for w in words):
                continue  # "Quarterly Report", "Grafana Loki": a heading or a product
            yield match.start("name"), match.end("name"), _LIST_SCORE

    def _speakers(self, text: str) -> Iterator[tuple[int, int, float]]:
        """The speakers of a transcript: two or more lines opening with one capitalised word and a colon
        before words of speech ("Alice: Who are you?"), where a speaker is on the name lists or is no
        common word ("Namespace: default" is a label: a value of one word is no speech)."""
        lines = list(_SPEAKER_LINE.finditer(text))
        if len(lines) < 2:
            return
        lex = self.lexicon
        for line in lines:
            word = line.group("who")
            if word in self.not_names or word in _INTERJECTIONS:
                continue
            if lex.is_name(word):
                yield line.start("who"), line.end("who"), _LIST_SCORE
            elif not (lex.is_word(word) or lex.is_frequent_word(word) or _GLOSS.match(text, line.end())):
                # a word no list knows is a speaker, but not one whose line reads as a definition
                # ("Accrual: the amount of leave earned", "Carryover: unused leave")
                yield line.start("who"), line.end("who"), _LIST_SCORE

    def _lists(self, text: str) -> Iterator[tuple[int, int, float]]:
        lex = self.lexicon
        for match in [*_LIST.finditer(text), *_PAIR.finditer(text)]:
            items, pos = [], match.start()
            for part in _ITEM_SPLIT.split(match.group()):
                at = text.index(part, pos)
                items.append((at, at + len(part), part))
                pos = at + len(part)
            words = [item[2].split() for item in items]
            named = sum(any((lex.is_name(w) or w in lex.ambiguous) and w not in _INTERJECTIONS for w in ws)
                        for ws in words)
            if len(items) == 2 and "," in match.group():
                continue  # "Hi, Maria" is a greeting, "Maria, Jonas" too few to call a list
            if _SITE_AFTER.match(text, match.end()) and not self.places_are_names:
                continue  # "The Dublin and Cork sites": places, named as the sites they are
            unknown = sum(all(not lex.is_word(w) and not lex.is_frequent_word(w) and w not in lex.places
                              for w in ws) and not any(lex.is_name(w) for w in ws) for ws in words)
            pair_of_names = len(items) == 2 and named >= 1 and named + unknown == 2  # "Usamov and Bowers"
            if len(items) < 2 or (named * 2 <= len(items) and not pair_of_names) or (
                    len(items) == 2 and named + unknown < 2):
                continue  # most items must be names: "Sales, Marketing and Finance" is no list of people
            for (start, end, item), ws in zip(items, words):
                if item in self.not_names or any(
                        w in self.not_names or w in _CALENDAR or w in _INTERJECTIONS for w in ws):
                    continue
                if not self.places_are_names and (item in lex.countries or (
                        item in lex.places and (item in lex.big_places or item not in lex.first))):
                    continue  # "Mary" among names is a name, though a town bears it
                if all(lex.is_word(w) and not lex.is_name(w) and w not in lex.ambiguous for w in ws):
                    continue  # a common word among names ("Anna, Mark and Sales")
                yield start, end, _LIST_SCORE
