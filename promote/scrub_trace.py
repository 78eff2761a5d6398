"""Scrub a rebuilt trace for display and drafting: one placeholder context for the whole trace.

Everything a person sees of a trace (`promote traces`, drafts, the UI, `check`) goes through here, so the
same value gets the same placeholder in the user input, tool args, tool results and the reply. The whole
trace is scrubbed in one call that first learns every value it holds (under personal keys, or found by the
analyzer anywhere in it), so the order of its parts never decides what is caught: a name a tool result
holds under `name` is removed from the user's message before it too. Every text of the trace passes the
scrubber: ids, names, warnings; what the run removed is then looked for in the output (`output_check`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from promote.errors import PromoteError
from promote.trace_model import Skipped, Trace


class ScrubbedTrace(NamedTuple):
    """A scrubbed trace, what was replaced in it, and the raw values it was found to hold."""

    trace: Trace
    replaced: dict[str, int]
    """Replacements by entity type (this trace's alone, whoever else shares the engine)."""
    known_values: tuple[str, ...]
    """The personal values the trace held, raw (for the residual-PII gate of a case written from it:
    `save_case(..., known_values=...)`). Never printed or written."""


# (where in the trace, key the scrubber sees): the key decides key rules and the policy's safe values
_TRACE_FIELDS = (("user_id", "user.id"), ("session_id", "session.id"), ("agent", "gen_ai.agent.name"),
                 ("service", "service.name"))
_TURN_FIELDS = (("invocation_id", "gcp.vertex.agent.invocation_id"), ("user_input", "user_input"),
                ("final_response", "final_response"))
_CALL_FIELDS = (("name", "gen_ai.tool.name"), ("call_id", "gen_ai.tool.call.id"), ("args", "tool_call_args"),
                ("result", "tool_response"), ("error", "error"))


def scrub_trace(trace: Trace, engine: Any) -> tuple[Trace, dict[str, int]]:
    """A scrubbed copy of `trace` and the counts of what was replaced, by entity type."""
    done = scrub_trace_fully(trace, engine)
    return done.trace, done.replaced


def scrub_trace_fully(trace: Trace, engine: Any) -> ScrubbedTrace:
    """A scrubbed copy of `trace`, its counts and the raw values it held (see `ScrubbedTrace`)."""
    ctx = engine.new_context()
    scrubbed = trace.model_copy(deep=True)
    # Spans are not shown by listings or drafts; drop them so raw attributes cannot travel on.
    scrubbed.spans = []
    # Reading order (input, tools, reply) so that placeholders number the way a person reads.
    slots: list[tuple[Any, str, str | None]] = [(scrubbed, name, key) for name, key in _TRACE_FIELDS]
    for turn in scrubbed.turns:
        slots += [(turn, "invocation_id", _TURN_FIELDS[0][1]), (turn, "user_input", "user_input")]
        for call in turn.tool_calls:
            slots += [(call, name, key) for name, key in _CALL_FIELDS]
        slots += [(model, "model", "gen_ai.request.model") for model in turn.model_calls]
        slots.append((turn, "final_response", "final_response"))
        slots += [(turn.warnings, index, None) for index in range(len(turn.warnings))]
    present = [(owner, name, key) for owner, name, key in slots if _get(owner, name) is not None]
    done = engine.scrub_items([(ctx, key, _get(owner, name)) for owner, name, key in present], learn=True)
    checked = 0
    for (owner, name, _), value in zip(present, done.values):
        value, hits = _checked(value, engine, ctx)
        _set(owner, name, value)
        checked += hits
    replaced = {entity: count for entity, count in sorted(done.report.entities.items()) if count > 0}
    if checked:
        replaced[engine.redacted.strip("<>")] = checked
    return ScrubbedTrace(scrubbed, replaced, tuple(value for _, value in ctx.known_values()))


def _checked(value: Any, engine: Any, ctx: Any) -> tuple[Any, int]:
    """The output check on one scrubbed field: every string in it (keys too) that still holds a value
    the trace is known to hold, in any form, is redacted whole; with how many were."""
    if isinstance(value, str):
        return (engine.redacted, 1) if engine.leaks(value, ctx) else (value, 0)
    if isinstance(value, list):
        pairs = [_checked(item, engine, ctx) for item in value]
        return [item for item, _ in pairs], sum(hits for _, hits in pairs)
    if isinstance(value, dict):
        result, total = {}, 0
        for key, item in value.items():
            new_key, key_hits = _checked(key, engine, ctx) if isinstance(key, str) else (key, 0)
            new_item, hits = _checked(item, engine, ctx)
            result[new_key] = new_item
            total += key_hits + hits
        return result, total
    return value, 0


def scrub_messages(messages: Iterable[Skipped], engine: Any) -> list[Skipped]:
    """Skip notes whose reasons passed the same scrubber as data (a reason may quote a bad value)."""
    ctx = engine.new_context()
    return [Skipped(where=item.where, why=engine.scrub_text(item.why, ctx)) for item in messages]


def scrubbed_error(error: PromoteError, engine: Any) -> PromoteError:
    """The same error (same type, exit code and place) with what it says passed through the scrubber."""
    ctx = engine.new_context()
    clean = copy.copy(error)
    clean.what = engine.scrub_text(error.what, ctx)
    clean.hint = engine.scrub_text(error.hint, ctx) if error.hint else error.hint
    clean.args = (str(clean),)
    return clean


@contextmanager
def errors_scrubbed(engine: Callable[[], Any] | None) -> Iterator[None]:
    """An error raised inside that quotes the input (`PromoteError.quotes_input`) leaves scrubbed by
    `engine()` (made only then: loading the model is for the error path alone); None: as it is
    (`--no-scrub`)."""
    try:
        yield
    except PromoteError as error:
        if engine is None or not error.quotes_input:
            raise
        raise scrubbed_error(error, engine()) from None


def _get(owner: Any, name: Any) -> Any:
    return owner[name] if isinstance(owner, list) else getattr(owner, name)


def _set(owner: Any, name: Any, value: Any) -> None:
    if isinstance(owner, list):
        owner[name] = value
    else:
        setattr(owner, name, value)
