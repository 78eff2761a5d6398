"""What our recognizers share: Presidio's `LocalRecognizer` plumbing, written once.

A recognizer of ours says which entities it finds (`ENTITIES`), its name (`NAME`) and how it finds them
(`find`); the entity check, the `RecognizerResult`s and a `load` with nothing to load are here. What a
recognizer reads (name lists, regions, the suffix list) is set up in its own `__init__`, before this one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from presidio_analyzer import LocalRecognizer, RecognizerResult

Found = tuple[str, int, int, float]
"""(entity, start, end, score) of one finding."""
Span = tuple[int, int, float]
"""(start, end, score) of one finding of a recognizer of one entity."""


class OwnRecognizer(LocalRecognizer):
    """A recognizer of ours (see the module docstring)."""

    ENTITIES: ClassVar[tuple[str, ...]]
    """The entities it finds."""
    NAME: ClassVar[str]
    """Its name in Presidio's results and logs."""

    def __init__(self) -> None:
        super().__init__(supported_entities=list(self.ENTITIES), name=self.NAME, supported_language="en")

    def load(self) -> None:
        """Nothing to load: what the recognizer reads is set up in its `__init__` (and shared)."""

    def analyze(  # type: ignore[override]
            self, text: str, entities: list[str], nlp_artifacts=None) -> list[RecognizerResult]:
        wanted = frozenset(entity for entity in self.ENTITIES if entity in entities)
        if not wanted:
            return []
        return [RecognizerResult(entity, start, end, score)
                for entity, start, end, score in self.find(text, wanted)]

    def find(self, text: str, wanted: frozenset[str]) -> Iterable[Found]:
        """What it finds in `text` of the `wanted` entities (never empty)."""
        raise NotImplementedError


class OneEntityRecognizer(OwnRecognizer):
    """A recognizer of one entity, which finds spans of it (`spans`)."""

    ENTITY: ClassVar[str]
    """The one entity it finds."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "ENTITY" in cls.__dict__:
            cls.ENTITIES = (cls.ENTITY,)

    def find(self, text: str, wanted: frozenset[str]) -> Iterable[Found]:
        return ((self.ENTITY, start, end, score) for start, end, score in self.spans(text))

    def spans(self, text: str) -> Iterable[Span]:
        """Where the entity is in `text`, with a score for each."""
        raise NotImplementedError
