"""OpenTelemetry GenAI semantic conventions, current and older forms.

Current (semconv >= 1.37, opt-in content): `gen_ai.input.messages` / `gen_ai.output.messages` JSON on
the inference span (or on a `gen_ai.client.inference.operation.details` event), `gen_ai.tool.call.*`
on `execute_tool`. Older forms still seen in production: span events `gen_ai.content.prompt` /
`gen_ai.content.completion` (semconv <= 1.27), log-record-shaped events `gen_ai.user.message`,
`gen_ai.choice`, ... when an exporter attached them to the span, and OpenLLMetry's flattened
`gen_ai.prompt.N.*` / `gen_ai.completion.N.*` keys.
"""

from __future__ import annotations

import json
from typing import Any

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
    decode,
    is_pydantic_ai_run,
    unflatten,
    user_id_of,
)
from promote.ingest.conventions.gemini import gemini_message
from promote.trace_model import Span, SpanEvent

CAPTURE_HINT = (
    "set OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental and "
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=SPAN_ONLY where the agent runs"
)
_ELIDED = "<elided>"
_ROLES = {"model": "assistant", "ai": "assistant", "human": "user"}
_REQUEST_EVENTS = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}


def detect(spans: list[Span]) -> bool:
    return any(key.startswith("gen_ai.") for span in spans for key in span.attributes)


# --- messages --------------------------------------------------------------------------------------


def messages(value: Any) -> list[Message] | None:
    """Semconv (`parts`), OpenAI-style (`content`/`tool_calls`) or Gemini message lists."""
    value = decode(value)
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        return None
    parsed = [message(item) for item in value]
    return [m for m in parsed if m is not None]


def message(item: Any) -> Message | None:
    if not isinstance(item, dict):
        return None
    parts = item.get("parts")
    if isinstance(parts, list) and any(isinstance(p, dict) and "type" in p for p in parts):
        return _semconv_message(item)
    if isinstance(parts, list):
        return gemini_message(item)
    return _chat_message(item)


def call_id(value: Any) -> str | None:
    """A tool call id; Microsoft Agent Framework writes `[run id, call id]` for an Assistants API call."""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        value = value[-1]
    return as_str(value)


def _role(value: Any, default: str = "user") -> str:
    role = str(value or default).lower()
    return _ROLES.get(role, role)


def _semconv_message(item: dict[str, Any]) -> Message:
    result = Message(role=_role(item.get("role")))
    for part in item["parts"]:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind == "text" and isinstance(part.get("content"), str):
            result.texts.append(part["content"])
        elif kind == "tool_call":
            result.calls.append(
                FunctionCall(call_id(part.get("id")), as_str(part.get("name")), decode(part.get("arguments")))
            )
        elif kind == "tool_call_response":
            # The registry example writes "result" where the JSON schema says "response".
            response = part.get("response", part.get("result"))
            result.results.append(FunctionResult(call_id(part.get("id")), as_str(part.get("name")), response))
    if result.results and not result.texts and not result.calls:
        result.role = "tool"  # ADK sends function responses with role "user"
    return result


def _chat_message(item: dict[str, Any]) -> Message | None:
    """OpenAI-style `{"role", "content", "tool_calls", "tool_call_id"}` (old events, OpenLLMetry)."""
    inner = item.get("message")
    if isinstance(inner, dict):  # gen_ai.choice wraps the message
        item = {**inner, "role": inner.get("role", "assistant")}
    content = item.get("content")
    if content == _ELIDED:
        return None
    nested = gemini_message(content) if isinstance(content, dict) else None
    if nested is not None:  # ADK's log events carry a Gemini Content as "content"
        return nested
    result = Message(role=_role(item.get("role")))
    if result.role == "tool":
        result.results.append(
            FunctionResult(as_str(item.get("tool_call_id") or item.get("id")), as_str(item.get("name")),
                           decode(content))
        )
        return result
    if isinstance(content, str):
        result.texts.append(content)
    elif isinstance(content, list):
        result.texts += [c["text"] for c in content if isinstance(c, dict) and isinstance(c.get("text"), str)]
    for call in item.get("tool_calls") or []:
        if isinstance(call, dict):
            function = call.get("function") if isinstance(call.get("function"), dict) else call
            result.calls.append(
                FunctionCall(as_str(call.get("id")), as_str(function.get("name")),
                             decode(function.get("arguments")))
            )
    return result


