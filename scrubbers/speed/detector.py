"""Detections by text, fail closed: this call's batch first, then the bounded cache, then the analyzer.

Everything the analyzer finds depends on the text and the policy alone, so one text is analysed once per
engine however many traces write it; a text whose analysis fails gets None, which the engine redacts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from scrubbers.analysis.analyzer import Analyzer, Detection
from scrubbers.speed.caches import DetectionCache
from scrubbers.policy import ScrubPolicy


class Detector:
    """The analyzer of one engine behind its caches."""

    def __init__(self, analyzer: Analyzer, policy: ScrubPolicy, on_analysed: Callable[[], None]):
        self.analyzer = analyzer
        self.cache: DetectionCache[list[Detection]] = DetectionCache(policy.cache_size)
        self.fresh: dict[str, list[Detection] | None] = {}
        """The detections of the texts of the current call (None: analysis failed)."""
        self._chunk_chars = policy.ner_chunk_chars
        self._on_analysed = on_analysed

    def detections(self, text: str) -> list[Detection] | None:
        """Detections in a (blob-masked) text, None when analysis failed."""
        if text in self.fresh:
            return self.fresh[text]
        cached = self.cache.get(text)
        if cached is not None:
            return cached
        try:
            found = self.analyzer.analyze(text)
        except Exception:  # noqa: BLE001 - any analyzer failure must redact, never pass text through
            return None
        self._store(text, found)
        return found

    def prepare(self, texts: Iterable[str]) -> None:
        """Analyse the texts not known yet, the short ones through `nlp.pipe` batches."""
        todo = []
        for text in texts:
            if text in self.fresh:
                continue
            cached = self.cache.get(text)
            if cached is None:
                todo.append(text)
            else:
                self.fresh[text] = cached
        short = [text for text in todo if len(text) <= self._chunk_chars]
        try:
            for text, found in self.analyzer.analyze_batch(short):
                self.fresh[text] = found
                self._store(text, found)
        except Exception:  # noqa: BLE001 - a failed batch is retried text by text (each fails closed)
            pass
        for text in todo:
            if text not in self.fresh:
                self.fresh[text] = self.detections(text)

    def _store(self, text: str, found: list[Detection]) -> None:
        self._on_analysed()
        self.cache.put(text, found)
