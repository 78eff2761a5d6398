"""Our own trace model: every export format is converted into these at the boundary (promote.ingest).

Nothing downstream of the ingester knows which format or producer a span came from. `Span` is the
format-neutral span; `Trace`, `Turn`, `ToolCall` and `ModelCall` are the rebuilt agent turns that
`promote traces --json` prints (see docs/cli.md) and that `promote draft` builds cases from.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from promote.models import Model as _Model


class SpanEvent(_Model):
    """A span event (OTLP `events[]`, Jaeger `logs[]`)."""

    name: str
    """The event name, e.g. `exception` or `gen_ai.content.prompt`."""
    time_ns: int | None = None
    """Event time in Unix nanoseconds, when the export has it."""
    attributes: dict[str, Any] = Field(default_factory=dict)
    """Decoded attribute values (str, int, float, bool, lists, nested dicts)."""


class Span(_Model):
    """One span, whatever export it came from."""

    trace_id: str
    """Lower-case hex, 32 characters (base64 and decimal ids are converted)."""
    span_id: str
    """Lower-case hex, 16 characters."""
    parent_span_id: str | None = None
    """The parent's span id, or None for a root span."""
    name: str
    """The span name, e.g. `execute_tool get_employee_context`."""
    kind: str = "INTERNAL"
    """INTERNAL, SERVER, CLIENT, PRODUCER, CONSUMER or UNSPECIFIED."""
    start_ns: int
    """Start time in Unix nanoseconds (microsecond precision for Jaeger and console exports)."""
    end_ns: int
    """End time in Unix nanoseconds."""
    status_code: str = "UNSET"
    """UNSET, OK or ERROR."""
    status_message: str | None = None
    """The status description, when there is one."""
    attributes: dict[str, Any] = Field(default_factory=dict)
    """Decoded attribute values; structured GenAI content is usually a JSON string here."""
    events: list[SpanEvent] = Field(default_factory=list)
    """Span events in export order."""
    resource: dict[str, Any] = Field(default_factory=dict)
    """Resource attributes (service.name, telemetry.sdk.*, ...)."""
    scope_name: str | None = None
    """Instrumentation scope (tracer) name, e.g. `gcp.vertex.agent`; None when the export lacks it."""
    scope_version: str | None = None
    """Instrumentation scope version (ADK's tracer version is the ADK version)."""
    where: str | None = None
    """Where the span was read, `file:line` (line = record number for binary framings)."""


class ToolCall(_Model):
    """One tool call of a turn, in the order the agent made it."""

    name: str
    """The tool's name as the agent declared it."""
    args: Any = None
    """Decoded JSON where the trace holds JSON text, the text itself otherwise."""
    result: Any = None
    """The tool's result: decoded JSON where possible, the text otherwise."""
    error: str | None = None
    """The error the tool raised, or None."""
    span_id: str | None = None
    """The `execute_tool` span this call was read from."""
    call_id: str | None = None
    """The model's function-call id (`gen_ai.tool.call.id`), when known."""


class ModelCall(_Model):
    """One model (LLM) call of a turn."""

    model: str | None = None
    """The requested model name, e.g. `gemini-2.5-flash`."""
    input_tokens: int | None = None
    """Prompt tokens the model reported."""
    output_tokens: int | None = None
    """Completion tokens the model reported."""
    span_id: str | None = None
    """The span this call was read from."""


class Turn(_Model):
    """One agent turn (one invocation): user input, calls, final reply."""

    index: int
    """0-based position of the turn in its trace."""
    invocation_id: str | None = None
    """ADK's `gcp.vertex.agent.invocation_id` (starts with `e-`), when the producer sets one."""
    started_at: datetime | None = None
    """UTC start of the turn."""
    duration_ms: float | None = None
    """Duration of the turn's root span, in milliseconds."""
    user_input: str | None = None
    """The user's message; None when content capture was off."""
    final_response: str | None = None
    """The agent's final text reply; None when content capture was off."""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    """Tool calls by start time; parallel calls keep the model's call order."""
    model_calls: list[ModelCall] = Field(default_factory=list)
    """Model calls by start time (one per model request; never counted twice)."""
    input_tokens: int | None = None
    """Sum of the model calls' input tokens, None when none reported any."""
    output_tokens: int | None = None
    """Sum of the model calls' output tokens, None when none reported any."""
    span_ids: list[str] = Field(default_factory=list)
    """Every span that belongs to this turn."""
    content_captured: bool = True
    """False when the producer recorded no message content (names and timing only)."""
    warnings: list[str] = Field(default_factory=list)
    """What could not be rebuilt, and how to fix it at the source."""


class Trace(_Model):
    """One trace with its rebuilt turns."""

    trace_id: str
    """Lower-case hex trace id."""
    service: str | None = None
    """`service.name` of the resource."""
    agent: str | None = None
    """The (root) agent's name."""
    session_id: str | None = None
    """The conversation / session id."""
    user_id: str | None = None
    """The user id the producer recorded, if any."""
    producer: str | None = None
    """Which convention the turns were read with: monocle, openinference, adk-2, adk-1, langfuse, genai."""
    turns: list[Turn] = Field(default_factory=list)
    """The turns, in time order."""
    no_turns_reason: str | None = None
    """Why no turn was rebuilt (what the spans carry, which conventions were tried); None with turns."""
    spans: list[Span] = Field(default_factory=list, exclude=True)
    """The spans the trace was rebuilt from (not printed)."""
    export: str | None = Field(default=None, exclude=True)
    """The file it was read from, as given (`-` for stdin); not printed (its id names the file where
    the same id is in two files: `promote.source.traces`)."""


class Skipped(_Model):
    """Input that could not be read, and why."""

    where: str
    """`file:line` of the bad input."""
    why: str
    """What is wrong with it."""
