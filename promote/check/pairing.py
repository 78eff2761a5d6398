"""Pair each case with the turn it is checked against.

In order: a trace attribute (span, event or resource) or the session id holds the case id (a CI run
names its session or tags its spans with it); the case's own provenance (trace id and turn); the turn
whose user input matches the case's; `--turn N` (the N-th turn of all turns read, 0-based, in the
order `promote traces` lists them). Inputs compare word by word, casefolded, placeholders left out, the
turn's scrubbed input and its raw one alike: equal words pair first, then the input whose words hold
the other's in order (a case keeps the question, a production turn often adds a greeting or an id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from promote.case.model import Case
from promote.case.rules import PLACEHOLDER_RE
from promote.evaluators.evidence import Evidence
from promote.check.report import PairedBy
from promote.trace_model import Trace


@dataclass(frozen=True)
class TracePair:
    """A trace as read and as scrubbed (one placeholder context for the whole trace)."""

    raw: Trace
    scrubbed: Trace

    def evidence(self, index: int) -> Evidence:
        return Evidence(self.raw, self.raw.turns[index], self.scrubbed, self.scrubbed.turns[index])


def pair(case: Case, traces: list[TracePair], turn: int | None) -> tuple[Evidence, PairedBy] | str:
    """The case's turn and how it was found, or why none could be."""
    tagged = _tagged(case.id, traces)
    if len(tagged) == 1:
        return traces[tagged[0][0]].evidence(tagged[0][1]), "case-id"
    candidates = tagged or [(t, i) for t, pair_ in enumerate(traces) for i in range(len(pair_.raw.turns))]
    origin = case.provenance.trace if case.provenance else None
    if origin is not None:
        for t, i in candidates:
            if traces[t].raw.trace_id == origin.trace_id and i == origin.turn:
                return traces[t].evidence(i), "provenance"
    scored = sorted(((_input_score(case.input, traces[t], i), t, i) for t, i in candidates), reverse=True)
    if scored and scored[0][0] > 0 and (len(scored) == 1 or scored[1][0] < scored[0][0]):
        return traces[scored[0][1]].evidence(scored[0][2]), "input"
    if turn is not None:
        every = [(t, i) for t, pair_ in enumerate(traces) for i in range(len(pair_.raw.turns))]
        if not 0 <= turn < len(every):
            return f"--turn {turn} is out of range: the traces hold {len(every)} turn(s)"
        return traces[every[turn][0]].evidence(every[turn][1]), "turn"
    if scored and scored[0][0] > 0:
        return "several turns match its input equally well: pass --turn N"
    return "no turn carries its id or matches its input: pass --turn N"


def _tagged(case_id: str, traces: list[TracePair]) -> list[tuple[int, int]]:
    """(trace, turn) positions whose spans, or whose trace, carry the case id."""
    found: list[tuple[int, int]] = []
    for t, pair_ in enumerate(traces):
        trace = pair_.raw
        tagged_spans = {span.span_id for span in trace.spans if _holds(span.attributes, case_id)
                        or any(_holds(event.attributes, case_id) for event in span.events)}
        whole = trace.session_id == case_id or any(
            _holds(span.resource, case_id) for span in trace.spans)
        whole = whole or any(span_id not in {s for turn in trace.turns for s in turn.span_ids}
                             for span_id in tagged_spans)
        for i, turn in enumerate(trace.turns):
            if whole or tagged_spans & set(turn.span_ids):
                found.append((t, i))
    return found


def _holds(attributes: dict[str, Any], case_id: str) -> bool:
    return any(isinstance(value, str) and value.strip() == case_id for value in attributes.values())


def _words(text: str | None) -> list[str]:
    return re.findall(r"\w+", PLACEHOLDER_RE.sub(" ", text or "").casefold())


def _input_score(case_input: str, pair_: TracePair, index: int) -> float:
    """2 for equal words, len(shorter)/len(longer) when one's words hold the other's in order, else 0."""
    wanted = _words(case_input)
    best = 0.0
    for text in (pair_.scrubbed.turns[index].user_input, pair_.raw.turns[index].user_input):
        words = _words(text)
        if not words or not wanted:
            continue
        if words == wanted:
            return 2.0
        short, long_ = sorted((wanted, words), key=len)
        remaining = iter(long_)
        if all(any(word == seen for seen in remaining) for word in short):
            best = max(best, len(short) / len(long_))
    return best
