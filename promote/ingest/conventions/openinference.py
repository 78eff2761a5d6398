"""OpenInference (Arize), incl. `openinference-instrumentation-google-adk`.

Every span has `openinference.span.kind`. LLM spans: `llm.model_name`, `llm.token_count.*`,
`llm.input_messages.N.message.*` / `llm.output_messages.N.message.*` (flattened), and `input.value` /
`output.value`. TOOL spans: `tool.name`, `tool.id`, `tool.parameters` / `input.value` (the call's
arguments) and `output.value`. Under ADK the instrumentor renames the roots to `invocation [<app>]`
(CHAIN, `input.value` holds `new_message`) and `agent_run [<agent>]` (AGENT), puts the llm_request /
LlmResponse JSON in `input.value` / `output.value` of `call_llm`, the FunctionResponse
`{"id","name","response"}` in the tool's `output.value`, and leaves ADK's `gcp.vertex.agent.*` keys on
the same spans.
"""

from __future__ import annotations

from typing import Any

from promote.ingest.conventions import adk1, genai
from promote.ingest.conventions.base import (
    Convention,
    FunctionCall,
    FunctionResult,
    Message,
    ModelReading,
    RootReading,
    ToolReading,
    as_int,
    as_str,
    agent_from_span_name,
    decode,
    dig,
    openinference_kind,
    unflatten,
    user_id_of,
)
from promote.ingest.conventions.gemini import gemini_message, llm_request_messages, llm_response_messages
from promote.trace_model import Span

CAPTURE_HINT = (
    "unset OPENINFERENCE_HIDE_INPUTS, OPENINFERENCE_HIDE_OUTPUTS, OPENINFERENCE_HIDE_INPUT_MESSAGES and "
    "OPENINFERENCE_HIDE_OUTPUT_MESSAGES where the agent runs"
)
_REDACTED = "__REDACTED__"  # what OpenInference's TraceConfig writes for hidden values
_FUNCTION_RESPONSE_KEYS = frozenset({"id", "name", "response", "will_continue", "scheduling", "parts"})


def detect(spans: list[Span]) -> bool:
    return any(
        "openinference.span.kind" in s.attributes or (s.scope_name or "").startswith("openinference")
        for s in spans
    )


def _value(span: Span, key: str) -> Any:
    value = span.attributes.get(key)
    return None if value == _REDACTED else value


def _message(item: Any) -> Message | None:
    """One flattened `llm.*_messages.N` entry: `{"message": {"role", "content", "contents", ...}}`."""
    body = dig(item, "message")
    if not isinstance(body, dict):
        return None
    role = str(body.get("role") or "user").lower()
    role = "assistant" if role == "model" else role
    content = body.get("content")
    if content == _REDACTED:
        return None
    result = Message(role=role)
    if role == "tool":
        result.results.append(
            FunctionResult(as_str(body.get("tool_call_id")), as_str(body.get("name")), decode(content))
        )
        return result
    if isinstance(content, str):
        result.texts.append(content)
    for part in body.get("contents") or []:
        text = dig(part, "message_content", "text")
        if isinstance(text, str):
            result.texts.append(text)
    for call in body.get("tool_calls") or []:
        tool_call = dig(call, "tool_call") or {}
        result.calls.append(
            FunctionCall(
                as_str(tool_call.get("id")),
                as_str(dig(tool_call, "function", "name")),
                decode(dig(tool_call, "function", "arguments")),
            )
        )
    return result


def _messages(span: Span, prefix: str) -> list[Message] | None:
    items = unflatten(span.attributes, prefix)
    if not items:
        return None
    return [m for m in (_message(item) for item in items) if m is not None]


def read_model(span: Span) -> ModelReading:
    # ADK's request/response JSON keeps every part; the flattened keys lose parallel function
    # responses (they share one message prefix), so they are only the fallback, also where the JSON is
    # no ADK request or response (the OpenAI Agents SDK's Responses API objects).
    request = llm_request_messages(_value(span, "input.value"))
    response = llm_response_messages(_value(span, "output.value"))
    return ModelReading(
        model=as_str(span.attributes.get("llm.model_name")),
        input_tokens=as_int(span.attributes.get("llm.token_count.prompt")),
        output_tokens=as_int(span.attributes.get("llm.token_count.completion")),
        request=request or _messages(span, "llm.input_messages.") or request,
        response=response or _messages(span, "llm.output_messages.") or response,
    )


def read_tool(span: Span) -> ToolReading:
    if "openinference.span.kind" not in span.attributes:
        return ToolReading()
    reading = ToolReading(name=as_str(span.attributes.get("tool.name")),
                          call_id=as_str(span.attributes.get("tool.id")))
    args = _value(span, "tool.parameters")
    args = args if args is not None else _value(span, "input.value")
    if args is not None:
        reading.args = decode(args)
    result = decode(_value(span, "output.value"))
    if isinstance(result, dict) and "response" in result and set(result) <= _FUNCTION_RESPONSE_KEYS:
        reading.call_id = reading.call_id or as_str(result.get("id"))
        result = result["response"]
    reading.result = result
    return reading


def collapsed(span: Span) -> bool:
    """ADK's schema v2 has no `call_llm` span, so the instrumentor writes each model call's LLM
    attributes onto `invoke_agent`, and every call overwrites the one before."""
    return openinference_kind(span) == "LLM" and span.name.startswith("invoke_agent")


def read_root(span: Span) -> RootReading:
    attributes = span.attributes
    new_message = gemini_message(dig(decode(_value(span, "input.value")), "new_message"))
    return RootReading(
        agent=as_str(attributes.get("agent.name")) or agent_from_span_name(span.name) or _graph_agent(span),
        user_input="\n".join(new_message.texts) if new_message and new_message.texts else None,
        session_id=as_str(attributes.get("session.id")),
        user_id=user_id_of(attributes),
        reply=_agent_reply(span),
    )


def _graph_agent(span: Span) -> str | None:
    """The agent an AGENT span names as its graph node (the OpenAI Agents SDK's instrumentor)."""
    return as_str(span.attributes.get("graph.node.id")) if openinference_kind(span) == "AGENT" else None


def _agent_reply(span: Span) -> str | None:
    """The reply an AGENT or CHAIN span's `output.value` records: ADK's last Event
    (`{"content": {"parts": [{"text": ..}]}}`) or plain text. A function call is no reply."""
    if openinference_kind(span) not in ("AGENT", "CHAIN"):
        return None
    output = decode(_value(span, "output.value"))
    if isinstance(output, str):
        return output if output.strip() else None
    message = gemini_message(dig(output, "content")) or gemini_message(output)
    if message is None or message.calls or message.results or message.role != "assistant":
        return None
    return "\n".join(message.texts) or None


CONVENTION = Convention(
    name="openinference",
    detect=detect,
    model_readers=(read_model, adk1.read_model, genai.read_model),
    tool_readers=(read_tool, adk1.read_tool, genai.read_tool),
    root_readers=(read_root, adk1.read_root, genai.read_root),
    capture_hint=f"{CAPTURE_HINT} (and, for ADK's own attributes, {adk1.CAPTURE_HINT})",
    collapsed=collapsed,
)
