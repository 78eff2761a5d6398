"""The reference path: what the engine is meant to do, with none of its speed machinery.

`ReferenceScrubEngine` runs the same policy steps as `ScrubEngine` (key rules, plans, joins, the project's
recognizers and refiner, known values, placeholders, the output check) but analyses each text on its own
with plain Presidio: an `AnalyzerEngine` over a plain `RecognizerRegistry` holding the policy's
recognizers (no gates), spaCy's whole pipeline run on the whole text (no NER-only engine, no sentence
cache, no masking), and no caches (but plain Presidio's answers, kept by text), no shared plans, no
splicing, no memo, no skipped leaves: every leaf of every value is worked out again. It is slow, and it
is the anchor the fast path is tested equal to (tests/test_scrub_reference.py); `promote scrub --engine
reference` runs it for debugging.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine

from scrubbers.analysis.analyzer import LANGUAGE, Analyzer, Detection, policy_recognizers
from scrubbers.trace_state.context import ScrubContext
from scrubbers.engine import OBJECT_KEY, Item, ScrubEngine
from scrubbers.speed import fill
from scrubbers.structure.plan import Plan, PlanBuilder
from scrubbers.policy import ScrubPolicy


class ReferenceAnalyzer(Analyzer):
    """The policy's rules around plain Presidio, one text at a time."""

    def __init__(self, policy: ScrubPolicy, model_name: str):
        super().__init__(policy, model_name)
        registry = RecognizerRegistry(supported_languages=[LANGUAGE])
        for recognizer in policy_recognizers(policy):
            registry.add_recognizer(recognizer)
        nlp = SpacyNlpEngine(models=[{"lang_code": LANGUAGE, "model_name": model_name}],
                             ner_model_configuration=NerModelConfiguration(
                                 labels_to_ignore=policy.labels_to_ignore))
        nlp.load()
        self.plain = AnalyzerEngine(registry=registry, nlp_engine=nlp, supported_languages=[LANGUAGE])
        self._answers: dict[tuple[str, bool], list[Detection]] = {}

    def _recognized(self, texts: list[str]) -> Iterator[list[Detection]]:
        for text in texts:
            yield self._plain(text, ner=True)

    def _presidio(self, text: str, artifacts: Any) -> list[Detection]:
        """Every recognizer but NER's reading (`analyze_without_ner`, texts too long for NER)."""
        return self._plain(text, ner=False)

    def _plain(self, text: str, *, ner: bool) -> list[Detection]:
        """Plain Presidio's results on `text` (without NER's entities unless `ner`). Kept by text for the
        analyzer's life, unbounded: the one shortcut taken here, since they depend on the text and the
        policy alone (without it the fixture exports take minutes: every model call repeats the whole
        conversation, and every object key is read again)."""
        found = self._answers.get((text, ner))
        if found is None:
            artifacts = self.plain.nlp_engine.process_text(text, LANGUAGE)
            if not ner:
                artifacts.entities, artifacts.scores = [], []
            results = self.plain.analyze(text, LANGUAGE, entities=self.entities,
                                         score_threshold=self._min_threshold, nlp_artifacts=artifacts)
            found = self._answers[(text, ner)] = [Detection(r.start, r.end, r.entity_type, r.score)
                                                  for r in results]
        return found


class _NoSplicing:
    def spliced(self, *args: Any, **kwargs: Any) -> None:
        return None


class _NoMemo(dict):
    """A trace's memo that remembers nothing: every leaf is replaced anew."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


class ReferenceScrubEngine(ScrubEngine):
    """`ScrubEngine`'s policy steps, value by value and text by text, without its speed machinery."""

    analyzer_class = ReferenceAnalyzer

    def new_context(self) -> ScrubContext:
        ctx = super().new_context()
        ctx.memo = _NoMemo()
        return ctx

    def _plan(self, value: Any, key: str | None) -> Plan:
        builder = PlanBuilder(self.policy, self.analyzer)
        builder.splicer = _NoSplicing()  # type: ignore[assignment]
        return builder.key(value) if key is OBJECT_KEY else builder.value(value, key)

    def _analyze(self, plans: list[Plan | None]) -> None:
        """Nothing is analysed ahead: each text is analysed when a leaf asks for it."""

    def _join(self, items: Sequence[Item], plans: Sequence[Plan | None], *, batch: bool) -> None:
        super()._join(items, plans, batch=False)

    def detections(self, text: str) -> list[Detection] | None:
        try:
            return self.analyzer.analyze(text)
        except Exception:  # noqa: BLE001 - fail closed, as the fast path does
            return None

    def _apply(self, plan: Plan, ctx: ScrubContext, label: str | None) -> Any:
        """Every leaf replaced in reading order, then the value rebuilt from all of them."""
        self._tally.strings += len(plan.leaves) + plan.nested
        self._tally.json_strings += plan.nested
        outputs = [self._leaf(leaf, ctx, label) for leaf in plan.leaves]
        return fill(plan.template, plan.leaves, outputs, self._encode_failed, range(len(outputs)), {})
