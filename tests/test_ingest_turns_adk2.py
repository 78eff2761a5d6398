"""Turn rebuilding from ADK 2.x spans: `generate_content` with GenAI messages under schema v2, the legacy
`call_llm` attributes beside them (../shared/reference/trace-formats.md §2 and §3).
"""

from __future__ import annotations

import json

from promote.ingest.turns import build_traces
from promote.trace_model import Span
from tests.turn_spans import (
    ARGS_BALANCE,
    ARGS_POLICY,
    BALANCE,
    MODEL,
    POLICY,
    SESSION,
    asks,
    call_llm,
    execute_tool,
    only,
    said,
    span,
    user,
)

ADK2 = {"scope_name": "gcp.vertex.agent", "scope_version": "2.13.0"}


def text(role: str, content: str) -> dict: return {"role": role,
                                                   "parts": [{"content": content, "type": "text"}]}


def generate_content(invocation: str, inputs: list[dict] | None, outputs: list[dict] | None,
                     tokens: tuple[int, int]) -> dict:
    attrs = {
        "gen_ai.system": "gemini", "gen_ai.operation.name": "generate_content", "gen_ai.request.model": MODEL,
        "gen_ai.agent.name": "hr_policy_advisor", "gen_ai.conversation.id": SESSION, "user.id": "u-17",
        "gcp.vertex.agent.event_id": f"ev-{tokens[0]}", "gcp.vertex.agent.invocation_id": invocation,
        "gen_ai.usage.input_tokens": tokens[0], "gen_ai.usage.output_tokens": tokens[1],
        "gen_ai.response.finish_reasons": ["stop"],
    }
    if inputs is not None:
        attrs["gen_ai.input.messages"] = json.dumps(inputs, separators=(",", ":"))
        attrs["gen_ai.output.messages"] = json.dumps(outputs, separators=(",", ":"))
    return attrs


def adk2_turn(semconv_content: bool, legacy_content: bool) -> list[Span]:
    """Schema v2: invoke_workflow > invoke_agent > call_llm > generate_content; tools beside call_llm."""
    question = text("user", "How much PTO carries over?")
    calls = {"role": "assistant", "finish_reason": "stop", "parts": [
        {"id": "c-bal", "name": "get_pto_balance", "arguments": ARGS_BALANCE, "type": "tool_call"},
        {"id": "c-pol", "name": "search_hr_policy", "arguments": ARGS_POLICY, "type": "tool_call"}]}
    results = {"role": "user", "parts": [{"id": "c-bal", "response": BALANCE, "type": "tool_call_response"},
                                         {"id": "c-pol", "response": POLICY, "type": "tool_call_response"}]}
    reply = {**text("assistant", "You have 62.5 hours."), "finish_reason": "stop"}
    first_in, second_in = ([question], [question, calls, results]) if semconv_content else (None, None)
    legacy = [user("How much PTO carries over?")]
    return [
        span(1, "invoke_workflow hr_policy_advisor", None, 0, 60, {
            "gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": "hr_policy_advisor",
            "gen_ai.conversation.id": SESSION}, scope=ADK2),
        span(2, "invoke_agent hr_policy_advisor", 1, 1, 59, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "hr_policy_advisor",
            "gen_ai.conversation.id": SESSION}, scope=ADK2),
        span(3, "call_llm", 2, 2, 20, call_llm(legacy, asks(("c-bal", "get_pto_balance", ARGS_BALANCE),
                                                            ("c-pol", "search_hr_policy", ARGS_POLICY)),
                                               (812, 12), "e-2", legacy_content), scope=ADK2),
        span(4, f"generate_content {MODEL}", 3, 3, 19,
             generate_content("e-2", first_in, [calls] if first_in else None, (812, 12)), scope=ADK2),
        span(6, "execute_tool search_hr_policy", 2, 21, 25,
             execute_tool("search_hr_policy", "c-pol", ARGS_POLICY, POLICY, legacy_content), scope=ADK2),
        span(5, "execute_tool get_pto_balance", 2, 21.002, 26,
             execute_tool("get_pto_balance", "c-bal", ARGS_BALANCE, BALANCE, legacy_content), scope=ADK2),
        span(7, "call_llm", 2, 30, 58, call_llm(legacy, said("You have 62.5 hours."), (1431, 82), "e-2",
                                                legacy_content), scope=ADK2),
        span(8, f"generate_content {MODEL}", 7, 31, 57,
             generate_content("e-2", second_in, [reply] if second_in else None, (1431, 82)), scope=ADK2),
    ]


def test_adk2_counts_each_model_request_once_and_reads_genai_messages():
    trace = only(build_traces(adk2_turn(semconv_content=True, legacy_content=False)))
    assert (trace.producer, trace.agent, trace.session_id, trace.user_id) == (
        "adk-2", "hr_policy_advisor", SESSION, "u-17")
    [turn] = trace.turns
    assert [m.span_id for m in turn.model_calls] == [f"{4:016x}", f"{8:016x}"]
    assert (turn.input_tokens, turn.output_tokens) == (812 + 1431, 12 + 82)
    assert turn.user_input == "How much PTO carries over?"
    assert turn.final_response == "You have 62.5 hours."
    # The legacy tool attributes are "{}": arguments and results come from the model's messages.
    assert [(c.name, c.args, c.result) for c in turn.tool_calls] == [
        ("get_pto_balance", ARGS_BALANCE, BALANCE), ("search_hr_policy", ARGS_POLICY, POLICY)]
    assert turn.content_captured and turn.warnings == []
    assert turn.duration_ms == 60.0 and turn.invocation_id == "e-2"


def test_adk2_without_content_names_both_switches():
    [turn] = only(build_traces(adk2_turn(semconv_content=False, legacy_content=False))).turns
    assert not turn.content_captured and len(turn.model_calls) == 2
    assert [c.name for c in turn.tool_calls] == ["search_hr_policy", "get_pto_balance"]
    [warning] = turn.warnings
    for switch in ("ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=true",
                   "OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental",
                   "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=SPAN_ONLY"):
        assert switch in warning


def test_adk2_legacy_content_alone_is_enough():
    [turn] = only(build_traces(adk2_turn(semconv_content=False, legacy_content=True))).turns
    assert turn.content_captured and turn.user_input == "How much PTO carries over?"
    assert turn.final_response == "You have 62.5 hours."
    assert [c.result for c in turn.tool_calls] == [BALANCE, POLICY]
