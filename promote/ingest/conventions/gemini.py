"""Gemini `Content` (`{"role", "parts": [{"text"}|{"function_call"}|{"function_response"}]}`).

ADK writes its requests and replies in this form (`llm_request.contents`, `llm_response.content`),
OpenInference copies them into `input.value`/`output.value`, and ADK's log events use it as body.
"""

from __future__ import annotations

from typing import Any

from promote.ingest.conventions.base import FunctionCall, FunctionResult, Message, as_str, decode

_ROLES = {"model": "assistant", "assistant": "assistant", "user": "user", "system": "system"}


def gemini_message(content: Any) -> Message | None:
    """A Gemini `Content` dict (`{"role", "parts": [...]}`) as a Message; None if it is not one."""
    if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
        return None
    message = Message(role=_ROLES.get(str(content.get("role") or "user"), "user"))
    for part in content["parts"]:
        if not isinstance(part, dict):
            continue
        call = part.get("function_call") or part.get("functionCall")
        response = part.get("function_response") or part.get("functionResponse")
        if isinstance(part.get("text"), str) and not part.get("thought"):
            message.texts.append(part["text"])
        elif isinstance(call, dict):
            message.calls.append(
                FunctionCall(as_str(call.get("id")), as_str(call.get("name")), call.get("args"))
            )
        elif isinstance(response, dict):
            message.results.append(
                FunctionResult(
                    as_str(response.get("id")), as_str(response.get("name")), response.get("response")
                )
            )
    if message.results and not message.texts and not message.calls:
        message.role = "tool"  # Gemini sends function responses with role "user"
    return message


def gemini_messages(contents: Any) -> list[Message] | None:
    if not isinstance(contents, list):
        return None
    return [m for m in (gemini_message(c) for c in contents) if m is not None]


def llm_request_messages(value: Any) -> list[Message] | None:
    """The messages of an ADK `llm_request` JSON; None when it is `{}` (content capture off)."""
    request = decode(value)
    if not isinstance(request, dict) or not request:
        return None
    return gemini_messages(request.get("contents"))


def llm_response_messages(value: Any) -> list[Message] | None:
    """The reply in an ADK `llm_response` JSON (`LlmResponse`); None when it is `{}`."""
    response = decode(value)
    if not isinstance(response, dict) or not response:
        return None
    message = gemini_message(response.get("content"))
    return [message] if message is not None else []
