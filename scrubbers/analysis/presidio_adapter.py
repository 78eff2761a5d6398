"""Presidio's engine as this project runs it, and the one module that touches Presidio's private API.

spaCy with only NER, artifacts worked out when read, the context step grouped and done in place, the
registry's answers kept, the context step's token lookup by bisection, and a batch of texts run recognizer
by recognizer. Each gives Presidio's own results (tests/test_scrub_gates checks them).

Doing so calls and overrides names Presidio keeps private (its name-mangled `AnalyzerEngine.__…` helpers,
`_enhance_using_context`, the spaCy engine's `_get_…` steps, the context enhancer's token lookup). Every
one is listed in `PRIVATE_API`, with the signature this module was written against, and no other module
may use one: `private_api_problems()` names each that an installed Presidio no longer has as listed
(tests/test_presidio_adapter.py fails on it), so a Presidio upgrade says what to rewrite here.
"""

from __future__ import annotations

import importlib.metadata
import inspect
from bisect import bisect_right
from collections.abc import Iterator
from typing import NamedTuple

import spacy
from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerRegistry, RecognizerResult
from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer
from presidio_analyzer.nlp_engine import NlpArtifacts, SpacyNlpEngine
from spacy.attrs import IDX, LEMMA, LENGTH, LOWER
from spacy.tokens import Doc

from scrubbers.speed import SentenceEntities

_RECOGNIZER_ID = RecognizerResult.RECOGNIZER_IDENTIFIER_KEY

PRESIDIO_VERSION = "2.2.366"
"""The presidio-analyzer release `PRIVATE_API` was read from (pyproject.toml pins the same). On an
upgrade: run tests/test_presidio_adapter.py, rewrite what it names, then move this pin with pyproject's."""


class PrivateName(NamedTuple):
    """One private name of Presidio this module relies on, as `PRESIDIO_VERSION` has it."""

    owner: type
    name: str
    parameters: tuple[str, ...]
    """Its parameter names, in order (`self` included for a method)."""
    use: str
    """What this module does with it: calls it, overrides it, or mirrors it."""
    called_in: str | None = None
    """A method of `owner` whose source must still call it (an override is only heard if it is called)."""


PRIVATE_API: tuple[PrivateName, ...] = (
    PrivateName(AnalyzerEngine, "_AnalyzerEngine__add_recognizer_id_if_not_exists",
                ("results", "recognizer"),
                "called by GroupedAnalyzerEngine.recognize, as analyze() does", "analyze"),
    PrivateName(AnalyzerEngine, "_AnalyzerEngine__remove_low_scores",
                ("self", "results", "score_threshold", "recognizers"),
                "called by GroupedAnalyzerEngine.settle, as analyze() does", "analyze"),
    PrivateName(AnalyzerEngine, "_AnalyzerEngine__remove_decision_process", ("results",),
                "called by GroupedAnalyzerEngine.settle, as analyze() does", "analyze"),
    PrivateName(AnalyzerEngine, "_enhance_using_context",
                ("self", "text", "raw_results", "nlp_artifacts", "recognizers", "context"),
                "overridden by GroupedAnalyzerEngine (grouped context step)", "analyze"),
    PrivateName(SpacyNlpEngine, "_doc_to_nlp_artifact", ("self", "doc", "language"),
                "overridden by NerOnlySpacyEngine (LazyArtifacts)", "process_text"),
    PrivateName(SpacyNlpEngine, "_get_entities", ("self", "doc"),
                "called by NerOnlySpacyEngine.with_entities, as _doc_to_nlp_artifact does",
                "_doc_to_nlp_artifact"),
    PrivateName(SpacyNlpEngine, "_get_scores_for_entities", ("self", "doc"),
                "called by NerOnlySpacyEngine.with_entities, as _doc_to_nlp_artifact does",
                "_doc_to_nlp_artifact"),
    PrivateName(SpacyNlpEngine, "_get_updated_entities", ("self", "entities", "scores"),
                "called by NerOnlySpacyEngine.with_entities, as _doc_to_nlp_artifact does",
                "_doc_to_nlp_artifact"),
    PrivateName(LemmaContextAwareEnhancer, "_find_index_of_match_token",
                ("word", "start", "tokens", "tokens_indices"),
                "overridden and called by InPlaceContextEnhancer (bisection)", "_extract_surrounding_words"),
    PrivateName(NlpArtifacts, "__init__",
                ("self", "entities", "tokens", "tokens_indices", "lemmas", "nlp_engine", "language",
                 "scores"),
                "bypassed by LazyArtifacts, which sets these attributes itself"),
    PrivateName(NlpArtifacts, "set_keywords", ("nlp_engine", "lemmas", "language"), "mirrored by Keywords"),
)


