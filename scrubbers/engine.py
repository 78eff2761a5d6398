"""`ScrubEngine`: text and JSON in, scrubbed text and JSON out, with consistent placeholders per trace.

Order of work for one value: its plan (`scrubbers.structure.plan`: JSON or a repr inside strings decoded,
leaves under personal keys marked; big JSON strings cut at their members, `scrubbers.speed.splice`) is
built once per (key rule, text); every prose leaf is analysed once per text (batched through `nlp.pipe`,
cached), which tells the plan its dirty leaves; then, per trace, each leaf that can change is replaced: a
leaf under a personal key whole, a prose leaf where the analyzer or the trace's known values found
something, left to right so placeholders are numbered in reading order. Any failure replaces the string
whole: fail closed.
"""

from __future__ import annotations

import importlib.metadata
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import regex

from scrubbers.analysis.analyzer import Analyzer, Detection, quiet_presidio_logs
from scrubbers.speed import SizedCache, Sightings
from scrubbers.speed import Detector
from scrubbers.trace_state.context import ScrubContext
from scrubbers.structure.joins import Joiner
from scrubbers.trace_state.output_check import OutputCheck
from scrubbers.speed import fill
from scrubbers.structure.plan import CONST, PROSE, REDACTED, WHOLE, Leaf, Plan, PlanBuilder
from scrubbers.policy import LoadedPolicy, load_policy
from scrubbers.recognizers.lexicon import lexicon
from scrubbers.trace_state.replacing import (KNOWN_SCORE, Done, folded_words, rank, replace_found,
                                              replace_whole)
from scrubbers.report import ScrubReport, Tally

# Plans of strings up to this size are cached across calls (system prompts, tool schemas, repeated
# history); the budget bounds the cache by the characters it holds, so memory stays flat.
_PLAN_CACHE_MAX_TEXT = 20_000
_PLAN_CACHE_CHARS = 1_000_000
_FILLED_MAX = 10_000
_SPLICED_SIGHTINGS = 4_096  # spliced values remembered (by hash) to tell the repeated ones

Item = tuple[ScrubContext, "str | None", Any]
OBJECT_KEY = "(object key)"
"""The key of an item that is an object key of a record (not plain: `is_structure`), planned as a key
(`PlanBuilder.key`); compared by identity, so no attribute key that reads the same is taken for it."""


class Scrubbed(NamedTuple):
    """What one scrub call gave: the scrubbed values, in order, and the counts of that call alone."""

    values: list[Any]
    report: ScrubReport


