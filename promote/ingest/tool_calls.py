"""Tool calls of a turn, from its tool spans and the function calls and results its model messages hold.

Split from `promote.ingest.turns` (which finds the turns): a tool span may not have recorded its
arguments or result, and ADK 1.x writes one `(merged tools)` span for parallel calls; the model's own
messages fill those in, by call id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from promote.ingest.conventions import Convention
from promote.ingest.conventions.base import (
    NOT_CAPTURED,
    FunctionCall,
    FunctionResult,
    ToolReading,
    decode,
    dig,
    is_merged_tool_span,
    is_tool_span,
    span_error,
)
from promote.ingest.conventions.gemini import gemini_message
from promote.trace_model import Span, ToolCall


class CallIndex:
    """The function calls and results a trace's model messages hold, by call id, and per call id the
    (request number, part number) the model asked for it in."""

    def __init__(self, exchanges: Iterable[Any]) -> None:
        self.calls: dict[str, FunctionCall] = {}
        self.results: dict[str, FunctionResult] = {}
        self.order: dict[str, tuple[int, int]] = {}
        for number, exchange in enumerate(exchanges):
            reading = exchange.reading
            for message in (reading.request or []) + (reading.response or []):
                self.calls.update((c.id, c) for c in message.calls if c.id)
                self.results.update((r.id, r) for r in message.results if r.id)
            for message in reading.response or []:
                for position, call in enumerate(message.calls):
                    if call.id:
                        self.order.setdefault(call.id, (number, position))


def tool_calls(members: list[Span], tree: Any, convention: Convention, index: CallIndex) -> list[ToolCall]:
    """The turn's own tool calls by start time, parallel ones in the model's call order.

    Calls made inside a tool (an agent used as a tool) are part of that tool's work, not the turn's
    trajectory. ADK's `(merged tools)` span only stands in for the real ones when they are missing.
    """
    real = {s.span_id: s for s in members if is_tool_span(s) and not is_merged_tool_span(s)}
    own = [s for s in real.values() if not any(a.span_id in real for a in tree.ancestors(s))]
    if own:
        found = [_tool_call(s, convention.read_tool(s), index) for s in own]
    else:
        found = [c for s in members if is_merged_tool_span(s) for c in _merged_calls(s, index)]
    batches: dict[int, list[int]] = defaultdict(list)
    for position, call in enumerate(found):
        if call.call_id in index.order:
            batches[index.order[call.call_id][0]].append(position)
    for positions in batches.values():
        ordered = sorted((found[p] for p in positions), key=lambda c: index.order[c.call_id or ""][1])
        for position, call in zip(positions, ordered, strict=True):
            found[position] = call
    return found


def _tool_call(span: Span, reading: ToolReading, index: CallIndex) -> ToolCall:
    """A tool span as a ToolCall; what the span did not record comes from the model's messages."""
    asked = index.calls.get(reading.call_id or "")
    answered = index.results.get(reading.call_id or "")
    args, result = reading.args, reading.result
    if (args is None or args is NOT_CAPTURED) and asked is not None:
        args = asked.args
    if (result is None or result is NOT_CAPTURED) and answered is not None:
        result = answered.response
    reported = None
    if isinstance(result, dict) and set(result) == {"error"} and isinstance(result["error"], str):
        reported, result = result["error"], None  # a failure handed back to the model as {"error": ...}
    return ToolCall(
        name=reading.name or (asked.name if asked else None) or span.name,
        args=None if args is NOT_CAPTURED else args,
        result=None if result is NOT_CAPTURED else result,
        error=span_error(span, reported),
        span_id=span.span_id,
        call_id=reading.call_id,
    )


def _merged_calls(span: Span, index: CallIndex) -> list[ToolCall]:
    """The calls inside ADK's merged function-response event (`tool_response` is the Event JSON)."""
    event = decode(span.attributes.get("gcp.vertex.agent.tool_response"))
    message = gemini_message(dig(event, "content"))
    found = []
    for answer in message.results if message else []:
        asked = index.calls.get(answer.id or "")
        found.append(
            ToolCall(
                name=answer.name or (asked.name if asked else None) or span.name,
                args=asked.args if asked else None,
                result=answer.response,
                span_id=span.span_id,
                call_id=answer.id,
            )
        )
    return found
