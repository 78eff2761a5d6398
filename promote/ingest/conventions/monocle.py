"""Monocle (okahu's `monocle_apptrace`) over google-adk, the OpenAI Agents SDK and other frameworks.

Every Monocle span has `span.type`: `workflow` (the root), `agentic.turn` (one user turn),
`agentic.invocation` (an agent run inside it), `agentic.tool.invocation` / `agentic.mcp.invocation`
(a tool or MCP tool call) and `inference` (one model request). Names sit in entities:
`entity.N.name` / `entity.N.type` (`agent.adk`, `tool.adk`, `mcp.server`, `model.llm.gemini-2.5-flash`).
Content is in span events: `data.input` (`input`: a list of `{"<role>": text}` JSON strings on
inference spans, the arguments on tool spans), `data.output` (`response`, or `output` for MCP tools)
and `metadata` (token counts, `finish_type`). Tool arguments and results may be a Python repr
(`{'status': 'ok'}`), read with `ast.literal_eval` (never eval). The session is `scope.agentic.session`,
the ADK invocation id `scope.agentic.turn`; applications put the user id in a scope (`scope.user_id`).
When the turn span's output is empty, the reply is the last `inference` span marked `turn_end`.
"""

from __future__ import annotations

import re
from typing import Any

from promote.ingest.conventions.base import (
    MONOCLE_TYPE,
    Convention,
    FunctionCall,
    Message,
    ModelReading,
    RootReading,
    ToolReading,
    as_int,
    as_str,
    decode,
    monocle_type,
    user_id_of,
)
from promote.trace_model import Span

CAPTURE_HINT = (
    "leave Monocle's data.input/data.output events on (do not filter them with a span filter or obfuscator "
    "that drops them)"
)
SESSION = "scope.agentic.session"
TURN = "scope.agentic.turn"
_ROLES = {"ai": "assistant", "model": "assistant", "assistant": "assistant", "human": "user", "user": "user",
          "system": "system", "tool": "tool", "function": "tool"}
# ADK under Monocle writes a function call as `"model": get_employee_context, "args": {'employee_id': ..}`.
_ADK_CALL = re.compile(r'^\s*"model"\s*:\s*([A-Za-z_][\w.\-]*)\s*,\s*"args"\s*:\s*(.*)$', re.S)
_AGENT_ENTITY_TYPES = ("agent.",)
_TOOL_ENTITY_TYPES = ("tool.", "mcp.")


def detect(spans: list[Span]) -> bool:
    return any(
        "monocle_apptrace.version" in s.attributes
        or (MONOCLE_TYPE in s.attributes and "entity.1.type" in s.attributes)
        for s in spans
    )


def _entities(span: Span) -> list[tuple[str, str | None]]:
    """(type, name) of each `entity.N`, in N order."""
    found = []
    for n in range(1, 10):
        kind = as_str(span.attributes.get(f"entity.{n}.type"))
        if kind is None:
            if f"entity.{n}.name" not in span.attributes:
                break
            kind = ""
        found.append((kind, as_str(span.attributes.get(f"entity.{n}.name"))))
    return found


def _entity_name(span: Span, prefixes: tuple[str, ...]) -> str | None:
    return next((name for kind, name in _entities(span) if name and kind.startswith(prefixes)), None)


def _event(span: Span, name: str) -> dict[str, Any] | None:
    return next((e.attributes for e in reversed(span.events) if e.name == name), None)


def _data(span: Span, event: str, *keys: str) -> Any:
    attributes = _event(span, event) or {}
    return next((attributes[k] for k in keys if k in attributes), None)


def _text(value: Any) -> str | None:
    """A content value as text: a string, or the texts of a list of strings (`data.input` of turns)."""
    value = decode(value) if isinstance(value, str) and value[:1] in "[{" else value
    if isinstance(value, str):
        return value if value.strip() and value != "None" else None
    if isinstance(value, list):
        texts = [t for t in (_text(v) for v in value) if t]
        return "\n".join(texts) if texts else None
    if isinstance(value, dict) and len(value) == 1:
        return _text(next(iter(value.values())))
    return None


