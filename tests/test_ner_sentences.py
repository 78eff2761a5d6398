"""NER sentence by sentence (`scrubbers.speed.sentences`): where texts are cut, and that the entities found
land on the text's own tokens, with a repeated sentence run once."""

from __future__ import annotations

import pytest

from promote.scrubbing import engine
from scrubbers.speed.sentences import SentenceEntities, sentences


def _cut(text: str) -> list[str]:
    return [text[start:end] for start, end in sentences(text)]


@pytest.mark.parametrize(("text", "expected"), [
    # a text of one sentence is run whole, white space and all
    ("  Hi Elena, you have 48.0 hours of PTO.\n", ["  Hi Elena, you have 48.0 hours of PTO.\n"]),
    # a cut after a name, a number in brackets or a question, before a capital or a digit
    ("Hi, I'm Victor Hamid (cell 801-555-0162). If I do not use my PTO, how much carries over?",
     ["Hi, I'm Victor Hamid (cell 801-555-0162).", "If I do not use my PTO, how much carries over?"]),
    ("Which of the pay dates do you need for it? 2026-06-30 or 2026-07-15 are both on file here.",
     ["Which of the pay dates do you need for it?", "2026-06-30 or 2026-07-15 are both on file here."]),
    # initials, titles and short forms end no sentence, whatever follows them
    ("Please ask Dr. Gregory Hallman or J. R. Okafor (e.g. Mrs. Lee) about the leave policy first.",
     ["Please ask Dr. Gregory Hallman or J. R. Okafor (e.g. Mrs. Lee) about the leave policy first."]),
    # no cut before a lower-case word, and a short sentence stays with its neighbour
    ("Yes, Olga. Under DENTAL-TX-2026 §3.2 a spouse is eligible. see the plan. Questions: Olga.",
     ["Yes, Olga. Under DENTAL-TX-2026 §3.2 a spouse is eligible. see the plan. Questions: Olga."]),
    ("Under DENTAL-TX-2026 §3.2 a legal spouse is an eligible dependent. Thanks, Olga. Yes, Olga.",
     ["Under DENTAL-TX-2026 §3.2 a legal spouse is an eligible dependent. Thanks, Olga. Yes, Olga."]),
    ("Thanks! We filed it on June 29 for the whole team. Cheers!\nCrystal",
     ["Thanks! We filed it on June 29 for the whole team. Cheers!\nCrystal"]),
])
def test_a_text_is_cut_only_at_sentence_ends_no_name_straddles(text: str, expected: list[str]) -> None:
    assert _cut(text) == expected


def _entities(doc) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(entity.text, entity.label_) for entity in doc.ents]


class CountingNlp:
    """The engine's spaCy pipeline, counting the texts NER runs on."""

    def __init__(self, nlp) -> None:  # type: ignore[no-untyped-def]
        self.nlp, self.piped = nlp, []

    def pipe(self, texts, batch_size):  # type: ignore[no-untyped-def]
        texts = list(texts)
        self.piped += texts
        return self.nlp.pipe(texts, batch_size=batch_size)

    def make_doc(self, text):  # type: ignore[no-untyped-def]
        return self.nlp.make_doc(text)

    def __call__(self, text):  # type: ignore[no-untyped-def]
        self.piped.append(text)
        return self.nlp(text)

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.nlp, name)  # the vocabulary and the rest: the pipeline's own


@pytest.mark.parametrize("at_once", [1_024, 1])  # both texts cut and run together, or one after the other
def test_a_sentence_two_texts_share_runs_ner_once_and_its_entities_land_on_each_texts_tokens(
        at_once: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("scrubbers.speed.sentences._TEXTS_AT_ONCE", at_once)
    nlp = CountingNlp(engine().analyzer.nlp_engine.nlp["en"])
    shared = "Your direct deposit change is pending verification with Maria Castillo in payroll."
    texts = [f"Hi, I'm Gregory Hallman from the Boise store. {shared}",
             f"Hello, this is Chioma Okafor speaking from Raleigh. {shared}"]
    docs = list(SentenceEntities().documents(nlp, texts, batch_size=8))
    assert nlp.piped.count(shared) == 1 and len(nlp.piped) == 3
    for text, doc in zip(texts, docs):
        assert doc.text == text
        assert [token.text for token in doc] == [token.text for token in nlp.nlp.make_doc(text)]
        # each sentence's entities, at their place in the text
        first, second = (text[start:end] for start, end in sentences(text))
        offset = len(first) + 1
        expected = [(e.start_char, e.end_char, e.label_) for e in nlp.nlp(first).ents] + [
            (e.start_char + offset, e.end_char + offset, e.label_) for e in nlp.nlp(second).ents]
        assert [(e.start_char, e.end_char, e.label_) for e in doc.ents] == expected
        assert ("Maria Castillo", "PERSON") in _entities(doc)
    assert ("Gregory Hallman", "PERSON") in _entities(docs[0])
    # a text of one sentence is the document NER made of it
    alone = list(SentenceEntities().documents(nlp, [shared], batch_size=8))[0]
    assert _entities(alone) == _entities(nlp.nlp(shared))


def test_sentences_forgotten_before_they_are_used_run_their_text_whole() -> None:
    nlp = CountingNlp(engine().analyzer.nlp_engine.nlp["en"])
    text = "Hi, I'm Gregory Hallman from the Boise store. Please send the form to Maria Castillo today."
    docs = list(SentenceEntities(budget=1).documents(nlp, [text], batch_size=8))  # nothing is kept
    assert nlp.piped[-1] == text
    assert {"Gregory Hallman", "Maria Castillo"} <= {entity.text for entity in docs[0].ents}


def test_the_analyzer_finds_the_same_text_by_text_and_in_batches_with_sentences_cut() -> None:
    analyzer = engine().analyzer
    texts = [f"Hi, I'm {name} (cell 801-555-01{n:02d}). Check my accruals. Can you pull my pay stub for "
             f"period 2026-13? Send it to {name.split()[0].lower()}@example.com."
             for n, name in enumerate(["Gregory Hallman", "Nguyen Van An", "Szabina Gelencsér"])]
    batch = dict(analyzer.analyze_batch(texts))
    for text in texts:
        found = analyzer.analyze(text)
        assert batch[text] == found
        assert {"PERSON", "PHONE_NUMBER", "EMAIL_ADDRESS"} <= {d.entity for d in found}
