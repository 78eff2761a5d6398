"""Span builders shared by the turn tests: spans in the shape ADK 1.x writes, and their Gemini content.

Attribute keys are exactly those of ../shared/reference/trace-formats.md §3 (`call_llm` /
`execute_tool` with `gcp.vertex.agent.*` JSON); ADK 2.x runs still write these spans beside its own.
"""

from __future__ import annotations

import json
from typing import Any

from promote.trace_model import Span, Trace

TRACE = "1dbad0559ffe093d88cf051e731c1fa4"
SESSION = "6f8d082c-5a1e-4c1e-9d7e-2b1f0c3a9e11"
T0 = 1_764_438_301_123_456_000  # 2025-11-29T17:45:01.123456Z
MODEL = "gemini-2.5-flash"
ADK = {"scope_name": "gcp.vertex.agent", "scope_version": "1.14.1"}


def span(sid: int, name: str, parent: int | None, start: float, end: float,
         attrs: dict[str, Any] | None = None, *, trace: str = TRACE, scope: dict[str, str] | None = None,
         **extra: Any) -> Span:
    """A span `start`..`end` milliseconds after T0."""
    return Span(
        trace_id=trace, span_id=f"{sid:016x}", parent_span_id=f"{parent:016x}" if parent else None, name=name,
        start_ns=T0 + int(start * 1e6), end_ns=T0 + int(end * 1e6), attributes=attrs or {},
        resource={"service.name": "hr-policy-advisor"}, **(ADK if scope is None else scope), **extra,
    )


# --- ADK Gemini content ----------------------------------------------------------------------------

def user(text: str) -> dict: return {"role": "user", "parts": [{"text": text}]}
def said(text: str) -> dict: return {"role": "model", "parts": [{"text": text}]}
def asks(*calls: tuple[str, str, dict]) -> dict:
    return {"role": "model", "parts": [{"function_call": {"id": i, "args": a, "name": n}}
                                       for i, n, a in calls]}
def answers(*results: tuple[str, str, Any]) -> dict:
    return {"role": "user", "parts": [{"function_response": {"id": i, "name": n, "response": r}}
                                      for i, n, r in results]}


def call_llm(contents: list[dict], reply: dict, tokens: tuple[int, int], invocation: str,
             captured: bool = True) -> dict:
    request = {"model": MODEL, "config": {"system_instruction": "You are an HR assistant."},
               "contents": contents}
    response = {"content": reply, "finish_reason": "STOP",
                "usage_metadata": {"prompt_token_count": tokens[0], "candidates_token_count": tokens[1]}}
    return {
        "gen_ai.system": "gcp.vertex.agent", "gen_ai.request.model": MODEL,
        "gcp.vertex.agent.invocation_id": invocation, "gcp.vertex.agent.session_id": SESSION,
        "gcp.vertex.agent.event_id": f"ev-{invocation}-{tokens[0]}",
        "gcp.vertex.agent.llm_request": json.dumps(request, ensure_ascii=False) if captured else "{}",
        "gcp.vertex.agent.llm_response": json.dumps(response) if captured else "{}",
        "gen_ai.usage.input_tokens": tokens[0], "gen_ai.usage.output_tokens": tokens[1],
    }


def execute_tool(name: str, call_id: str, args: Any, result: Any, captured: bool = True) -> dict:
    wrapped = result if isinstance(result, dict) else {"result": result}
    return {
        "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.description": name,
        "gen_ai.tool.type": "FunctionTool", "gen_ai.tool.call.id": call_id,
        "gcp.vertex.agent.tool_call_args": json.dumps(args) if captured else "{}",
        "gcp.vertex.agent.tool_response": json.dumps(wrapped) if captured else "{}",
        "gcp.vertex.agent.llm_request": "{}", "gcp.vertex.agent.llm_response": "{}",
    }


ARGS_BALANCE = {"employee_id": "E-44213", "as_of": "2026-06-29"}
ARGS_POLICY = {"topic": "pto_carryover", "jurisdiction": "CA"}
BALANCE = {"hours": 62.5, "plan": "PTO-CA"}
POLICY = {"chunks": ["PTO-CA-2026 §4.2: up to 80 hours carry over."]}


def adk1_turn(base: int, parent: int | None, at: float, invocation: str, question: str, history: list[dict],
              captured: bool = True) -> list[Span]:
    """ADK ~1.14: invocation > invoke_agent > call_llm (> execute_tool x2, parallel) + final call_llm."""
    asked = asks(("c-bal", "get_pto_balance", ARGS_BALANCE), ("c-pol", "search_hr_policy", ARGS_POLICY))
    done = answers(("c-bal", "get_pto_balance", BALANCE), ("c-pol", "search_hr_policy", POLICY))
    reply = said("You have 62.5 hours; up to 80 carry over (PTO-CA-2026 §4.2).")
    first = [*history, user(question)]
    return [
        span(base, "invocation", parent, at, at + 40),
        span(base + 1, "invoke_agent hr_policy_advisor", base, at + 1, at + 39, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "hr_policy_advisor",
            "gen_ai.agent.description": "HR policy advisor", "gen_ai.conversation.id": SESSION}),
        span(base + 2, "call_llm", base + 1, at + 2, at + 20,
             call_llm(first, asked, (812, 12), invocation, captured)),
        # Parallel calls: the second one requested starts first.
        span(base + 4, "execute_tool search_hr_policy", base + 2, at + 10, at + 14,
             execute_tool("search_hr_policy", "c-pol", ARGS_POLICY, POLICY, captured)),
        span(base + 3, "execute_tool get_pto_balance", base + 2, at + 10.001, at + 15,
             execute_tool("get_pto_balance", "c-bal", ARGS_BALANCE, BALANCE, captured)),
        span(base + 5, "execute_tool (merged)", base + 2, at + 15, at + 16, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "(merged tools)",
            "gen_ai.tool.call.id": "ev-merged", "gcp.vertex.agent.tool_call_args": "N/A",
            "gcp.vertex.agent.tool_response": "{}"}),
        span(base + 6, "call_llm", base + 1, at + 21, at + 38,
             call_llm([*first, asked, done], reply, (1431, 82), invocation, captured)),
    ]


def only(traces: list[Trace]) -> Trace:
    assert len(traces) == 1
    return traces[0]