class ScrubEngine:
    """Scrubs strings, JSON values and span attributes under one policy; load once, reuse for every trace."""

    redacted = REDACTED
    """What a value nothing could be made of is written as."""
    object_key = OBJECT_KEY
    """The key to give `scrub_items` with an item that is an object key of a record."""
    analyzer_class: type[Analyzer] = Analyzer  # plain Presidio in the reference engine (scrubbers.reference)

    def __init__(self, policy: LoadedPolicy | None = None, *, key: bytes | None = None,
                 nlp_model: str | None = None):
        self.loaded_policy = policy if policy is not None else load_policy()
        self.policy = self.loaded_policy.policy
        self.model_name = nlp_model or os.environ.get("PROMOTE_SPACY_MODEL") or self.policy.spacy_model
        quiet_presidio_logs()
        self.analyzer = self.analyzer_class(self.policy, self.model_name)
        self.report = ScrubReport()
        """Running totals of every call (each call also hands back its own counts: see `scrub_items`)."""
        # the current call's counts (see `_call`); the running report between calls
        self._counts = self.report
        self._tally = Tally()
        self._lock = threading.RLock()  # one call at a time: a UI worker and the UI may share an engine
        self.presidio_version = importlib.metadata.version("presidio-analyzer")
        self._key = key
        self._detector = Detector(self.analyzer, self.policy, self._count_analysed)
        self._filled: dict[Any, str] = {}  # changed spliced members' texts, for one `scrub_many` call
        # plans of strings up to _PLAN_CACHE_MAX_TEXT characters (system prompts, tool schemas, history)
        self._plans = SizedCache(_PLAN_CACHE_CHARS, lambda key, plan: plan.size)
        self._spliced_seen = Sightings(_SPLICED_SIGHTINGS)
        self._output_check = OutputCheck()
        self._safe = frozenset(self.policy.safe_attributes)
        self._safe_prefixes = tuple(self.policy.safe_attribute_prefixes)
        self._stopwords = frozenset(self.policy.name_part_stopwords)
        self._common_words = lexicon().english
        self._frequent_words = lexicon().words
        structure = self.policy.structure
        self._safe_value = regex.compile(structure.safe_values)
        self._shapes = {field: regex.compile(structure.shapes[shape])
                        for field, shape in structure.fields.items()}
        self._builder = PlanBuilder(self.policy, self.analyzer)
        self._joiner = Joiner(self.analyzer.key_hint)

    def new_context(self) -> ScrubContext:
        """A fresh placeholder mapping and known-value list: one per trace."""
        return ScrubContext(key=self._key, name_part_stopwords=self._stopwords,
                            common_words=self._common_words, frequent_words=self._frequent_words)

    # public API --------------------------------------------------------------------------------------
    @contextmanager
    def _call(self, counts: ScrubReport | None) -> Iterator[ScrubReport]:
        """One public call: its own counts, added to the running `report` (and to `counts`) at the end."""
        with self._lock:
            outer, outer_tally = self._counts, self._tally
            mine, self._tally = ScrubReport(), Tally()
            self._counts = mine
            try:
                yield mine
            finally:
                self._tally.add_to(mine)
                # the running report, or the counts of the call this one is part of
                self._counts, self._tally = outer, outer_tally
                outer.merge(mine)
                if counts is not None:
                    counts.merge(mine)

    def scrub_text(self, text: str, ctx: ScrubContext, *, key: str | None = None,
                   counts: ScrubReport | None = None) -> str:
        """Scrub one string as prose (no JSON decoding); `key` is the JSON/attribute key it sat under.
        `counts`, when given, receives what this call replaced."""
        with self._call(counts):
            return self._apply(self._builder.prose(text, key), ctx, key)

    def scrub_value(self, value: Any, ctx: ScrubContext, *, key: str | None = None,
                    counts: ScrubReport | None = None) -> Any:
        """Scrub any JSON-like value; strings holding JSON or a repr come back encoded the same way."""
        with self._call(counts):
            plan = self._plan(value, key)
            self._join([(ctx, key, value)], [plan], batch=False)
            return self._apply(plan, ctx, key)

    def scrub_attribute(self, key: str, value: Any, ctx: ScrubContext, *,
                        counts: ScrubReport | None = None) -> Any:
        """Scrub one span attribute: safe keys pass unchanged, everything else is scrubbed (fail safe)."""
        with self._call(counts):
            if self.is_safe_attribute(key) and (type(value) is not str or self._safe_value.fullmatch(value)):
                self._tally.attributes_passed += 1
                return value
            return self._apply(self._plan(value, key), ctx, key)

    def scrub_many(self, items: Sequence[Item], *, learn: bool = False) -> list[Any]:
        """`scrub_items(...).values`."""
        return self.scrub_items(items, learn=learn).values

    def scrub_items(self, items: Sequence[Item], *, learn: bool = False) -> Scrubbed:
        """`scrub_attribute` over many (context, key, value) items, with NER batched over unique texts.

        Same output as calling `scrub_attribute` item by item, in order (a None key scrubs the value).
        With `learn`, every value the items hold under a personal key or the analyzer finds in them is
        first remembered in its item's context, so a value is also caught where it comes *before* the
        string it was found in (a root span's output listed before the user message naming the person).
        Returns the values and this call's counts.
        """
        with self._call(None) as counts:
            plans = self._plans_of(items)
            self._analyze(plans)
            try:
                self._join(items, plans, batch=True)
                for plan in plans:
                    if plan is not None and plan.dirty is None:
                        self._dirty(plan)
                if learn:
                    for (ctx, _, _), plan in zip(items, plans):
                        if plan is not None:
                            self._remember(plan, ctx, detections=True)
                scrubbed = []
                for (ctx, key, value), plan in zip(items, plans):
                    if plan is None:
                        self._tally.attributes_passed += 1
                        scrubbed.append(value)
                    else:
                        scrubbed.append(self._apply(plan, ctx, key))
                return Scrubbed(scrubbed, counts)
            finally:
                self._detector.fresh.clear()
                self._filled.clear()

    def harvest(self, items: Sequence[Item]) -> None:
        """Remember the values under personal keys (no NER, no output) in each item's context.

        The batch scrubber runs this over a whole export so that a trace split over several blocks
        knows, in every block, the names and ids its other blocks hold under `name`, `email`, ...
        """
        with self._call(None):
            for (ctx, _, _), plan in zip(items, self._plans_of(items)):
                if plan is not None:
                    self._remember(plan, ctx, detections=False)

    def leaks(self, text: str, ctx: ScrubContext) -> bool:
        """The output check: whether `text`, about to be written, holds a value `ctx`'s trace is known
        to hold, in any form (read through its disguises, base64 decoded, digits however separated).
        The caller redacts such a field whole (`redacted`) and counts it (`output_check_redacted`)."""
        return self._output_check.leaks(text, ctx)

    def is_structure(self, field: str, value: Any) -> bool:
        """True when the record field `field` is on the policy's structural allow list and `value` has
        its shape (an id, a time, a kind): such a value is written as it is."""
        if field == "key":  # the shape of a name in code, and nothing personal found in it
            return type(value) is str and self._builder.rules.plain_key(value)
        shape = self._shapes.get(field)
        return shape is not None and shape.fullmatch(value if type(value) is str else str(value)) is not None

    def is_safe_attribute(self, key: str) -> bool:
        """True when the policy lists the attribute as never personal."""
        return key in self._safe or key.startswith(self._safe_prefixes)

    # plans ---------------------------------------------------------------------------------------------
    def _plans_of(self, items: Sequence[Item]) -> list[Plan | None]:
        key_hint, safe_value = self.analyzer.key_hint, self._safe_value.fullmatch
        is_safe = self.is_safe_attribute
        return [None if (key is not None and is_safe(key)
                         and (type(value) is not str or safe_value(value) is not None))
                or (type(value) in (int, float) and key_hint(key) is None)  # a number no key makes personal
                else self._plan(value, key)
                for _, key, value in items]

    def _plan(self, value: Any, key: str | None) -> Plan:
        if key is OBJECT_KEY:
            cache_key: tuple = (OBJECT_KEY, value)
        elif not isinstance(value, str) or len(value) > _PLAN_CACHE_MAX_TEXT:
            return self._builder.value(value, key)
        else:
            cache_key = (self.analyzer.key_hint(key), value)
        plan = self._plans.get(cache_key)
        if plan is None:
            plan = self._builder.key(value) if key is OBJECT_KEY else self._builder.value(value, key)
            # A spliced value is cached from its second sighting on: a model request is seen once (each
            # call adds to the conversation, and its members are shared already), while tool
            # declarations come back in every call of every trace.
            if plan.parts is None or self._spliced_seen.again(cache_key):
                self._plans.put(cache_key, plan)
        return plan

    def _join(self, items: Sequence[Item], plans: Sequence[Plan | None], *, batch: bool) -> None:
        """Values split across adjacent parts or fields of a message (`scrubbers.structure.joins`): each
        border worth reading is analysed joined (in one batch), and what crosses it is known to the trace."""
        found = self._joiner.windows(items, plans)
        if found:
            if batch:
                self._detector.prepare(dict.fromkeys(window.text for _, window in found))
            self._joiner.learn(found, self.detections)

    def _remember(self, plan: Plan, ctx: ScrubContext, *, detections: bool) -> None:
        # After analysis only the dirty leaves can hold anything to learn; before it (harvest), every leaf.
        leaves = plan.leaves
        for index in range(len(leaves)) if plan.dirty is None else plan.dirty:
            leaf = leaves[index]
            if leaf.kind == WHOLE and not leaf.numeric:
                ctx.remember(leaf.entity or "", leaf.text)
            elif detections and leaf.kind == PROSE and leaf.text not in ctx.learned and leaf.masked.strip():
                ctx.learned.add(leaf.text)
                view = leaf.view
                for text in (view.text, *(decoded.text for decoded in view.decoded)):
                    for found in self.detections(text) or []:
                        ctx.remember(found.entity, text[found.start : found.end], detected=True)

    def _apply(self, plan: Plan, ctx: ScrubContext, label: str | None) -> Any:
        tally = self._tally
        tally.strings += len(plan.leaves) + plan.nested
        tally.json_strings += plan.nested
        dirty = plan.dirty if plan.dirty is not None else self._dirty(plan)
        if not dirty and plan.source is not None and not ctx.might_match(plan.words):
            # System prompts, tool schemas, history without personal data: shared by every trace and
            # unchanged unless one of this trace's known values occurs in them.
            return plan.source
        # Only the dirty leaves and those a known value may occur in can change. A leaf can teach the
        # trace a new value, which may occur in a later leaf: then the rest of the plan is looked at again.
        leaves, outputs, visited, start = plan.leaves, plan.texts.copy(), [], 0
        while start is not None:
            version, todo, start = ctx.version, self._to_visit(plan, ctx, start), None
            for index in todo:
                outputs[index] = self._leaf(leaves[index], ctx, label)
                visited.append(index)
                if ctx.version != version:
                    start = index + 1
                    break
        if len(self._filled) > _FILLED_MAX:  # (one-by-one callers never reach the clearing in `scrub_many`)
            self._filled.clear()
        return fill(plan.template, leaves, outputs, self._encode_failed, visited, self._filled)

    def _to_visit(self, plan: Plan, ctx: ScrubContext, start: int) -> Sequence[int]:
        """Indices from `start` on of the leaves that may change in this trace as it stands, in order."""
        if ctx.might_match(plan.words) and plan.parts is not None:
            # member by member: most members hold none of the known values
            return [offset + index for offset, part in plan.parts if offset + len(part.leaves) > start
                    for index in self._to_visit(part, ctx, max(0, start - offset))]
        dirty = [index for index in plan.dirty if index >= start] if start else plan.dirty
        if not ctx.might_match(plan.words):
            return dirty
        leaves = plan.leaves
        known = [index for index in range(start, len(leaves))
                 if leaves[index].kind == PROSE and ctx.might_match(leaves[index].words)]
        return sorted({*dirty, *known}) if dirty and known else dirty or known

    def _dirty(self, plan: Plan) -> tuple[int, ...]:
        if plan.parts is not None:  # a spliced string: its shared members know theirs
            dirty = [offset + index for offset, part in plan.parts
                     for index in (part.dirty if part.dirty is not None else self._dirty(part))]
            return plan.settle_dirty(dirty)
        limit = self.policy.ner_max_chars
        return plan.settle_dirty([
            index for index, leaf in enumerate(plan.leaves)
            if leaf.kind != PROSE or leaf.fixed_unicode or leaf.blobs or len(leaf.masked) > limit
            or (leaf.masked.strip() and self.detections(leaf.view.text) != [])
            or any(self.detections(decoded.text) != [] for decoded in leaf.view.decoded)
        ])

    def _encode_failed(self) -> str:
        self._counts.redacted_on_error += 1
        return REDACTED

    # one leaf ------------------------------------------------------------------------------------------
    def _leaf(self, leaf: Leaf, ctx: ScrubContext, label: str | None) -> str:
        report = self._counts
        if leaf.fixed_unicode:
            report.invalid_unicode += 1
        if leaf.kind == CONST:
            counter = leaf.counter or "redacted_on_error"
            setattr(report, counter, getattr(report, counter) + 1)
            return leaf.text
        key = leaf.text if leaf.kind == PROSE else (leaf.entity or "", leaf.text)
        done = ctx.memo.get(key)
        if done is None:
            version = ctx.version
            done = replace_whole(leaf, ctx) if leaf.kind == WHOLE else self._prose(leaf, ctx)
            if done is None:  # analysis failed: fail closed
                report.redacted_on_error += 1
                ctx.note_replaced(REDACTED, leaf.text)
                return REDACTED
            # The same text in the same trace state gives the same output and counts; any new known value
            # empties the memo. A text too long for NER is counted as skipped each time, so it is not kept.
            if ctx.version == version and (
                    leaf.kind == WHOLE or len(leaf.masked) <= self.policy.ner_max_chars):
                ctx.memo[key] = done
        output, entities, blobs = done
        for entity in entities:
            report.count_entity(entity, label)
        if blobs:
            report.blobs_redacted += blobs
        # `None`: unchanged. Hand back this leaf's own string, so that `fill` sees by identity that nothing
        # changed and keeps the enclosing JSON as it was, without re-encoding it.
        return leaf.text if output is None else output

    def _prose(self, leaf: Leaf, ctx: ScrubContext) -> Done | None:
        """Prose: what the analyzer and the trace's known values find in it, read through its disguises
        (`scrubbers.structure.disguise`) and replaced in the original; None when analysis failed."""
        masked, view = leaf.masked, leaf.view
        if len(masked) > self.policy.ner_max_chars:
            self._counts.ner_skipped += 1
        found = self.detections(view.text) if view.text.strip() else []
        if found is None:
            return None
        known = ctx.known_matches(view.text, leaf.words)
        if view.begin is not None:  # detected in the view: replaced where it sits in the original
            found = [Detection(*view.span(d.start, d.end), d.entity, d.score) for d in found]
            known = [(*view.span(start, end), entity) for start, end, entity in known]
        # A new list: `found` may be the analysis cache's own, shared by every trace that writes this text.
        found = found + [Detection(start, end, entity, KNOWN_SCORE) for start, end, entity in known]
        surfaces: dict[tuple[int, int], str] = {}
        for decoded in view.decoded:  # base64 of text: scanned decoded, redacted whole on a hit
            hits = self.detections(decoded.text)
            if hits is None:
                return None
            hits = hits + [Detection(start, end, entity, KNOWN_SCORE) for start, end, entity
                           in ctx.known_matches(decoded.text, frozenset(folded_words(decoded.text)))]
            if hits:
                best = max(hits, key=rank)
                found.append(Detection(decoded.start, decoded.end, best.entity, best.score))
                surfaces[(decoded.start, decoded.end)] = decoded.text[best.start : best.end]
        output, entities, blobs = replace_found(leaf.text, leaf.blobs + found, ctx, surfaces)
        return None if output is leaf.text else output, entities, blobs

    # analysis ------------------------------------------------------------------------------------------
    def _analyze(self, plans: list[Plan | None]) -> None:
        """Analyse every prose text of the plans not analysed before, through `nlp.pipe` batches."""
        texts: dict[str, None] = {}
        fresh = self._detector.fresh
        for plan in plans:
            for leaf in plan.unsettled() if plan is not None else ():
                if leaf.kind == PROSE and leaf.text not in fresh:
                    view = leaf.view
                    if view.text.strip():
                        texts[view.text] = None
                    for decoded in view.decoded:
                        texts[decoded.text] = None
        self._detector.prepare(texts)

    def detections(self, text: str) -> list[Detection] | None:
        """Detections in a (blob-masked) text, None when analysis failed."""
        return self._detector.detections(text)

    def _count_analysed(self) -> None:
        self._counts.unique_strings += 1