def _message(item: Any) -> Message | None:
    """One `{"<role>": content}` entry of an inference span's input or output."""
    item = decode(item)
    if not isinstance(item, dict) or len(item) != 1:
        return Message(role="user", texts=[item]) if isinstance(item, str) and item.strip() else None
    role, content = next(iter(item.items()))
    message = Message(role=_ROLES.get(str(role).lower(), str(role).lower()))
    if isinstance(content, list):  # OpenAI Agents: [{"tool_id", "tool_name", "tool_arguments"}]
        for call in content:
            if isinstance(call, dict) and ("tool_name" in call or "tool_id" in call):
                message.calls.append(FunctionCall(as_str(call.get("tool_id")), as_str(call.get("tool_name")),
                                                  decode(call.get("tool_arguments"))))
            elif isinstance(call, str):
                message.texts.append(call)
    elif isinstance(content, str):
        adk_call = _ADK_CALL.match(content)
        if adk_call and message.role == "assistant":
            message.calls.append(FunctionCall(None, adk_call.group(1), decode(adk_call.group(2).strip())))
        elif content.strip():
            message.texts.append(content)
    return message


def read_model(span: Span) -> ModelReading:
    if not (monocle_type(span) or "").startswith("inference"):
        return ModelReading()
    metadata = _event(span, "metadata") or {}
    inputs = _data(span, "data.input", "input")
    request = None
    if inputs is not None:
        items = inputs if isinstance(inputs, list) else [inputs]
        request = [m for m in (_message(i) for i in items) if m is not None]
    output = _data(span, "data.output", "response")
    response = None
    if output is not None:
        message = _message(output)
        response = [message] if message is not None else []
        if metadata.get("finish_type") == "tool_call" and message is not None and not message.calls:
            message.calls.append(FunctionCall(None, None))  # a tool request whose details Monocle lost
    return ModelReading(
        model=_entity_name(span, ("model.",)),
        input_tokens=as_int(metadata.get("prompt_tokens")),
        output_tokens=as_int(metadata.get("completion_tokens")),
        request=request,
        response=response,
    )


def read_tool(span: Span) -> ToolReading:
    if monocle_type(span) not in ("agentic.tool.invocation", "agentic.mcp.invocation"):
        return ToolReading()
    reading = ToolReading(name=_entity_name(span, _TOOL_ENTITY_TYPES))
    args = _data(span, "data.input", "input")
    if isinstance(args, (list, tuple)) and len(args) == 1:
        args = args[0]  # MCP calls write their arguments as a one-item list of JSON text
    if args is not None:
        reading.args = decode(args)
    result = _data(span, "data.output", "response", "output")
    if result is not None and not (result == "None" and _data(span, "data.output", "error_code")):
        reading.result = decode(result)
    return reading


def read_root(span: Span) -> RootReading:
    kind = monocle_type(span)
    attributes = span.attributes
    reading = RootReading(session_id=as_str(attributes.get(SESSION)), user_id=user_id_of(attributes))
    if kind in ("agentic.turn", "agentic.invocation"):
        reading.agent = _entity_name(span, _AGENT_ENTITY_TYPES)
        reading.user_input = _text(_data(span, "data.input", "input"))
        reading.reply = _text(_data(span, "data.output", "response"))
    elif kind == "inference" and attributes.get("span.subtype") == "turn_end":
        reading.reply = _text(_data(span, "data.output", "response"))
    return reading


CONVENTION = Convention(
    name="monocle",
    detect=detect,
    model_readers=(read_model,),
    tool_readers=(read_tool,),
    root_readers=(read_root,),
    capture_hint=CAPTURE_HINT,
    reply_from_root=True,
    root_kind="agentic.turn span",
)
