"""What every convention reader produces, and the helpers they share.

A convention module reads one span at a time into a *reading* (`ModelReading`, `ToolReading`,
`RootReading`) whose fields are None when that convention's keys are absent from the span. The turn
builder merges readings field by field (first non-None wins), so the same span can be read by several
conventions: OpenInference adds its keys to ADK's own spans, and ADK 2 splits one model request over a
`call_llm` and its `generate_content` child.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from promote.trace_model import Span


class _NotCaptured:
    """Marks a value the producer deliberately left out (content capture off)."""

    def __repr__(self) -> str:
        return "NOT_CAPTURED"


NOT_CAPTURED: Any = _NotCaptured()

# ADK writes these when a value does not exist (a tool that raised has no response).
_PLACEHOLDERS = frozenset({"<not specified>", "N/A", "<not serializable>"})


@dataclass
class FunctionCall:
    """A tool call the model asked for (Gemini `function_call`, semconv `tool_call` part)."""

    id: str | None
    name: str | None
    args: Any = None


@dataclass
class FunctionResult:
    """A tool result fed back to the model (Gemini `function_response`, `tool_call_response`)."""

    id: str | None
    name: str | None
    response: Any = None


@dataclass
class Message:
    """One chat message in neutral form; `role` is user, assistant, system or tool."""

    role: str
    texts: list[str] = field(default_factory=list)
    calls: list[FunctionCall] = field(default_factory=list)
    results: list[FunctionResult] = field(default_factory=list)


@dataclass
class ModelReading:
    """What one span says about one model request. `request`/`response` None = not recorded."""

    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    request: list[Message] | None = None
    response: list[Message] | None = None


@dataclass
class ToolReading:
    """What one span says about one tool call. `args`/`result` are NOT_CAPTURED or None when absent."""

    name: str | None = None
    call_id: str | None = None
    args: Any = None
    result: Any = None


@dataclass
class RootReading:
    """What a turn's root (invocation/agent) span says about the turn."""

    agent: str | None = None
    user_input: str | None = None
    session_id: str | None = None
    user_id: str | None = None
    reply: str | None = None
    """The turn's final reply as the agent/turn span records it (used when no model response has it)."""


_Reading = TypeVar("_Reading", ModelReading, ToolReading, RootReading)


def merge(readings: Iterable[_Reading], empty: _Reading) -> _Reading:
    """Merge readings into `empty` field by field: the first value that is not None wins.

    NOT_CAPTURED is kept only until a real value comes (one span may lack what another holds).
    """
    for reading in readings:
        for item in fields(reading):
            value = getattr(reading, item.name)
            current = getattr(empty, item.name)
            if value is None or (current is not None and current is not NOT_CAPTURED):
                continue
            if current is NOT_CAPTURED and value is NOT_CAPTURED:
                continue
            setattr(empty, item.name, value)
    return empty


@dataclass(frozen=True)
class Convention:
    """One tracing convention: how to recognise it and how to read its spans."""

    name: str
    """The `Trace.producer` value: adk-1, adk-2, openinference, genai."""
    detect: Callable[[list[Span]], bool]
    """True when the spans of one trace were written under this convention."""
    model_readers: tuple[Callable[[Span], ModelReading], ...]
    tool_readers: tuple[Callable[[Span], ToolReading], ...]
    root_readers: tuple[Callable[[Span], RootReading], ...]
    capture_hint: str
    """How to turn message content capture on at the source (said in the no-content warning)."""
    collapsed: Callable[[Span], bool] = lambda span: False
    """True for a span that holds only the last of several model calls (see `earlier_calls`)."""
    reply_from_root: bool = False
    """True when the turn span's own output is the reply of record (Monocle), before any model response."""
    root_kind: str = "invocation or agent span"
    """What a turn's root span looks like under this convention (said when a trace has no turn)."""

    def read_model(self, spans: Iterable[Span]) -> ModelReading:
        """Merge every reader's view of the spans of one model request (innermost span first)."""
        return merge((read(s) for s in spans for read in self.model_readers), ModelReading())

    def read_tool(self, span: Span) -> ToolReading:
        return merge((read(span) for read in self.tool_readers), ToolReading())

    def read_root(self, spans: Iterable[Span]) -> RootReading:
        return merge((read(s) for s in spans for read in self.root_readers), RootReading())


