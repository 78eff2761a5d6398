"""`ScrubEngine`: text and JSON in, scrubbed text and JSON out, with consistent placeholders per trace.

Order of work for one string leaf: a key rule (the value sits under `email`, `ssn`, ...) replaces it
whole; JSON text or a Python repr is decoded, walked and re-encoded the way it came; anything else is
analyzed (cached by text), merged with the trace's known values, and replaced left to right so
placeholders are numbered in reading order. Any failure replaces the string whole: fail closed.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import regex

from scrubbers.analysis import BLOB, Analyzer, Detection, quiet_presidio_logs
from scrubbers.context import PLACEHOLDER, ScrubContext
from scrubbers.policy import LoadedPolicy, load_policy
from scrubbers.report import ScrubReport
from scrubbers.structure import decode, normalise_key

REDACTED = "<REDACTED>"
_SURROGATE = regex.compile(r"[\ud800-\udfff]")
_KNOWN_SCORE = 0.88  # above NER (0.85), below strong patterns: a typed match names the entity


class ScrubEngine:
    """Scrubs strings, JSON values and span attributes under one policy; load once, reuse for every trace."""

    def __init__(self, policy: LoadedPolicy | None = None, *, key: bytes | None = None, nlp_model: str | None = None):
        self.loaded_policy = policy if policy is not None else load_policy()
        self.policy = self.loaded_policy.policy
        self.model_name = nlp_model or os.environ.get("PROMOTE_SPACY_MODEL") or self.policy.spacy_model
        quiet_presidio_logs()
        self.analyzer = Analyzer(self.policy, self.model_name)
        self.report = ScrubReport()
        self.presidio_version = importlib.metadata.version("presidio-analyzer")
        self._key = key
        self._cache: OrderedDict[bytes, list[Detection]] = OrderedDict()
        self._fresh: dict[str, list[Detection] | None] = {}
        self._safe = frozenset(self.policy.safe_attributes)
        self._safe_prefixes = tuple(self.policy.safe_attribute_prefixes)
        self._stopwords = frozenset(self.policy.name_part_stopwords)
        self._exempt_parents = frozenset(normalise_key(k) for k in self.policy.key_hint_exempt_parents)

    def new_context(self) -> ScrubContext:
        """A fresh placeholder mapping and known-value list: one per trace."""
        return ScrubContext(key=self._key, name_part_stopwords=self._stopwords)

    # public API --------------------------------------------------------------------------------------
    def scrub_text(self, text: str, ctx: ScrubContext, *, key: str | None = None) -> str:
        """Scrub one string as prose (no JSON decoding); `key` is the JSON/attribute key it sat under."""
        return _Walk(self, ctx, key).prose(text, self.analyzer.key_hint(key))

    def scrub_value(self, value: Any, ctx: ScrubContext, *, key: str | None = None) -> Any:
        """Scrub any JSON-like value; strings holding JSON or a repr come back encoded the same way."""
        return _Walk(self, ctx, key).value(value, key, self.analyzer.key_hint(key), 0)

    def scrub_attribute(self, key: str, value: Any, ctx: ScrubContext) -> Any:
        """Scrub one span attribute: safe keys pass unchanged, everything else is scrubbed (fail safe)."""
        if self.is_safe_attribute(key):
            self.report.attributes_passed += 1
            return value
        return self.scrub_value(value, ctx, key=key)

    def scrub_many(self, items: Sequence[tuple[ScrubContext, str | None, Any]]) -> list[Any]:
        """`scrub_attribute` over many (context, key, value) items, with NER batched over unique texts.

        Same output as calling `scrub_attribute` item by item, in order (a None key scrubs the value).
        """
        self._analyze_items(items)
        try:
            return [
                self.scrub_value(value, ctx, key=key) if key is None else self.scrub_attribute(key, value, ctx)
                for ctx, key, value in items
            ]
        finally:
            self._fresh.clear()

    def learn(self, items: Sequence[tuple[ScrubContext, str | None, Any]]) -> None:
        """Remember in each item's context every value it holds under a personal key or the analyzer
        finds in it, writing nothing (NER batched and cached as in `scrub_many`).

        Scrubbing the items afterwards then catches a value also where it comes *before* the string it
        was found in (a root span's output listed before the user message that named the person).
        """
        self._analyze_items(items)
        try:
            self._remember_walk(items, detections=True)
        finally:
            self._fresh.clear()

    def harvest(self, items: Sequence[tuple[ScrubContext, str | None, Any]]) -> None:
        """Remember the values under personal keys (no NER, no output) in each item's context.

        The batch scrubber runs this over a whole export so that a trace split over several blocks
        knows, in every block, the names and ids its other blocks hold under `name`, `email`, ...
        """
        self._remember_walk(items, detections=False)

    def _scrubbed_items(self, items: Sequence[tuple[ScrubContext, str | None, Any]]):
        return [(ctx, key, value) for ctx, key, value in items if key is None or not self.is_safe_attribute(key)]

    def _analyze_items(self, items: Sequence[tuple[ScrubContext, str | None, Any]]) -> None:
        texts: dict[str, None] = {}
        for ctx, key, value in self._scrubbed_items(items):
            _Walk(self, ctx, key, collect=texts).value(value, key, self.analyzer.key_hint(key), 0)
        self._analyze_many([text for text in texts if self._cached(text) is None])

    def _remember_walk(self, items: Sequence[tuple[ScrubContext, str | None, Any]], *, detections: bool) -> None:
        for ctx, key, value in self._scrubbed_items(items):
            walk = _Walk(self, ctx, key, collect={}, harvest=True, learn=detections)
            walk.value(value, key, self.analyzer.key_hint(key), 0)

    def hint_exempt_parent(self, key: str) -> bool:
        """True when fields under `key` describe a thing (a plan, a tool), so key hints do not apply."""
        return normalise_key(key) in self._exempt_parents

    def is_safe_attribute(self, key: str) -> bool:
        """True when the policy lists the attribute as never personal."""
        return key in self._safe or key.startswith(self._safe_prefixes)

    # analysis with cache and fail-closed ------------------------------------------------------------
    def detections(self, text: str) -> list[Detection] | None:
        """Detections in a (blob-masked) text, None when analysis failed."""
        if text in self._fresh:
            return self._fresh[text]
        cached = self._cached(text)
        if cached is not None:
            return cached
        try:
            found = self.analyzer.analyze(text)
        except Exception:  # noqa: BLE001 - any analyzer failure must redact, never pass text through
            return None
        self._store(text, found)
        return found

    def _analyze_many(self, texts: list[str]) -> None:
        short = [t for t in texts if len(t) <= self.policy.ner_chunk_chars]
        try:
            for text, found in self.analyzer.analyze_batch(short):
                self._fresh[text] = found
                self._store(text, found)
        except Exception:  # noqa: BLE001 - a failed batch is retried text by text (each fails closed)
            pass
        for text in texts:
            if text not in self._fresh:
                self._fresh[text] = self.detections(text)

    def _cache_key(self, text: str) -> bytes:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()

    def _cached(self, text: str) -> list[Detection] | None:
        key = self._cache_key(text)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
        return found

    def _store(self, text: str, found: list[Detection]) -> None:
        self.report.unique_strings += 1
        if self.policy.cache_size:
            self._cache[self._cache_key(text)] = found
            while len(self._cache) > self.policy.cache_size:
                self._cache.popitem(last=False)


class _Walk:
    """One pass over one value: scrubs it, or (collect mode) only gathers the texts it would analyze."""

    def __init__(
        self, engine: ScrubEngine, ctx: ScrubContext, label: str | None, collect: dict[str, None] | None = None,
        harvest: bool = False, learn: bool = False,
    ):
        self.engine, self.ctx, self.label, self.collect = engine, ctx, label, collect
        self.harvest = harvest  # collect mode that also remembers values under personal keys
        self.learn = learn  # ... and what the (already run) analysis found in prose
        self.analyzer, self.report = engine.analyzer, engine.report

    def value(self, value: Any, key: str | None, hint: tuple[str, bool] | None, depth: int) -> Any:
        if depth > self.engine.policy.max_depth:
            if self.collect is None:
                self.report.too_deep += 1
            return REDACTED
        if isinstance(value, dict):
            if _is_schema(value):  # a JSON schema describes fields; its leaves are never personal data
                hint, exempt = None, True
            else:
                exempt = key is not None and self.engine.hint_exempt_parent(key)
                exempt = exempt or any(sibling in value for sibling in self.engine.policy.key_hint_exempt_siblings)
            return {
                k: self.value(v, str(k), self._child_hint(str(k), hint, exempt), depth + 1) for k, v in value.items()
            }
        if isinstance(value, (list, tuple)):
            walked = [self.value(item, key, hint, depth + 1) for item in value]
            return walked if isinstance(value, list) else type(value)(walked)
        if isinstance(value, str):
            return self.string(value, hint, depth)
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, (int, float)):
            if hint is None or self.collect is not None:
                return value
            return self._replace_whole(str(value), hint[0])
        if isinstance(value, (bytes, bytearray)):
            return self.string(bytes(value).decode("utf-8", "surrogateescape"), hint, depth)
        return self.string(str(value), hint, depth)  # unknown objects: their text, scrubbed

    def _child_hint(self, key: str, parent: tuple[str, bool] | None, exempt: bool) -> tuple[str, bool] | None:
        if parent is not None and parent[1]:
            return parent
        return None if exempt else self.analyzer.key_hint(key)

    def string(self, text: str, hint: tuple[str, bool] | None, depth: int) -> str:
        if self.collect is None:
            self.report.strings += 1
        if not text:
            return text
        text = self._valid_unicode(text)
        if hint is not None and not self.analyzer.hint_exempt(text):
            if self.harvest:
                self.ctx.remember(hint[0], text)
            return text if self.collect is not None else self._replace_whole(text, hint[0])
        try:
            decoded = decode(text)
        except ValueError:
            if self.collect is None:
                self.report.too_deep += 1
            return REDACTED
        if decoded is None:
            return self.prose(text, None)
        obj, encode = decoded
        walked = self.value(obj, None, None, depth + 1)
        if self.collect is not None:
            return text
        self.report.json_strings += 1
        try:
            return encode(walked)
        except (ValueError, TypeError, RecursionError):
            self.report.redacted_on_error += 1
            return REDACTED

    def prose(self, text: str, hint: tuple[str, bool] | None) -> str:
        text = self._valid_unicode(text)
        if hint is not None and not self.analyzer.hint_exempt(text):
            if self.harvest:
                self.ctx.remember(hint[0], text)
            return self._replace_whole(text, hint[0]) if self.collect is None else text
        blobs = self.analyzer.blobs(text)
        masked = text
        for blob in blobs:
            masked = masked[: blob.start] + " " * (blob.end - blob.start) + masked[blob.end :]
        if self.collect is not None:
            if masked.strip():
                self.collect[masked] = None
                if self.learn:
                    for found in self.engine.detections(masked) or []:
                        self.ctx.remember(found.entity, masked[found.start : found.end], detected=True)
            return text
        if len(masked) > self.engine.policy.ner_max_chars:
            self.report.ner_skipped += 1
        found = self.engine.detections(masked) if masked.strip() else []
        if found is None:
            self.report.redacted_on_error += 1
            return REDACTED
        known = [Detection(s, e, entity, _KNOWN_SCORE) for s, e, entity in self.ctx.known_matches(masked)]
        return self._replace(text, blobs + found + known)

    def _valid_unicode(self, text: str) -> str:
        if _SURROGATE.search(text) is None:
            return text
        if self.collect is None:
            self.report.invalid_unicode += 1
        return _SURROGATE.sub("\ufffd", text)

    def _replace_whole(self, text: str, entity: str) -> str:
        if PLACEHOLDER.fullmatch(text.strip()):
            return text
        token = self.ctx.placeholder(entity, text)
        self.ctx.remember(entity, text)
        self.report.count_entity(entity, self.label)
        return token

    def _replace(self, text: str, found: list[Detection]) -> str:
        if not found:
            return text
        groups: list[list[Any]] = []  # [start, end, best detection]
        for d in sorted(found, key=lambda d: (d.start, -d.end)):
            if groups and d.start < groups[-1][1]:
                group = groups[-1]
                group[1] = max(group[1], d.end)
                if _rank(d) > _rank(group[2]):
                    group[2] = d
            else:
                groups.append([d.start, d.end, d])
        pieces, position = [], 0
        for start, end, best in groups:
            if best.entity == BLOB:
                token = "<BLOB>"
                self.report.blobs_redacted += 1
            else:
                surface = text[start:end]
                token = self.ctx.placeholder(best.entity, surface)
                self.ctx.remember(best.entity, surface, detected=best.score != _KNOWN_SCORE)
                self.report.count_entity(best.entity, self.label)
            pieces += [text[position:start], token]
            position = end
        pieces.append(text[position:])
        return "".join(pieces)


_SCHEMA_TYPES = frozenset({"string", "object", "array", "integer", "number", "boolean", "null"})


def _is_schema(node: dict[Any, Any]) -> bool:
    kind = node.get("type")
    return isinstance(kind, str) and kind.lower() in _SCHEMA_TYPES and len(node) > 1


def _rank(d: Detection) -> tuple[bool, float, int]:
    return (d.entity == BLOB, d.score, d.end - d.start)
