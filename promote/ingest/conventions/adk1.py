"""Google ADK 1.x: ADK's own `gcp.vertex.agent` tracer.

Spans: `invocation` > `invoke_agent <agent>` (or `agent_run [<agent>]` before 1.10) > `call_llm` and
`execute_tool <tool>`. Content sits in JSON strings in Gemini `Content` form:
`gcp.vertex.agent.llm_request` / `llm_response` on `call_llm`, `tool_call_args` / `tool_response` on
`execute_tool`. With `ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=false` every one of them is `"{}"`.
"""

from __future__ import annotations

from typing import Any

from promote.ingest.conventions import genai
from promote.ingest.conventions.gemini import llm_request_messages, llm_response_messages
from promote.ingest.conventions.base import (
    NOT_CAPTURED,
    Convention,
    ModelReading,
    RootReading,
    ToolReading,
    as_int,
    as_str,
    agent_from_span_name,
    decode,
    dig,
    is_placeholder,
    user_id_of,
)
from promote.trace_model import Span

SCOPE = "gcp.vertex.agent"
_PREFIX = "gcp.vertex.agent."
CAPTURE_HINT = "set ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=true where the agent runs"
# Exports without the scope version cannot tell ADK 1.x from 2.x: both name every switch.
ADK_CAPTURE_HINT = f"{CAPTURE_HINT}; for the GenAI attributes {genai.CAPTURE_HINT}"


def is_adk(spans: list[Span]) -> bool:
    """ADK's tracer wrote (some of) these spans."""
    return any(
        span.scope_name == SCOPE or any(key.startswith(_PREFIX) for key in span.attributes)
        for span in spans
    )


def detect(spans: list[Span]) -> bool:
    return is_adk(spans)


def _usage(response: Any, *keys: str) -> int | None:
    usage = dig(response, "usage_metadata")
    if not isinstance(usage, dict) or all(usage.get(k) is None for k in keys):
        return None
    return sum(as_int(usage.get(k)) or 0 for k in keys)


# --- readers -------------------------------------------------------------------------------------


def read_model(span: Span) -> ModelReading:
    attributes = span.attributes
    if _PREFIX + "llm_request" not in attributes and _PREFIX + "llm_response" not in attributes:
        return ModelReading()
    request = decode(attributes.get(_PREFIX + "llm_request"))  # decoded once: they repeat the history
    response = decode(attributes.get(_PREFIX + "llm_response"))
    return ModelReading(
        model=as_str(attributes.get("gen_ai.request.model")) or as_str(dig(request, "model")),
        # Older ADK wrote no usage attributes: the counts are in the response's usage_metadata.
        input_tokens=_usage(response, "prompt_token_count", "tool_use_prompt_token_count"),
        output_tokens=_usage(response, "candidates_token_count", "thoughts_token_count"),
        request=llm_request_messages(request),
        response=llm_response_messages(response),
    )


def read_tool(span: Span) -> ToolReading:
    attributes = span.attributes
    args_json = attributes.get(_PREFIX + "tool_call_args")
    result_json = attributes.get(_PREFIX + "tool_response")
    reading = ToolReading(
        name=as_str(attributes.get("gen_ai.tool.name")) or _name_from_span(span.name),
        call_id=_call_id(attributes.get("gen_ai.tool.call.id")),
    )
    # ADK always wraps a result in a dict, so `"{}"` as the response means capture was off, and
    # the `"{}"` beside it is then no evidence of a call without arguments.
    elided = isinstance(result_json, str) and result_json.strip() in ("{}", "")
    if args_json is not None:
        reading.args = NOT_CAPTURED if elided else decode(args_json)
    if result_json is not None:
        result = decode(result_json)
        reading.result = NOT_CAPTURED if elided else (None if is_placeholder(result) else result)
    return reading


def read_root(span: Span) -> RootReading:
    attributes = span.attributes
    return RootReading(
        agent=as_str(attributes.get("gen_ai.agent.name")) or agent_from_span_name(span.name),
        session_id=as_str(attributes.get(_PREFIX + "session_id")),
        user_id=user_id_of(attributes),  # kagent adds `kagent.user_id` to ADK's spans
    )


def _call_id(value: Any) -> str | None:
    text = as_str(value)
    return None if text is None or is_placeholder(text) else text


def _name_from_span(span_name: str) -> str | None:
    prefix = "execute_tool "
    return (span_name[len(prefix) :].strip() or None) if span_name.startswith(prefix) else None


CONVENTION = Convention(
    name="adk-1",
    detect=detect,
    # ADK 1.x sets the generic gen_ai.usage.* counts too; the GenAI reader picks them up first.
    model_readers=(genai.read_model, read_model),
    tool_readers=(read_tool, genai.read_tool),
    root_readers=(read_root, genai.read_root),
    capture_hint=ADK_CAPTURE_HINT,
)
