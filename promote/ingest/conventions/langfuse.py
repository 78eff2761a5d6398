"""Langfuse's own observation fields, for exports whose observations kept no OTel attributes.

`promote.ingest.formats.langfuse` maps them to Langfuse's OTel attribute names: the type
(`langfuse.observation.type`: AGENT, CHAIN, GENERATION, TOOL, SPAN; TRACE for the trace itself),
`langfuse.observation.input` / `.output` (JSON text: chat messages, a tool's arguments and result),
`langfuse.observation.model.name`, `langfuse.observation.usage_details` (`{"input", "output", ...}`),
`langfuse.user.id` and `langfuse.session.id`. A turn is the trace: its input is the user's message,
its output the reply; GENERATION observations are the model calls, TOOL observations the tool calls.
"""

from __future__ import annotations

from typing import Any

from promote.ingest.conventions import genai
from promote.ingest.conventions.base import (
    LANGFUSE_TYPE,
    Convention,
    Message,
    ModelReading,
    RootReading,
    ToolReading,
    as_int,
    as_str,
    decode,
    langfuse_type,
    user_id_of,
)
from promote.trace_model import Span

CAPTURE_HINT = "log the observations' input and output with the Langfuse SDK (do not mask them)"
_INPUT = "langfuse.observation.input"
_OUTPUT = "langfuse.observation.output"
_TEXT_KEYS = ("content", "text", "message", "query", "question", "input", "output", "answer", "response")


def detect(spans: list[Span]) -> bool:
    return any(LANGFUSE_TYPE in s.attributes for s in spans)


def _content(span: Span, key: str) -> Any:
    """The trace's own field on the trace span, the observation's elsewhere."""
    if langfuse_type(span) == "TRACE":
        key = key.replace("observation", "trace")
    return span.attributes.get(key)


def _messages(value: Any, default_role: str) -> list[Message] | None:
    value = decode(value)
    if value is None:
        return None
    if isinstance(value, str):
        return [Message(role=default_role, texts=[value])] if value.strip() else []
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        value = value["messages"]
    if isinstance(value, dict) and "role" not in value and "parts" not in value:
        text = _text(value)
        return [Message(role=default_role, texts=[text])] if text else []
    return genai.messages(value)


def _text(value: Any, role: str = "user") -> str | None:
    """Text out of a free-form Langfuse input/output: a string, a message list (the last one of
    `role`), a message, or a dict naming it."""
    value = decode(value)
    if isinstance(value, str):
        return value if value.strip() else None
    if isinstance(value, list):
        found = _messages(value, role) or []
        chosen = [m for m in found if m.role == role and m.texts][-1:] or [m for m in found if m.texts][-1:]
        return "\n".join(chosen[0].texts) if chosen else None
    if isinstance(value, dict):
        parsed = genai.message(value) if ("role" in value or "parts" in value) else None
        if parsed is not None and parsed.texts:
            return "\n".join(parsed.texts)
        for key in _TEXT_KEYS:
            if key in value and (text := _text(value[key], role)):
                return text
    return None


def read_model(span: Span) -> ModelReading:
    if langfuse_type(span) != "GENERATION":
        return ModelReading()
    usage = decode(span.attributes.get("langfuse.observation.usage_details"))
    usage = usage if isinstance(usage, dict) else {}
    return ModelReading(
        model=as_str(span.attributes.get("langfuse.observation.model.name")),
        input_tokens=as_int(usage.get("input", usage.get("promptTokens", usage.get("input_tokens")))),
        output_tokens=as_int(usage.get("output", usage.get("completionTokens", usage.get("output_tokens")))),
        request=_messages(span.attributes.get(_INPUT), "user"),
        response=_messages(span.attributes.get(_OUTPUT), "assistant"),
    )


def read_tool(span: Span) -> ToolReading:
    if langfuse_type(span) != "TOOL":
        return ToolReading()
    reading = ToolReading(name=span.name or None)
    if _INPUT in span.attributes:
        reading.args = decode(span.attributes[_INPUT])
    if _OUTPUT in span.attributes:
        reading.result = decode(span.attributes[_OUTPUT])
    return reading


def read_root(span: Span) -> RootReading:
    kind = langfuse_type(span)
    reading = RootReading(session_id=as_str(span.attributes.get("langfuse.session.id")),
                          user_id=user_id_of(span.attributes))
    if kind in ("AGENT", "CHAIN", "TRACE"):
        reading.agent = span.name if kind == "AGENT" and span.name else None
        reading.user_input = _text(_content(span, _INPUT))
        reading.reply = _text(_content(span, _OUTPUT), "assistant")
    return reading


CONVENTION = Convention(
    name="langfuse",
    detect=detect,
    model_readers=(read_model,),
    tool_readers=(read_tool,),
    root_readers=(read_root,),
    capture_hint=CAPTURE_HINT,
    root_kind="trace, AGENT or CHAIN observation",
)