def private_api_problems() -> list[str]:
    """What the installed Presidio no longer has as `PRIVATE_API` lists it, one line each (none: fine)."""
    problems = []
    for item in PRIVATE_API:
        where = f"{item.owner.__module__}.{item.owner.__qualname__}.{item.name}"
        try:
            inspect.getattr_static(item.owner, item.name)
        except AttributeError:
            problems.append(f"{where} is gone; scrubbers.analysis.presidio_adapter relies on it ({item.use})")
            continue
        parameters = tuple(inspect.signature(getattr(item.owner, item.name)).parameters)
        if parameters != item.parameters:
            problems.append(f"{where} takes {parameters}, scrubbers.analysis.presidio_adapter was written "
                            f"for {item.parameters} ({item.use})")
        if item.called_in is not None:
            short = item.name.removeprefix(f"_{item.owner.__name__}")  # a mangled name reads `self.__x`
            caller = getattr(item.owner, item.called_in, None)
            if caller is None or f".{short}(" not in inspect.getsource(caller):
                problems.append(f"{where} is no longer called in {item.owner.__name__}.{item.called_in}; "
                                f"scrubbers.analysis.presidio_adapter relies on that ({item.use})")
    return problems


def installed_presidio() -> str:
    """The installed presidio-analyzer release (compare with `PRESIDIO_VERSION`)."""
    return importlib.metadata.version("presidio-analyzer")


class NerOnlySpacyEngine(SpacyNlpEngine):
    """spaCy with only `ner` running (1.9x faster, same PERSON results, presidio.md section 1).

    Without the lemmatizer `token.lemma_` is empty, which silently turns off Presidio's context words
    ("license", "passport" near a number); lower-cased token text stands in for the lemma.
    """

    def load(self) -> None:
        self.nlp = {}
        for model in self.models:
            name = model["model_name"]
            try:
                nlp = spacy.load(name)
            except OSError:
                raise ValueError(
                    f"spaCy model {name!r} is not installed (install its package, or set "
                    "PROMOTE_SPACY_MODEL / the policy's spacy_model to an installed model)"
                ) from None
            # A transformer pipeline's ner listens to the `transformer` component: keep it.
            keep = {"ner", "transformer", "curated_transformer"}
            for pipe in list(nlp.pipe_names):
                if pipe not in keep:
                    nlp.disable_pipe(pipe)
            self.nlp[model["lang_code"]] = nlp
        self.keyword_forms: dict[str, bool] = {}
        """Whether a lemma counts as one of Presidio's keywords, per lemma read (see `Keywords`)."""
        if not hasattr(self, "sentence_entities"):  # kept over a reload: they do not depend on it
            self.sentence_entities = SentenceEntities()
            """NER's entities by sentence (`scrubbers.speed.sentences`)."""

    def process_text(self, text: str, language: str) -> NlpArtifacts:
        """Presidio's artifacts of one text, NER run sentence by sentence (`scrubbers.speed.sentences`)."""
        return next(self._documents([text], language, 1))[1]

    def process_batch(self, texts, language, batch_size=1, n_process=1,  # type: ignore[no-untyped-def]
                      as_tuples=False):
        """(text, artifacts) of each text, NER run through `nlp.pipe` batches sentence by sentence."""
        if as_tuples or n_process != 1:
            raise ValueError("as_tuples and n_process are not used here")
        return self._documents([str(text) for text in texts], language, batch_size)

    def _documents(self, texts: list[str], language: str, batch_size: int
                   ) -> Iterator[tuple[str, NlpArtifacts]]:
        documents = self.sentence_entities.documents(self.nlp[language], texts, batch_size)
        for text, doc in zip(texts, documents):
            yield text, self._doc_to_nlp_artifact(doc, language)

    def _doc_to_nlp_artifact(self, doc: Doc, language: str) -> NlpArtifacts:
        artifacts = LazyArtifacts([], doc, self, language, None)
        self.with_entities(artifacts)
        return artifacts

    def tokens_only(self, text: str, language: str) -> LazyArtifacts:
        """Artifacts of `text` tokenised, with no entities yet (`with_entities` adds NER's)."""
        return LazyArtifacts([], self.nlp[language].make_doc(text), self, language, None)

    def with_entities(self, artifacts: LazyArtifacts) -> None:
        """Reads NER's entities off the artifacts' document (its `ents`, set since) into them."""
        doc = artifacts.tokens
        artifacts.entities, artifacts.scores = self._get_updated_entities(
            self._get_entities(doc), self._get_scores_for_entities(doc))


