"""Scrub a rebuilt trace for display and drafting: one placeholder context for the whole trace.

Everything a person sees of a trace (`promote traces`, drafts, the UI) goes through here, so the same
value gets the same placeholder in the user input, tool args, tool results and the reply.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from promote.trace_model import Trace


def scrub_trace(trace: Trace, engine: Any) -> tuple[Trace, dict[str, int]]:
    """A scrubbed copy of `trace` and the counts of what was replaced, by entity type."""
    before = Counter(engine.report.entities)
    ctx = engine.new_context()
    scrubbed = trace.model_copy(deep=True)
    # Spans are not shown by listings or drafts; drop them so raw attributes cannot travel on.
    scrubbed.spans = []
    if scrubbed.user_id:
        scrubbed.user_id = engine.scrub_text(scrubbed.user_id, ctx, key="user.id")
    for turn in scrubbed.turns:
        # Reading order (input, tools, reply) so that placeholders number the way a person reads.
        if turn.user_input:
            turn.user_input = engine.scrub_text(turn.user_input, ctx, key="user_input")
        for call in turn.tool_calls:
            if call.args is not None:
                call.args = engine.scrub_value(call.args, ctx, key="tool_call_args")
            if call.result is not None:
                call.result = engine.scrub_value(call.result, ctx, key="tool_response")
            if call.error:
                call.error = engine.scrub_text(call.error, ctx, key="error")
        if turn.final_response:
            turn.final_response = engine.scrub_text(turn.final_response, ctx, key="final_response")
    counts = Counter(engine.report.entities)
    counts.subtract(before)
    return scrubbed, {entity: count for entity, count in sorted(counts.items()) if count > 0}