def _event_body(event: SpanEvent) -> dict[str, Any]:
    body = decode(event.attributes.get("body", event.attributes))
    return body if isinstance(body, dict) else {"content": body}


def _from_events(events: list[SpanEvent]) -> tuple[list[Message] | None, list[Message] | None]:
    request: list[Message] | None = None
    response: list[Message] | None = None
    for event in events:
        attributes = event.attributes
        if event.name == "gen_ai.client.inference.operation.details":
            request = messages(attributes.get("gen_ai.input.messages")) or request
            response = messages(attributes.get("gen_ai.output.messages")) or response
        elif event.name == "gen_ai.content.prompt":
            request = messages(attributes.get("gen_ai.prompt")) or request
        elif event.name == "gen_ai.content.completion":
            response = messages(attributes.get("gen_ai.completion")) or response
        elif event.name in _REQUEST_EVENTS:
            body = _event_body(event)
            found = message({"role": _REQUEST_EVENTS[event.name], **body})
            if found is not None:
                request = (request or []) + [found]
        elif event.name == "gen_ai.choice":
            found = message({"role": "assistant", **_event_body(event)})
            if found is not None:
                response = (response or []) + [found]
    return request, response


def _flattened(attributes: dict[str, Any], prefix: str) -> list[Message] | None:
    """OpenLLMetry's `gen_ai.prompt.N.role`, `.content`, `.tool_calls.M.{id,name,arguments}`."""
    items = unflatten(attributes, prefix)
    return messages(items) if items else None


# --- readers -------------------------------------------------------------------------------------


def read_model(span: Span) -> ModelReading:
    attributes = span.attributes
    request = messages(attributes.get("gen_ai.input.messages"))
    response = messages(attributes.get("gen_ai.output.messages"))
    if request is None or response is None:
        event_request, event_response = _from_events(span.events)
        request = request if request is not None else event_request
        response = response if response is not None else event_response
    if request is None:
        request = _flattened(attributes, "gen_ai.prompt.")
    if response is None:
        response = _flattened(attributes, "gen_ai.completion.")
    return ModelReading(
        model=as_str(attributes.get("gen_ai.request.model"))
        or as_str(attributes.get("gen_ai.response.model")),
        input_tokens=as_int(attributes.get("gen_ai.usage.input_tokens",
                                           attributes.get("gen_ai.usage.prompt_tokens"))),
        output_tokens=as_int(
            attributes.get("gen_ai.usage.output_tokens", attributes.get("gen_ai.usage.completion_tokens"))
        ),
        request=request,
        response=response,
    )


def read_tool(span: Span) -> ToolReading:
    attributes = span.attributes
    reading = ToolReading(
        name=as_str(attributes.get("gen_ai.tool.name")),
        call_id=call_id(attributes.get("gen_ai.tool.call.id")),
    )
    if "gen_ai.tool.call.arguments" in attributes:
        reading.args = decode(attributes["gen_ai.tool.call.arguments"])
    if "gen_ai.tool.call.result" in attributes:
        reading.result = decode(attributes["gen_ai.tool.call.result"])
    return reading


def read_root(span: Span) -> RootReading:
    attributes = span.attributes
    return RootReading(
        agent=as_str(attributes.get("gen_ai.agent.name")) or as_str(attributes.get("gen_ai.workflow.name")),
        session_id=as_str(attributes.get("gen_ai.conversation.id")),
        user_id=user_id_of(attributes),
        reply=_run_output(span),
    )


def _run_output(span: Span) -> str | None:
    """What a pydantic-ai agent run returned (`final_result`): its reply when the model gave no text
    (a structured output is handed over as a call of its `final_result` output tool)."""
    if not is_pydantic_ai_run(span):
        return None
    output = decode(span.attributes.get("final_result"))
    if output is None or isinstance(output, str):
        return output if output and output.strip() else None
    return json.dumps(output, ensure_ascii=False)


CONVENTION = Convention(
    name="genai",
    detect=detect,
    model_readers=(read_model,),
    tool_readers=(read_tool,),
    root_readers=(read_root,),
    capture_hint=CAPTURE_HINT,
)
