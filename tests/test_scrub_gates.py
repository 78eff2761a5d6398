"""Recognizer gates and the grouped context step skip work, never results (same findings as without)."""

from __future__ import annotations

import json

import pytest

from promote.scrubbing import engine
from scrubbers.speed.gates import (
    INTERNATIONAL_PHONE_MIN_DIGITS,
    _Gated,
    international_phone_min_digits,
    lookbehind_ahead,
    phone_min_digits,
)
from tests.conftest import TRACES, string_leaves

CRAFTED = [
    "call me at +43 1234 or +1 (415) 555-0134, fax 0494 92 82 32",
    "ssn 512-44-7723, card 4111 1111 1111 1111, routing 021000021, acct 000123456789",
    "host 10.0.4.17 and fe80::1ff:fe23:4567:890a answered; :: is the unspecified address",
    "mapped ::ffff:192.168.1.10, embedded 64:ff9b::192.0.2.33, and 62.5 hours is no address",
    "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl and sk-abcdefghijklmnopqrstuvwx",
    "password=hunter2 at https://bob:s3cret@example.com/x, P.O. Box 1234",
    "Hi, this is Camille, born 06/08/1962; account number: 924282758715, routing 006747956, DOB 1962-06-08",
    "Thanks, Elena. Your PTO balance is 62.5 hours per policy HR-7.2.",
    "",
]


