"""NER sentence by sentence, each sentence run once per engine: what every turn of a trace repeats.

An agent's texts repeat whole sentences around the one that changes: "Hi, I'm <a new name> (<a new
e-mail>). If I do not use all my PTO this year, how much carries into next year?", and only the first
sentence is new. A text is cut at its sentence ends (`sentences`); NER runs on each sentence not seen before,
its entities are kept by a digest of the sentence (`SentenceEntities`, bounded), and the text's document
gets the entities of its sentences at their places in it. The analyzer hands it each text with the values
the other recognizers found masked (`scrubbers.speed.masking`), so that sentences differing only in those
values are one sentence, run once.

A cut is made at the white space after a sentence's end mark (`.`, `!`, `?`, with closing quotes or
brackets) and before an upper-case letter, a digit or an opening quote or bracket, unless the word before
the mark is an initial, a title or a short form ("J. R. Okafor", "Dr. Hallman", "e.g. Bob"). A sentence
shorter than `MIN_SENTENCE_CHARS` stays joined to the next one (or the one before, at the end). spaCy's
tokenizer splits text at white space first, so a sentence's tokens are the text's tokens there: every
entity lands on the text's own tokens (where one would not, the text is run whole, as before).

NER looks a few tokens either side of a word, so a cut can change what it finds next to it. Measured on
every labelled set (`benchmarks/README.md`, "Speed, tenth round"): with this minimum, the six sets give
the same figures as whole texts do; with 16 characters, two names at the end of a short closing sentence
("Questions: Loreto.") were no longer found.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import regex

from scrubbers.speed.caches import SizedCache, text_digest

MIN_SENTENCE_CHARS = 40
"""A sentence shorter than this is run together with the next one (or the one before, at the end)."""
SENTENCE_CACHE_CHARS = 4_000_000
"""Sentences whose entities are kept, by the characters they hold (the keys are digests, not text)."""
_TEXTS_AT_ONCE = 1_024  # texts cut and run together: bounds the documents held at once

# the end of a sentence: an end mark (and closing quotes or brackets), white space, then an upper-case
# letter, a digit or an opening quote or bracket; `_ABBREVIATION` tells the marks that end a word instead
_SENTENCE_END = regex.compile(
    r"(?<=(?<!\S)(\S*?)[.!?]+[\"'\u2019\u201d)\]]*)\s+(?=[\p{Lu}\d\"'\u2018\u201c(\[])")
# a word that a full stop follows without ending the sentence: an initial ("J."), a title or a short form
_ABBREVIATION = regex.compile(
    r"(?:\p{L}|\p{L}\.\p{L}|Mr|Mrs|Ms|Mx|Dr|Prof|Sr|Jr|St|Mt|Ft|Rev|Hon|Gen|Col|Capt|Lt|Sgt|Cpt|Gov|Sen|Rep"
    r"|Pres|Supt|Msgr|Fr|No|Nos|Vol|Fig|Ref|Art|Sec|Ch|Pt|Apt|Ave|Blvd|Rd|Ste|Co|Corp|Inc|Ltd|Bros|Dept"
    r"|Univ|Est|vs|etc|e\.g|i\.e|al|cf|viz|approx|ca)",
    regex.IGNORECASE)

_OPENING = "\"'([\u2018\u201c"


class Sentence(NamedTuple):
    """[start, end) of one sentence of a text."""

    start: int
    end: int


def sentences(text: str) -> list[Sentence]:
    """The text's sentences (see the module): the whole text when it has one, every character but the
    white space between two sentences otherwise."""
    pieces: list[Sentence] = []
    start = 0
    for boundary in _SENTENCE_END.finditer(text):
        if _ABBREVIATION.fullmatch(boundary.group(1).lstrip(_OPENING)):
            continue
        if boundary.start() - start >= MIN_SENTENCE_CHARS:
            pieces.append(Sentence(start, boundary.start()))
            start = boundary.end()
    if pieces and len(text) - start < MIN_SENTENCE_CHARS:
        # a short last sentence is run with the one before it (the white space between is kept)
        start = pieces.pop().start
    pieces.append(Sentence(start, len(text)))
    return pieces


class SentenceEntities:
    """The entities NER found in each sentence run so far (the last `SENTENCE_CACHE_CHARS` of them)."""

    def __init__(self, budget: int = SENTENCE_CACHE_CHARS):
        self._found = SizedCache(budget, lambda key, value: value[0])

    def documents(self, nlp: Any, texts: Iterable[str], batch_size: int) -> Iterator[Any]:
        """A spaCy document of each text, with the entities NER finds in its sentences."""
        texts = list(texts)
        for start in range(0, len(texts), _TEXTS_AT_ONCE):
            yield from self._documents(nlp, texts[start:start + _TEXTS_AT_ONCE], batch_size)

    def entities(self, nlp: Any, texts: list[str], batch_size: int) -> list[list[tuple[int, int, str]]]:
        """NER's entities (start, end, label) of each text, found sentence by sentence."""
        found = []
        for start in range(0, len(texts), _TEXTS_AT_ONCE):
            chunk = texts[start:start + _TEXTS_AT_ONCE]
            cuts, keyed, _ = self._run(nlp, chunk, batch_size)
            for text, pieces, items in zip(chunk, cuts, keyed):
                spans = self._spans(pieces, [key for key, _ in items])
                if spans is None:
                    spans = [(entity.start_char, entity.end_char, entity.label_) for entity in nlp(text).ents]
                found.append(spans)
        return found

    def _documents(self, nlp: Any, texts: list[str], batch_size: int) -> Iterator[Any]:
        cuts, keyed, whole = self._run(nlp, texts, batch_size)
        for text, pieces, items in zip(texts, cuts, keyed):
            doc = whole.get(items[0][0]) if len(pieces) == 1 else None
            yield doc if doc is not None else self._document(nlp, text, pieces, [key for key, _ in items])

    def _run(self, nlp: Any, texts: list[str], batch_size: int) -> tuple[list, list, dict[bytes, Any]]:
        """Each text's sentences, their (digest, text), and the documents of the sentences NER ran on
        now (the others' entities are kept already)."""
        cuts = [sentences(text) for text in texts]
        # each sentence's text and digest, worked out once
        keyed = [[(text_digest(sentence), sentence) for sentence in (text[p.start:p.end] for p in pieces)]
                 for text, pieces in zip(texts, cuts)]
        todo: dict[bytes, str] = {}
        for key, sentence in (item for items in keyed for item in items):
            if key not in todo and self._found.get(key) is None:
                todo[key] = sentence
        whole: dict[bytes, Any] = {}  # documents of the sentences run just now
        for key, doc in zip(todo, nlp.pipe(todo.values(), batch_size=batch_size)):
            self._found.put(key, (len(doc.text), tuple(
                (entity.start_char, entity.end_char, entity.label_) for entity in doc.ents)))
            whole[key] = doc
        return cuts, keyed, whole

    def _document(self, nlp: Any, text: str, pieces: list[Sentence], keys: list[bytes]) -> Any:
        found = self._spans(pieces, keys)
        if found is None:
            return nlp(text)
        doc = nlp.make_doc(text)
        spans = []
        for start, end, label in found:
            span = doc.char_span(start, end, label=label)
            if span is None:  # not on the text's tokens: run this text whole
                return nlp(text)
            spans.append(span)
        doc.ents = spans
        return doc

    def _spans(self, pieces: list[Sentence], keys: list[bytes]) -> list[tuple[int, int, str]] | None:
        """The entities of a text's sentences at their places in it; None when one of the sentences was
        forgotten since it ran (a batch larger than the budget): the text is then run whole."""
        spans = []
        for piece, key in zip(pieces, keys):
            found = self._found.get(key)
            if found is None:
                return None
            spans.extend((piece.start + start, piece.start + end, label) for start, end, label in found[1])
        return spans
