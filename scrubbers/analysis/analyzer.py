"""Finding personal data in one text: the tuned Presidio analyzer plus the policy's own rules.

Everything here depends only on the text and the policy (never on the trace), so results can be cached
by text and shared between traces; per-trace knowledge (known values, placeholders) lives in `context`.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterable, Iterator
from typing import NamedTuple, TypeVar

import regex
from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NerModelConfiguration, NlpArtifacts
from presidio_analyzer.predefined_recognizers import (
    AbaRoutingRecognizer,
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    PhoneRecognizer,
    SpacyRecognizer,
    UsBankRecognizer,
    UsLicenseRecognizer,
    UsPassportRecognizer,
    UsSsnRecognizer,
)
from spacy.tokens import Doc

from scrubbers.trace_state.context import DIGIT_ENTITIES, PLACEHOLDER
from scrubbers.speed import gate_recognizers
from scrubbers.speed import Masked, mask
from scrubbers.policy import ScrubPolicy
from scrubbers.analysis.presidio_adapter import (
    GroupedAnalyzerEngine,
    InPlaceContextEnhancer,
    LazyArtifacts,
    NerOnlySpacyEngine,
    SettledRegistry,
)
from scrubbers.recognizers.registry import Refiner, build_recognizers
from scrubbers.structure.decoding import normalise_key

LANGUAGE = "en"
BLOB = "BLOB"
VOCABULARY_RELOAD_TEXTS = 20_000
"""Texts analysed through `nlp.pipe` before the model is reloaded (see `Analyzer._fresh_vocabulary`)."""
_MASKED_TEXTS_AT_ONCE = 1_024  # texts analysed together with NER reading them masked (bounds memory)

# Presidio's e-mail pattern with its mailbox classes stripped of the URL delimiters they let in ("#&/=?",
# which no mailbox anyone uses holds): with them, in `…/people?email=ghallman@acme-retail.com` the match
# starts at the URL's host, and the domain check Presidio runs on the whole match fails for an internal
# host (the address was kept) or passes for a public one (the URL went into the placeholder).
_EMAIL = Pattern("Email (Medium)", EmailRecognizer.PATTERNS[0].regex.replace(
    "!#$%&'*+\\-/=?^_", "!$%'*+\\-^_"), EmailRecognizer.PATTERNS[0].score)

_PRESIDIO_RECOGNIZERS = {
    "EMAIL_ADDRESS": lambda policy: EmailRecognizer(patterns=[_EMAIL]),
    "PHONE_NUMBER": lambda policy: PhoneRecognizer(supported_regions=policy.phone_regions),
    "US_SSN": lambda policy: UsSsnRecognizer(),
    "CREDIT_CARD": lambda policy: CreditCardRecognizer(),
    "IBAN_CODE": lambda policy: IbanRecognizer(),
    "IP_ADDRESS": lambda policy: IpRecognizer(),
    "US_BANK_NUMBER": lambda policy: UsBankRecognizer(),
    "ABA_ROUTING_NUMBER": lambda policy: AbaRoutingRecognizer(),
    "US_DRIVER_LICENSE": lambda policy: UsLicenseRecognizer(),
    "US_PASSPORT": lambda policy: UsPassportRecognizer(),
}
# `"key": "value"` / `'key': 'value'` / `\"key\": \"value\"` / `key=value` in text that did not decode
# (truncated JSON, JSON escaped inside another string, logs): the value is judged by its key.
_RAW_KEY_VALUE = regex.compile(
    r"""(?<![\w.-])(?P<q>\\*["']?)(?P<key>[A-Za-z_][\w.-]{0,63})(?P=q)\s*(?P<sep>[:=])\s*"""
    r"""(?:(?P<vq>\\*["'])(?P<val>(?:(?!(?P=vq)).){1,512}?)(?P=vq)|(?P<num>-?\d[\d .-]{2,30}\d)"""
    r"""|(?P<bare>[^\s,;&"'<>()\[\]{}\\]{1,128}))"""
)
# An unquoted value (`username=ghallman`, `user_id: u88645` in a log line) is judged by a key rule only
# where the whole key matches it: a key's last part alone would take `k8s.pod.name=payments-api` for a
# person, and a bare `name` names resources in logs as often as people.
_GENERIC_KEYS = frozenset({"name", "names"})
# who did a thing is a user name in a log's `user=mcosta`; after a colon the same words head a transcript's
# line or a label ("User: what's my balance", "owner: Identity team")
_EQUALS_ONLY_KEYS = frozenset({"user", "owner", "actor", "reporter"})
_DIGIT = regex.compile(r"\d")
_ALNUM = regex.compile(r"[\p{L}\p{N}]")
_ELEMENT_INDEX = regex.compile(r"(?:\.\d+)+$")
BARE_VALUE_SCORE = 0.6
"""Of an unquoted value a key rule takes: at least every entity threshold of the default policy."""


class Detection(NamedTuple):
    """A span of personal data: [start, end) of `entity`, with a confidence score."""

    start: int
    end: int
    entity: str
    score: float


class Analyzer:
    """The tuned analyzer of one policy; loads the spaCy model once."""

    def __init__(self, policy: ScrubPolicy, model_name: str):
        self.policy = policy
        ner_config = NerModelConfiguration(labels_to_ignore=policy.labels_to_ignore)
        self.nlp_engine = NerOnlySpacyEngine(
            models=[{"lang_code": LANGUAGE, "model_name": model_name}], ner_model_configuration=ner_config
        )
        self.nlp_engine.load()
        registry = SettledRegistry(supported_languages=[LANGUAGE])
        wanted = set(policy.entities)
        for recognizer in policy_recognizers(policy):
            registry.add_recognizer(recognizer)
        gate_recognizers(registry.recognizers)
        self.engine = GroupedAnalyzerEngine(registry=registry, nlp_engine=self.nlp_engine,
                                             supported_languages=[LANGUAGE],
                                             context_aware_enhancer=InPlaceContextEnhancer())
        supported = {entity for r in registry.recognizers for entity in r.supported_entities}
        self.entities = sorted(supported & wanted)
        self._recognizers = registry.get_recognizers(language=LANGUAGE, entities=self.entities)
        self._ner_recognizers = [r for r in self._recognizers if isinstance(r, SpacyRecognizer)]
        self._other_recognizers = [r for r in self._recognizers if not isinstance(r, SpacyRecognizer)]
        self._min_threshold = min([policy.score_threshold, *policy.entity_thresholds.values()])
        self._allow = frozenset(policy.allow_terms)
        self._allow_patterns = [regex.compile(pattern) for pattern in policy.allow_patterns]
        self._keep = [regex.compile(pattern) for pattern in policy.keep_patterns]
        self._keep_exempt = frozenset(policy.keep_exempt_entities)
        self._blob = regex.compile(rf"[A-Za-z0-9+/_-]{{{policy.blob_min_chars},}}={{0,2}}")
        self._hints = [(hint, [regex.compile(key) for key in hint.keys]) for hint in policy.key_hints]
        self._exempt_values = _any_of(policy.key_hint_exempt_values)
        self._hint_cache: dict[tuple[str, bool], tuple[str, bool] | None] = {}
        self._texts_since_load = 0
        self._refine = Refiner(policy)

    # key rules -----------------------------------------------------------------------------------
    def key_hint(self, key: str | None, *, whole: bool = False) -> tuple[str, bool] | None:
        """(entity, applies to the subtree) when values under `key` are personal, else None. `whole`: only
        the whole key counts, not its last dotted part, and never a bare `name` (for unquoted log values)."""
        if not key:
            return None
        # an array's elements are keyed `ssn.0`, `phones.1`: the array's key rules them (issue 40)
        key = _ELEMENT_INDEX.sub("", key) or key
        cache_key = (key, whole)
        if cache_key not in self._hint_cache:
            full = normalise_key(key)
            if whole:
                candidates = set() if full in _GENERIC_KEYS else {full}
            else:
                candidates = {full, normalise_key(key.rsplit(".", 1)[-1])}
                # a plural key holds what its singular does: `phone_numbers`, `email_addresses`
                candidates |= {c[:-2] if c.endswith("ses") else c[:-1] for c in candidates if c.endswith("s")}
            found = None
            for hint, patterns in self._hints:
                if any(p.fullmatch(c) for p in patterns for c in candidates):
                    found = (hint.entity, hint.subtree)
                    break
            self._hint_cache[cache_key] = found
        return self._hint_cache[cache_key]

    def hint_exempt(self, value: str) -> bool:
        """A value a key hint never applies to (a snake_case tool name under `name`, a placeholder)."""
        stripped = value.strip()
        return any(p.fullmatch(stripped) for p in self._exempt_values)

    # detection -------------------------------------------------------------------------------------
    def blobs(self, text: str) -> list[Detection]:
        """Long base64/hex runs (images, encoded payloads): redacted whole, never analyzed."""
        return [Detection(m.start(), m.end(), BLOB, 1.0) for m in self._blob.finditer(text)]

    def analyze(self, text: str) -> list[Detection]:
        """All detections in one text (NER on chunks for long texts, patterns only for huge ones)."""
        if len(text) > self.policy.ner_max_chars:
            # too long for NER: every other recognizer (names by the lists and cues, addresses, numbers,
            # patterns) still reads it, chunk by chunk (issue 40: a name there passed before)
            return self._finish(text, self._without_ner_in_chunks(text))
        if len(text) <= self.policy.ner_chunk_chars:
            return self._finish(text, next(self._recognized([text])))
        chunks = list(_chunks(text, self.policy.ner_chunk_chars))
        found: list[Detection] = []
        for (offset, _), in_chunk in zip(chunks, self._recognized([chunk for _, chunk in chunks])):
            found += [d._replace(start=d.start + offset, end=d.end + offset) for d in in_chunk]
        return self._finish(text, found)

    def analyze_without_ner(self, text: str) -> list[Detection]:
        """Detections of every recognizer but NER (the text is tokenised, no model runs): for short texts
        in the shape of a name in code, such as object keys, where NER finds nothing and costs most."""
        return self._finish(text, self._presidio(text, self.nlp_engine.tokens_only(text, LANGUAGE)))

    def analyze_batch(self, texts: list[str]) -> Iterator[tuple[str, list[Detection]]]:
        """(text, detections) for short texts, NER run through `nlp.pipe` batches."""
        self._fresh_vocabulary(len(texts))
        for text, found in zip(texts, self._recognized(texts)):
            yield text, self._finish(text, found)

    def _recognized(self, texts: list[str]) -> Iterator[list[Detection]]:
        """What Presidio's engine (every recognizer, NER's included) finds in each text, in batches:
        NER reads the texts masked (`scrubbers.speed.masking`) unless the policy turns that off."""
        if self.policy.ner_reads_masked and self._ner_recognizers:
            yield from self._recognized_masked(texts)
            return
        batch = self.nlp_engine.process_batch(texts, LANGUAGE, batch_size=self.policy.batch_size)
        # Presidio's recognizers run over a batch at a time, one recognizer after the other (same results)
        for items in _batches(batch, self.policy.batch_size):
            for results in self.engine.analyze_many(items, LANGUAGE, self.entities, self._min_threshold):
                yield _detections(results)

    def _recognized_masked(self, texts: list[str]) -> Iterator[list[Detection]]:
        """`_recognized`, the other recognizers first (on the tokenised text), then NER on each text with
        what they found masked, then NER's recognizer."""
        engine = self.nlp_engine
        for chunk in _batches(texts, _MASKED_TEXTS_AT_ONCE):
            items = [(text, engine.tokens_only(text, LANGUAGE)) for text in chunk]
            others = self.engine.recognize(items, self.entities, self._other_recognizers)
            masked = [mask(text, [(d.start, d.end, d.entity) for d in self._finish(text, _detections(raw))])
                      for (text, _), raw in zip(items, others)]
            self._ner_entities(items, masked)
            ner = self.engine.recognize(items, self.entities, self._ner_recognizers)
            answers = self.engine.settle(items, [mine + theirs for mine, theirs in zip(others, ner)],
                                         self._recognizers, self._min_threshold)
            for results in answers:
                yield _detections(results)

    def _ner_entities(self, items: list[tuple[str, LazyArtifacts]], masked: list[Masked]) -> None:
        """NER's entities of each text, read masked, set on its artifacts; a text where NER's reading
        reaches past a stand-in is read as written instead (`scrubbers.speed.masking`)."""
        engine, batch_size = self.nlp_engine, self.policy.batch_size
        nlp = engine.nlp[LANGUAGE]
        found = engine.sentence_entities.entities(nlp, [m.text for m in masked], batch_size)
        again = [(text, artifacts) for (text, artifacts), masked_text, spans in zip(items, masked, found)
                 if not _place_entities(artifacts.tokens, masked_text, spans)]
        as_written = engine.sentence_entities.entities(nlp, [text for text, _ in again], batch_size)
        for (text, artifacts), spans in zip(again, as_written):
            if not _place_entities(artifacts.tokens, mask(text, []), spans):
                artifacts.tokens = nlp(text)  # not on the text's tokens: run it whole
        for _, artifacts in items:
            engine.with_entities(artifacts)

    def _fresh_vocabulary(self, coming: int) -> None:
        # spaCy adds every new word it reads to the model's vocabulary and never drops one: over a day of
        # traces (every name, id and address is new) that alone grows memory without bound. Reloading
        # the model now and then starts it afresh; the entities found do not depend on it.
        self._texts_since_load += coming
        if self._texts_since_load > VOCABULARY_RELOAD_TEXTS:
            self.nlp_engine.load()
            self._texts_since_load = coming
            gc.collect()  # the old model is a large cyclic graph: free it now, not at some later collection

    def _presidio(self, text: str, artifacts: NlpArtifacts | None) -> list[Detection]:
        return _detections(self.engine.analyze(
            text, LANGUAGE, entities=self.entities, score_threshold=self._min_threshold,
            nlp_artifacts=artifacts))

    def _without_ner_in_chunks(self, text: str) -> list[Detection]:
        found: list[Detection] = []
        for offset, chunk in _chunks(text, self.policy.ner_chunk_chars):
            found += [d._replace(start=d.start + offset, end=d.end + offset)
                      for d in self._presidio(chunk, self.nlp_engine.tokens_only(chunk, LANGUAGE))]
        return found

    def _finish(self, text: str, found: list[Detection]) -> list[Detection]:
        found = found + self._raw_key_values(text)
        keep_spans = [m.span() for pattern in self._keep for m in pattern.finditer(text)] if found else []
        placeholders = [m.span() for m in PLACEHOLDER.finditer(text)] if found else []
        kept = []
        found = self._refine(text, found)  # cut at line breaks, places taken for people dropped
        for d in found:
            surface = text[d.start : d.end].strip()
            if d.score < self.policy.threshold(d.entity) or not surface or surface in self._allow:
                continue
            if any(pattern.fullmatch(surface) for pattern in self._allow_patterns) and not (
                    d.entity == "PERSON" and self._refine.led_by_a_given_name(surface)):
                continue
            if any(s <= d.start and d.end <= e for s, e in placeholders):
                continue
            if d.entity not in self._keep_exempt and any(s <= d.start and d.end <= e for s, e in keep_spans):
                continue
            kept.append(d)
        return kept

    def _raw_key_values(self, text: str) -> list[Detection]:
        if ":" not in text and "=" not in text:
            return []
        found = []
        # overlapped: "enrolled: owner=mcosta" holds a key-value pair inside another's bare value
        for match in _RAW_KEY_VALUE.finditer(text, overlapped=True):
            group = next(name for name in ("val", "num", "bare") if match.group(name) is not None)
            key = match.group("key").lower()
            if group == "bare" and match.group("sep") == ":" and key in _EQUALS_ONLY_KEYS:
                continue
            hint = self.key_hint(match.group("key"), whole=group == "bare")
            if hint is None or self.hint_exempt(match.group(group)):
                continue
            if group == "bare" and hint[0] in DIGIT_ENTITIES and not _DIGIT.search(match.group(group)):
                continue  # "cc: rose wells" is a copy line, not a card: an unquoted number has digits
            if group == "bare" and len(_ALNUM.findall(match.group(group))) < 3:
                continue  # "token:\n1. Open the app": a list's number, no value of one or two characters
            # an unquoted token is surer to be personal than to be that entity: a recognizer's own
            # finding over it names the placeholder (`iban: DE89 3704 …` stays an IBAN), it still goes
            score = BARE_VALUE_SCORE if group == "bare" else 1.0
            found.append(Detection(match.start(group), match.end(group), hint[0], score))
        return found


def policy_recognizers(policy: ScrubPolicy) -> list[EntityRecognizer]:
    """Fresh recognizers of the policy, in registry order: the project's own (spaCy's PERSON filtered,
    names, international values), then Presidio's predefined ones and the policy's patterns it wants."""
    wanted = set(policy.entities)
    recognizers = list(build_recognizers(policy))
    recognizers += [build(policy) for entity, build in _PRESIDIO_RECOGNIZERS.items() if entity in wanted]
    recognizers += [PatternRecognizer(spec.entity, name=spec.name,
                                      patterns=[Pattern(spec.name, spec.regex, spec.score)])
                    for spec in policy.patterns if spec.entity in wanted]
    return recognizers


def _place_entities(doc: Doc, masked: Masked, spans: list[tuple[int, int, str]]) -> bool:
    """Sets NER's entities, found in the masked text, on the document of the text as written; False
    where one reaches past a stand-in (`scrubbers.speed.masking`) or does not land on the text's tokens."""
    entities = []
    for start, end, label in spans:
        if masked.inside(start, end):
            continue  # a value found already
        placed = masked.original(start, end)
        span = None if placed is None else doc.char_span(placed[0], placed[1], label=label)
        if span is None:
            return False
        entities.append(span)
    doc.ents = entities
    return True


def _detections(results: list[RecognizerResult]) -> list[Detection]:
    return [Detection(r.start, r.end, r.entity_type, r.score) for r in results]


T = TypeVar("T")


def _batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """`items` in lists of `size` (the last may be shorter), read as they come."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _any_of(patterns: list[str]) -> list[regex.Pattern]:
    """The regexes as one alternation (it matches a whole text exactly when one of them does), unless one
    sets flags for the whole pattern, which would leak into the others."""
    if len(patterns) < 2 or any(_GLOBAL_FLAGS.search(pattern) for pattern in patterns):
        return [regex.compile(pattern) for pattern in patterns]
    return [regex.compile("|".join(f"(?:{pattern})" for pattern in patterns))]


_GLOBAL_FLAGS = regex.compile(r"\(\?[a-zA-Z]+\)")


def _chunks(text: str, size: int) -> Iterable[tuple[int, str]]:
    """(offset, chunk) pieces of at most `size` characters, cut at a newline or space where possible."""
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            cut = max(text.rfind("\n", start + size // 2, end), text.rfind(" ", start + size // 2, end))
            end = cut + 1 if cut > start else end
        yield start, text[start:end]
        start = end


def quiet_presidio_logs() -> None:
    """Presidio logs at INFO/WARNING about configuration we set on purpose; keep those off stderr."""
    logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)