def _texts() -> list[str]:
    """Every string leaf of the fixture traces (decoded JSON too), plus crafted texts of every kind."""
    texts: list[str] = list(CRAFTED)
    for path in sorted(TRACES.glob("*.otlp.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                texts += string_leaves(json.loads(line))
    return list(dict.fromkeys(texts))


@pytest.fixture(scope="module")
def gated() -> list:
    recognizers = [r for r in engine().analyzer.engine.registry.recognizers if isinstance(r.analyze, _Gated)]
    assert len(recognizers) >= 10  # the pattern recognizers and the phone recognizer are gated
    return recognizers


def test_a_gate_shuts_only_where_its_recognizer_finds_nothing(gated: list) -> None:
    texts = _texts()
    assert len(texts) > 500
    entities = engine().analyzer.entities
    shut = 0
    for recognizer in gated:
        gate = recognizer.analyze
        for text in texts:
            if not gate.can_match(text):
                shut += 1
                assert gate.analyze(text, entities, None) == [], (recognizer.name, text)
    assert shut > len(texts)  # the gates do skip work on these texts


def test_a_leading_lookbehind_is_read_forward_by_the_gate() -> None:
    assert lookbehind_ahead(r"(?<=\bbearer\s{1,5})[\w.]{8,}") == r"(?:\bbearer\s{1,5})[\w.]{8,}"
    # brackets inside a class or escaped do not close the group; a "]" first in a class is a member
    assert lookbehind_ahead(r"(?<=[)(]a\))b") == r"(?:[)(]a\))b"
    assert lookbehind_ahead(r"(?<=[]x)]y)z|w") == r"(?:[]x)]y)z|w"
    assert lookbehind_ahead(r"(?<=a(?:b|c))d") == r"(?:a(?:b|c))d"
    assert lookbehind_ahead(r"a(?<=a)b") is None and lookbehind_ahead(r"(?<!a)b") is None
    assert lookbehind_ahead(r"(?<=[[:alpha:])]y)z") == r"(?:[[:alpha:])]y)z"  # a POSIX class inside
    assert lookbehind_ahead(r"(?<=a") is None  # unbalanced: no gate is built from it
    assert lookbehind_ahead(r"(?<=a[)b") is None  # cut where the pattern does not close: no gate


def test_a_gate_skips_the_recognizer_on_a_text_it_cannot_match(gated: list) -> None:
    jwt = next(r for r in gated if r.name == "jwt")
    calls = []
    gate = _Gated(lambda *args: calls.append(args) or [], jwt.analyze.can_match)
    assert gate("Thanks, Elena. See you on Monday.", []) == []
    assert calls == []
    gate("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", [])
    assert len(calls) == 1


def test_a_gate_that_lets_most_texts_through_opens_for_good() -> None:
    calls = []
    gate = _Gated(lambda *args: calls.append(args) or [], lambda text: text != "no")
    for _ in range(_Gated.TRIAL):
        gate("yes", [])
    assert gate.open
    gate("no", [])
    assert len(calls) == _Gated.TRIAL + 1


def test_phone_gate_counts_the_shortest_valid_numbers() -> None:
    assert international_phone_min_digits() == INTERNATIONAL_PHONE_MIN_DIGITS
    assert phone_min_digits(["US"]) == 6  # a 4-digit Austrian or German number with its country code
    assert phone_min_digits(["US", "NU"]) == 4  # Niue's 4-digit numbers in national format


def test_the_grouped_context_step_gives_presidios_results(monkeypatch: pytest.MonkeyPatch) -> None:
    from presidio_analyzer import AnalyzerEngine

    analyzer = engine().analyzer
    presidio = analyzer.engine
    assert type(presidio)._enhance_using_context is not AnalyzerEngine._enhance_using_context
    context_texts = ["driver license A1234567", "my passport: 912803456"]
    texts = [text for text in _texts() if text.strip()] + context_texts
    artifacts = [found for _, found in analyzer.nlp_engine.process_batch(texts, "en")]

    def results() -> list[list[tuple]]:
        return [[(r.entity_type, r.start, r.end, round(r.score, 6))
                 for r in presidio.analyze(text, "en", entities=analyzer.entities, nlp_artifacts=found)]
                for text, found in zip(texts, artifacts)]

    grouped = results()
    assert sum(map(len, grouped)) > 200
    with monkeypatch.context() as patch:
        patch.setattr(type(presidio), "_enhance_using_context", AnalyzerEngine._enhance_using_context)
        assert results() == grouped
        # the texts exercise the context step: without it some scores differ
        patch.setattr(presidio.context_aware_enhancer, "enhance_using_context",
                      lambda *args, **kwargs: kwargs["raw_results"])
        assert results() != grouped


def test_a_batch_analysed_recognizer_by_recognizer_gives_presidios_results_text_by_text() -> None:
    analyzer = engine().analyzer
    presidio = analyzer.engine
    context_texts = ["driver license A1234567", "my passport: 912803456"]
    texts = [text for text in _texts() if text.strip()] + context_texts
    items = list(analyzer.nlp_engine.process_batch(texts, "en"))

    def kept(results: list) -> list[tuple]:
        return [(r.entity_type, r.start, r.end, round(r.score, 6), r.recognition_metadata["recognizer_name"],
                 r.analysis_explanation) for r in results]

    one_by_one = [kept(presidio.analyze(text, "en", entities=analyzer.entities, nlp_artifacts=found,
                                        score_threshold=analyzer._min_threshold)) for text, found in items]
    items = list(analyzer.nlp_engine.process_batch(texts, "en"))  # artifacts are read lazily: fresh ones
    together = [kept(results) for results in presidio.analyze_many(
        items, "en", analyzer.entities, analyzer._min_threshold)]
    assert together == one_by_one
    assert sum(map(len, together)) > 200 and len({found[4] for text in together for found in text}) > 10
    # and what the batch path of the analyzer hands on is what it finds text by text
    batch = dict(analyzer.analyze_batch(texts[:300]))
    assert [batch[text] for text in texts[:300]] == [analyzer.analyze(text) for text in texts[:300]]


PHONE_REGIONS = ["US", "GB", "DE", "AT", "FR", "FI", "HU", "EE", "CY", "JP", "IN", "BR", "NU", "AU", "CN"]


def _phone_texts() -> list[str]:
    """libphonenumber's example numbers of many regions in every format it writes, in sentences, with
    the separators its matcher allows (dots, slashes, an "x", full-width digits, an extension)."""
    import phonenumbers
    from phonenumbers import PhoneNumberFormat

    texts = []
    for region in PHONE_REGIONS:
        for kind in (phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE):
            number = phonenumbers.example_number_for_type(region, kind)
            if number is None:
                continue
            for style in (PhoneNumberFormat.E164, PhoneNumberFormat.INTERNATIONAL, PhoneNumberFormat.NATIONAL,
                          PhoneNumberFormat.RFC3966):
                written = phonenumbers.format_number(number, style)
                texts += [f"call me at {written} today", f"tel {written.replace(' ', '.')}",
                          f"fax: {written.replace(' ', '/')}", f"({written.replace(' ', ' x ')})",
                          f"{written.replace(' ', '')} ext. 12",
                          written.translate(str.maketrans("0123456789", "０１２３４５６７８９"))]
    return texts


def test_the_phone_gate_lets_through_every_text_a_phone_number_is_found_in() -> None:
    from presidio_analyzer.predefined_recognizers import PhoneRecognizer

    from scrubbers.speed.gates import phone_chain

    recognizer = PhoneRecognizer(supported_regions=PHONE_REGIONS)
    chain = phone_chain(phone_min_digits(PHONE_REGIONS))
    texts = [*_phone_texts(), *CRAFTED]
    found = [text for text in texts if recognizer.analyze(text, ["PHONE_NUMBER"])]
    assert len(found) > 300  # the corpus does hold numbers the matcher finds, in many shapes
    assert [text for text in found if chain.search(text) is None] == []
    # and it shuts on texts with digits but too few in a row for a number: figures, citations, amounts
    for text in ("62.5 hours", "policy HR-7.2 of 2026", "€1,250.00 per pay period", "3 of 12, 40 left"):
        assert phone_chain(phone_min_digits(["US"])).search(text) is None, text


def test_the_phone_gate_never_opens(gated: list) -> None:
    phone = next(r for r in gated if type(r).__name__ == "PhoneRecognizer").analyze
    entities = engine().analyzer.entities
    for _ in range(2 * _Gated.TRIAL):  # every text passes: a gate that may open would open now
        phone("call 415 555 0134", entities)
    assert not phone.open
    calls = []
    shut = _Gated(lambda *args: calls.append(args) or [], phone.can_match, opens=False)
    for _ in range(2 * _Gated.TRIAL):
        shut("call 415 555 0134", [])
    assert shut("62.5 hours", []) == [] and len(calls) == 2 * _Gated.TRIAL


def test_lazy_artifacts_give_what_presidios_artifacts_hold() -> None:
    from presidio_analyzer.nlp_engine import NlpArtifacts

    nlp_engine = engine().analyzer.nlp_engine
    # the last texts: a keyword that is no token ("http" of "http://the.com"), non-Latin and space tokens
    texts = [text for text in _texts() if text.strip()][:200]
    texts += ["see http://the.com", "Ünïcode 東京 —  "]
    for text, lazy in nlp_engine.process_batch(texts, "en", batch_size=64):
        doc = lazy.tokens
        lemmas = [token.lemma_ or token.lower_ for token in doc]
        eager = NlpArtifacts(lazy.entities, doc, [token.idx for token in doc], lemmas, nlp_engine, "en",
                             lazy.scores)
        assert type(lazy).__name__ == "LazyArtifacts"
        assert (lazy.lemmas, lazy.tokens_indices, lazy.keywords) == (
            eager.lemmas, eager.tokens_indices, eager.keywords), text
        assert lazy.tokens_indices.ends == [token.idx + len(token) for token in doc], text
        # the context step asks `lemma in keywords`: the set must answer as Presidio's list does
        for word in [*lemmas, "", "zzz-not-there", "http"]:
            assert (word in lazy.keywords) == (word in list(eager.keywords)), (text, word)
        if text == "see http://the.com":
            keywords_of_url, lemmas_of_url = lazy.keywords, lazy.lemmas
    assert "http" in keywords_of_url and "http" not in lemmas_of_url


def test_token_lookup_by_bisection_is_presidios_walk() -> None:
    # The context step asks for the token at each result's start: Presidio walks the tokens from the
    # first; ours bisects their ends. Every offset of real texts (inside tokens, on spaces, past the end).
    from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer

    from scrubbers.analysis.presidio_adapter import InPlaceContextEnhancer

    def answer(find, *args):  # type: ignore[no-untyped-def]
        try:
            return find(*args)
        except ValueError:
            return "not found"

    nlp_engine = engine().analyzer.nlp_engine
    texts = [text for text in _texts() if text.strip()][:200] + ["  leading  and trailing  ", "x"]
    checked = 0
    for text, lazy in nlp_engine.process_batch(texts, "en", batch_size=64):
        starts = lazy.tokens_indices
        for start in range(len(text) + 2):
            walked = answer(LemmaContextAwareEnhancer._find_index_of_match_token, "w", start, lazy.tokens,
                            list(starts))
            assert answer(InPlaceContextEnhancer._find_index_of_match_token, "w", start, lazy.tokens,
                          starts) == walked, (text, start)
            checked += walked != "not found"
    assert checked > 1000