def earlier_calls(reading: ModelReading) -> list[ModelReading]:
    """The model calls before the one `reading` reports, rebuilt from its request history.

    Each assistant message after the turn's user message is the reply of one earlier call (the
    history holds nothing about their token counts).
    """
    history = reading.request or []
    asked = max((i for i, m in enumerate(history) if m.role == "user" and m.texts), default=-1)
    return [
        ModelReading(model=reading.model, request=history[:i], response=[message])
        for i, message in enumerate(history)
        if i > asked and message.role == "assistant"
    ]


# --- values ------------------------------------------------------------------------------------


def decode(value: Any) -> Any:
    """Decoded JSON where `value` is JSON text, a Python literal where it is a repr, else as given."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text:
        return value
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    if text[0] in "{[('\"":
        try:
            return _jsonable(ast.literal_eval(text))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
    return value


def _jsonable(value: Any) -> Any:
    """Python literals as JSON would hold them (tuples and sets become lists, bytes text)."""
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def is_placeholder(value: Any) -> bool:
    """True for ADK's stand-ins for a value that does not exist, bare or wrapped in {"result": ..}."""
    if isinstance(value, dict) and set(value) == {"result"}:
        value = value["result"]
    return isinstance(value, str) and value in _PLACEHOLDERS


def as_int(value: Any) -> int | None:
    """An int attribute (exports may carry ints as strings or floats), else None."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def as_str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def unflatten(attributes: Mapping[str, Any], prefix: str) -> list[Any]:
    """Rebuild an indexed list from flattened keys (`llm.input_messages.0.message.role` = ...).

    Every dot starts a nesting level; maps whose keys are all indexes become lists in index order.
    """
    root: dict[str, Any] = {}
    for key, value in attributes.items():
        if not key.startswith(prefix):
            continue
        node = root
        *path, last = key[len(prefix) :].split(".")
        for part in path:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):  # a scalar and a subtree under one key: keep the scalar
                break
            node = child
        else:
            node.setdefault(last, value)
    listed = _lists(root)
    return listed if isinstance(listed, list) else []


def _lists(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    converted = {k: _lists(v) for k, v in node.items()}
    if converted and all(k.isdigit() for k in converted):
        return [converted[k] for k in sorted(converted, key=int)]
    return converted


def dig(value: Any, *path: str) -> Any:
    """`value[path[0]][path[1]]...`, or None where a step is missing."""
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


_USER_ID_KEYS = ("user.id", "enduser.id", "kagent.user_id", "langfuse.user.id", "scope.user_id",
                 "scope.user.id", "scope.userId", "scope.enduser.id")


def user_id_of(attributes: Mapping[str, Any]) -> str | None:
    """The end user's id wherever a convention puts it: semconv `user.id` / `enduser.id`, kagent's
    `kagent.user_id`, Langfuse's `langfuse.user.id`, a Monocle scope (`scope.user_id`, ...)."""
    return next((text for key in _USER_ID_KEYS if (text := as_str(attributes.get(key)))), None)


# --- span roles ----------------------------------------------------------------------------------

MONOCLE_TYPE = "span.type"
"""Monocle's span role: workflow, agentic.turn, agentic.invocation, agentic.tool.invocation, inference..."""
_MONOCLE_TOOLS = frozenset({"agentic.tool.invocation", "agentic.mcp.invocation"})
_MONOCLE_AGENTS = frozenset({"agentic.turn", "agentic.invocation"})
# Keys only an agent framework or an LLM instrumentation writes: a span with one is never plain transport.
_AGENT_KEY_PREFIXES = ("gcp.vertex.agent.", "llm.", "input.value", "output.value", "openinference.",
                       "gen_ai.input.", "gen_ai.output.", "gen_ai.usage.", "gen_ai.tool.", "entity.",
                       "langfuse.observation.")
_TRANSPORT_KEY_PREFIXES = ("http.", "url.", "rpc.", "grpc.", "net.peer.", "net.host.")
_TRANSPORT_SCOPES = ("otelhttp", "net/http", "opentelemetry.instrumentation.http", "instrumentation.asgi",
                     "instrumentation.fastapi", "instrumentation.starlette", "instrumentation.requests",
                     "instrumentation.httpx", "instrumentation.grpc", "otelgrpc")


LANGFUSE_TYPE = "langfuse.observation.type"
"""A native Langfuse observation's type: AGENT, CHAIN, GENERATION, TOOL, SPAN, ... (TRACE: the trace)."""


def monocle_type(span: Span) -> str | None:
    return as_str(span.attributes.get(MONOCLE_TYPE))