class LazyArtifacts(NlpArtifacts):
    """Presidio's artifacts with token offsets, lemmas and keywords worked out when first read.

    Only the context step reads them, for a text where a recognizer with context words found something:
    most texts never need them. They are read off the document's token columns in one `to_array` call
    rather than by building every token, and keywords are looked up in a set (`Keywords`). The same
    values as `NlpArtifacts` computes, on first use.
    """

    def __init__(self, entities: list, doc: Doc, engine: NerOnlySpacyEngine, language: str,
                 scores: list[float] | None):
        self.entities, self.tokens, self.nlp_engine, self.language = entities, doc, engine, language
        self.scores = scores if scores else [0.85] * len(entities)
        self._lemmas: list[str] | None = None
        self._indices: TokenStarts | None = None
        self._keywords: list[str] | None = None
        self._columns: list[list[int]] | None = None

    def _column(self, index: int) -> list[int]:
        if self._columns is None:  # start, length, lower-case form and lemma of every token, by column
            self._columns = self.tokens.to_array([IDX, LENGTH, LOWER, LEMMA]).T.tolist()
        return self._columns[index]

    @property  # type: ignore[override]
    def lemmas(self) -> list[str]:
        if self._lemmas is None:
            # Presidio's `token.lemma_ or token.lower_`: a lemma of 0 is the empty string
            strings = self.tokens.vocab.strings
            self._lemmas = [strings[lemma or lower] for lower, lemma in zip(self._column(2), self._column(3))]
        return self._lemmas

    @property  # type: ignore[override]
    def tokens_indices(self) -> list[int]:
        if self._indices is None:
            self._indices = TokenStarts(self._column(0), self._column(1))
        return self._indices

    @property  # type: ignore[override]
    def keywords(self) -> list[str]:
        if self._keywords is None:
            self._keywords = Keywords(self.nlp_engine, self.lemmas, self.language)
        return self._keywords


class Keywords(list):
    """Presidio's keywords of a text (`NlpArtifacts.set_keywords`: lower-cased lemmas that are neither
    stop words nor punctuation, split at ":"), which the context step tests lemmas against with `in`: on a
    list that is a walk over the whole text for every word of context, so a set answers it instead.
    Whether a lemma is a keyword is asked of the vocabulary once per lemma and model load."""

    def __init__(self, engine: NerOnlySpacyEngine, lemmas: list[str], language: str):
        forms = engine.keyword_forms
        if len(forms) > _KEYWORD_FORMS_MAX:
            forms.clear()
        kept = []
        for lemma in lemmas:
            keep = forms.get(lemma)
            if keep is None:
                keep = forms[lemma] = (
                    not engine.is_stopword(lemma, language) and not engine.is_punct(lemma, language)
                    and lemma != "-PRON-" and lemma != "be")
            if keep:
                kept.append(lemma.lower())
        super().__init__(part for keyword in kept for part in keyword.split(":"))
        self._set = frozenset(self)

    def __contains__(self, word: object) -> bool:
        return word in self._set


_KEYWORD_FORMS_MAX = 200_000


class TokenStarts(list):
    """The start offset of each token (what Presidio's `tokens_indices` holds), and where each ends."""

    def __init__(self, starts: list[int], lengths: list[int]):
        super().__init__(starts)
        self.ends = [start + length for start, length in zip(starts, lengths)]


class _Owned(list):
    """Results this analysis made and will not use again: a deep copy of them is the list itself."""

    def __deepcopy__(self, memo: dict) -> list:
        return list(self)


class InPlaceContextEnhancer(LemmaContextAwareEnhancer):
    """Presidio deep-copies every result (with its explanation objects) before boosting scores by context
    words. The results are fresh per call and never read again, so they are boosted in place."""

    def enhance_using_context(  # type: ignore[override]
            self, text, raw_results, nlp_artifacts, recognizers, context=None):
        return super().enhance_using_context(text, _Owned(raw_results), nlp_artifacts, recognizers, context)

    @staticmethod
    def _find_index_of_match_token(word, start, tokens, tokens_indices):  # type: ignore[no-untyped-def]
        """Presidio's answer (the first token that starts at `start` or ends after it), by bisection:
        Presidio walks the document's tokens from the first for every result, building each one."""
        ends = getattr(tokens_indices, "ends", None)
        if ends is None:
            return LemmaContextAwareEnhancer._find_index_of_match_token(word, start, tokens, tokens_indices)
        # tokens do not overlap and none is empty, so their ends rise, and one starting at `start` ends
        # after it: the first token ending after `start` is the one Presidio's walk stops at
        index = bisect_right(ends, start)
        if index == len(ends):
            raise ValueError(f"Did not find word '{word}' in the list of tokens although it is expected "
                             "to be found")
        return index