def langfuse_type(span: Span) -> str | None:
    kind = span.attributes.get(LANGFUSE_TYPE)
    return kind.upper() if isinstance(kind, str) else None


def is_transport_span(span: Span) -> bool:
    """An HTTP/RPC server or client span (e.g. a Go controller's otelhttp span named `invoke_agent
    <agent>`): it carries a request, not an agent's work, so it is never a turn, model call or tool."""
    scope = span.scope_name or ""
    by_scope = any(marker in scope for marker in _TRANSPORT_SCOPES)
    by_keys = span.kind in ("SERVER", "CLIENT") and any(
        k.startswith(_TRANSPORT_KEY_PREFIXES) for k in span.attributes
    )
    if not (by_scope or by_keys):
        return False
    return not any(k.startswith(_AGENT_KEY_PREFIXES) or k == MONOCLE_TYPE for k in span.attributes)


_MODEL_OPERATIONS = frozenset({"chat", "generate_content", "text_completion"})
_AGENT_OPERATIONS = frozenset({"invoke_agent", "invoke_workflow"})
_AGENT_NAME_PREFIXES = ("invoke_agent", "invoke_workflow", "agent_run", "invocation [")


def operation(span: Span) -> str | None:
    return as_str(span.attributes.get("gen_ai.operation.name"))


def openinference_kind(span: Span) -> str | None:
    kind = span.attributes.get("openinference.span.kind")
    return kind.upper() if isinstance(kind, str) else None


def is_tool_span(span: Span) -> bool:
    if is_transport_span(span):
        return False
    return (
        monocle_type(span) in _MONOCLE_TOOLS
        or langfuse_type(span) == "TOOL"
        or operation(span) == "execute_tool"
        or openinference_kind(span) == "TOOL"
        or span.name.startswith("execute_tool")
    )


def is_merged_tool_span(span: Span) -> bool:
    """ADK's `execute_tool (merged)` span, written after parallel calls on top of the real ones."""
    return span.attributes.get("gen_ai.tool.name") == "(merged tools)" or span.name == (
        "execute_tool (merged)"
    )


def is_model_span(span: Span) -> bool:
    if is_transport_span(span):
        return False
    return (
        (monocle_type(span) or "").startswith("inference")
        or langfuse_type(span) == "GENERATION"
        or operation(span) in _MODEL_OPERATIONS
        or openinference_kind(span) == "LLM"
        or span.name == "call_llm"
        or span.name.startswith("generate_content")
        or span.attributes.get("llm.request.type") in ("chat", "completion")
    )


def is_agent_span(span: Span) -> bool:
    """An invocation, workflow or agent span: the candidates for a turn's root."""
    if is_tool_span(span) or is_model_span(span) or is_transport_span(span):
        return False
    return (
        monocle_type(span) in _MONOCLE_AGENTS
        or langfuse_type(span) in ("AGENT", "CHAIN", "TRACE")
        or operation(span) in _AGENT_OPERATIONS
        or openinference_kind(span) in ("AGENT", "CHAIN")
        or span.name == "invocation"
        or span.name.startswith(_AGENT_NAME_PREFIXES)
        or is_pydantic_ai_run(span)
    )


def is_pydantic_ai_run(span: Span) -> bool:
    """pydantic-ai's span of one `agent.run()`: `<agent> run` (`agent run` unnamed), with the agent's name."""
    agent = as_str(span.attributes.get("gen_ai.agent.name")) or as_str(span.attributes.get("agent_name"))
    return agent is not None and span.name in (f"{agent} run", "agent run")


def span_error(span: Span, reported: str | None = None) -> str | None:
    """The error a span records: its exception event, else the error the result `reported`, else
    the status message or `error.type`."""
    for event in span.events:
        if event.name == "exception":
            kind = as_str(event.attributes.get("exception.type"))
            message = as_str(event.attributes.get("exception.message"))
            if kind or message:
                return f"{kind}: {message}" if kind and message else kind or message
    if reported:
        return reported
    error_type = as_str(span.attributes.get("error.type"))
    if span.status_code == "ERROR":
        return span.status_message or error_type or "error"
    return error_type


def agent_from_span_name(span_name: str) -> str | None:
    """`agent_run [hr_agent]` (ADK <= 1.4, OpenInference) or `invoke_agent hr_agent` -> `hr_agent`."""
    if span_name.startswith("agent_run [") and span_name.endswith("]"):
        return span_name[len("agent_run [") : -1] or None
    if span_name.startswith("invoke_agent "):
        return span_name[len("invoke_agent ") :].strip() or None
    return None