class GroupedAnalyzerEngine(AnalyzerEngine):
    """Presidio's engine, with its per-recognizer context step grouped: Presidio splits the results
    into "this recognizer's" and "the others'" for every recognizer (two passes over all results per
    recognizer, about 40 here) only to hand them to `enhance_using_context`, which no recognizer of ours
    overrides. Results are grouped once; a recognizer that keeps the default is skipped (the default
    returns its own results unchanged). Same results, same order.

    `analyze_many` analyses a batch of texts recognizer by recognizer (see there)."""

    def analyze_many(self, items: list[tuple[str, NlpArtifacts]], language: str, entities: list[str],
                     score_threshold: float) -> list[list[RecognizerResult]]:
        """`analyze(text, language, entities=..., score_threshold=..., nlp_artifacts=...)` of each
        (text, artifacts), the same results in the same order, with each recognizer run over the whole
        batch before the next: one recognizer's patterns and code stay warm across the texts, where
        Presidio's text-by-text loop runs some 40 recognizers in turn on each (`benchmarks/README.md`,
        "Speed, ninth round"). Everything after the recognizers is Presidio's own steps, text by text."""
        recognizers = self.registry.get_recognizers(language=language, entities=entities, all_fields=False)
        raw = self.recognize(items, entities, recognizers)
        return self.settle(items, raw, recognizers, score_threshold)

    def recognize(self, items: list[tuple[str, NlpArtifacts]], entities: list[str],
                  recognizers: list[EntityRecognizer]) -> list[list[RecognizerResult]]:
        """The raw results of `recognizers` on each (text, artifacts), one recognizer after the other."""
        raw: list[list[RecognizerResult]] = [[] for _ in items]
        for recognizer in recognizers:
            if not recognizer.is_loaded:
                recognizer.load()
                recognizer.is_loaded = True
            for text_results, (text, artifacts) in zip(raw, items):
                found = recognizer.analyze(text=text, entities=entities, nlp_artifacts=artifacts)
                if found:
                    self._AnalyzerEngine__add_recognizer_id_if_not_exists(found, recognizer)
                    text_results.extend(found)
        return raw

    def settle(self, items: list[tuple[str, NlpArtifacts]], raw: list[list[RecognizerResult]],
               recognizers: list[EntityRecognizer], score_threshold: float) -> list[list[RecognizerResult]]:
        """Presidio's steps after the recognizers (context, low scores, duplicates), text by text."""
        answers = []
        for text_results, (text, artifacts) in zip(raw, items):
            results = self._enhance_using_context(text, text_results, artifacts, recognizers, None)
            results = self._AnalyzerEngine__remove_low_scores(results, score_threshold, recognizers)
            results = EntityRecognizer.remove_duplicates(results)
            answers.append(self._AnalyzerEngine__remove_decision_process(results))
        return answers

    def _enhance_using_context(  # type: ignore[no-untyped-def, override]
            self, text, raw_results, nlp_artifacts, recognizers, context=None):
        mine: dict[str, list] = {}
        for result in raw_results:
            mine.setdefault(result.recognition_metadata[_RECOGNIZER_ID], []).append(result)
        results = []
        for recognizer in recognizers:
            own = mine.get(recognizer.id, [])
            if type(recognizer).enhance_using_context is not EntityRecognizer.enhance_using_context:
                others = [r for r in raw_results if r.recognition_metadata[_RECOGNIZER_ID] != recognizer.id]
                own = recognizer.enhance_using_context(text=text, raw_recognizer_results=own,
                                                       other_raw_recognizer_results=others,
                                                       nlp_artifacts=nlp_artifacts, context=context)
            results.extend(own)
        return self.context_aware_enhancer.enhance_using_context(
            text=text, raw_results=results, nlp_artifacts=nlp_artifacts, recognizers=recognizers,
            context=context)


class SettledRegistry(RecognizerRegistry):
    """Presidio asks the registry which recognizers serve the requested entities on every text; ours
    does not change once set up, so each answer is worked out once (same list, same order)."""

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self._answers: dict[tuple, list] = {}  # keyed with the recognizer count: adding one asks anew

    def get_recognizers(  # type: ignore[no-untyped-def, override]
            self, language=None, entities=None, all_fields=False, ad_hoc_recognizers=None):
        if ad_hoc_recognizers:
            return super().get_recognizers(language, entities, all_fields, ad_hoc_recognizers)
        key = (language, tuple(entities) if entities else None, all_fields, len(self.recognizers))
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = super().get_recognizers(language, entities, all_fields, None)
        return answer
