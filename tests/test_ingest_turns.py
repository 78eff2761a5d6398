"""Turn rebuilding per convention, on span sets in the shape each producer writes.

Attribute keys are exactly those of ../shared/reference/trace-formats.md §2-§4 (ADK 1.x `call_llm` /
`execute_tool` with `gcp.vertex.agent.*` JSON, ADK 2.x `generate_content` with GenAI messages,
OpenInference flattened `llm.*` keys, older GenAI event forms).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from promote.ingest.turns import build_traces
from promote.trace_model import Span, SpanEvent, Trace

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


def test_adk1_turn_rebuilds_calls_in_model_order_with_decoded_args_and_results():
    trace = only(build_traces(reversed(adk1_turn(1, None, 0, "e-1", "How much PTO carries over?", []))))
    assert (trace.producer, trace.agent, trace.session_id, trace.service) == (
        "adk-1", "hr_policy_advisor", SESSION, "hr-policy-advisor")
    [turn] = trace.turns
    assert turn.invocation_id == "e-1"
    assert turn.user_input == "How much PTO carries over?"
    assert turn.final_response == "You have 62.5 hours; up to 80 carry over (PTO-CA-2026 §4.2)."
    assert [(c.name, c.args, c.result, c.call_id) for c in turn.tool_calls] == [
        ("get_pto_balance", ARGS_BALANCE, BALANCE, "c-bal"),
        ("search_hr_policy", ARGS_POLICY, POLICY, "c-pol"),
    ]
    assert [m.span_id for m in turn.model_calls] == [f"{3:016x}", f"{7:016x}"]
    assert (turn.input_tokens, turn.output_tokens) == (812 + 1431, 12 + 82)
    assert turn.started_at == datetime(2025, 11, 29, 17, 45, 1, 123456, tzinfo=UTC)
    assert turn.duration_ms == 40.0
    assert len(turn.span_ids) == 7 and turn.content_captured and turn.warnings == []


def test_several_invocations_under_one_enclosing_span_become_turns_in_time_order():
    first = adk1_turn(10, 1, 5, "e-1", "How much PTO carries over?", [])
    history = [user("How much PTO carries over?"), said("You have 62.5 hours.")]
    second = adk1_turn(30, 1, 100, "e-2", "And in New York?", history)
    session = span(1, "chat_session", None, 0, 200, scope={"scope_name": "app", "scope_version": "1"})
    trace = only(build_traces([*second, session, *first]))
    assert [t.invocation_id for t in trace.turns] == ["e-1", "e-2"]
    assert [t.index for t in trace.turns] == [0, 1]
    assert [t.user_input for t in trace.turns] == ["How much PTO carries over?", "And in New York?"]
    assert f"{1:016x}" not in trace.turns[0].span_ids + trace.turns[1].span_ids


def test_without_message_content_turns_keep_names_and_timing_and_say_how_to_capture():
    trace = only(build_traces(adk1_turn(1, None, 0, "e-1", "ignored", [], captured=False)))
    [turn] = trace.turns
    assert not turn.content_captured
    assert (turn.user_input, turn.final_response) == (None, None)
    assert [(c.name, c.args, c.result) for c in turn.tool_calls] == [
        ("search_hr_policy", None, None), ("get_pto_balance", None, None)]  # start order: no call order known
    assert len(turn.model_calls) == 2 and turn.input_tokens == 812 + 1431
    assert len(turn.warnings) == 1 and "ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=true" in turn.warnings[0]


def test_tool_errors_and_python_repr_results():
    spans = [
        span(1, "invoke_agent payroll_agent", None, 0, 50, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "payroll_agent"}),
        span(2, "call_llm", 1, 1, 10, call_llm([user("Fix my W-4")], asks(
            ("c1", "update_w4", {"allowances": 2}), ("c2", "get_stub", {})), (100, 9), "e-9")),
        span(3, "execute_tool update_w4", 1, 11, 12,
             {**execute_tool("update_w4", "c1", {"allowances": 2}, ""),
             "gcp.vertex.agent.tool_response": '{"result": "<not specified>"}', "error.type": "ValueError"},
             status_code="ERROR", status_message="ValueError",
             events=[SpanEvent(name="exception", attributes={
                 "exception.type": "ValueError",
                 "exception.message": "allowances must be filed on form W-4"})]),
        span(4, "execute_tool get_stub", 1, 13, 14, {**execute_tool("get_stub", "c2", {}, ""),
             "gcp.vertex.agent.tool_response": "{'result': {'net': 2450.18, 'period': ('2026-06-01', "
                                               "'2026-06-15')}}"}),
    ]
    [turn] = only(build_traces(spans)).turns
    failed, stub = turn.tool_calls
    assert (failed.error, failed.result) == ("ValueError: allowances must be filed on form W-4", None)
    assert stub.error is None and stub.args == {}
    assert stub.result == {"result": {"net": 2450.18, "period": ["2026-06-01", "2026-06-15"]}}
    assert turn.final_response is None and any("no final text reply" in w for w in turn.warnings)


def test_calls_made_inside_an_agent_tool_stay_out_of_the_callers_trajectory():
    sub = [
        span(20, "invocation", 5, 12, 18),
        span(21, "call_llm", 20, 12.5, 13, call_llm([user("lookup")],
                                                    asks(("s1", "lookup_employee", {"q": "x"})),
                                                     (50, 5), "e-sub")),
        span(22, "execute_tool lookup_employee", 20, 13.5, 14,
             execute_tool("lookup_employee", "s1", {"q": "x"}, {})),
    ]
    spans = [
        span(1, "invocation", None, 0, 30),
        span(2, "call_llm", 1, 1, 10, call_llm([user("Who is my HRBP?")], asks(("c1", "directory_agent", {})),
                                               (100, 9), "e-main")),
        span(5, "execute_tool directory_agent", 1, 11, 19,
             execute_tool("directory_agent", "c1", {}, {"r": 1})),
        *sub,
        span(6, "call_llm", 1, 20, 29, call_llm([user("Who is my HRBP?")], said("Your HRBP is listed."),
                                                (200, 7), "e-main")),
    ]
    [turn] = only(build_traces(spans)).turns
    assert turn.invocation_id == "e-main"
    assert [c.name for c in turn.tool_calls] == ["directory_agent"]
    assert len(turn.model_calls) == 3 and f"{22:016x}" in turn.span_ids
    assert turn.final_response == "Your HRBP is listed."


def test_spans_of_several_traces_in_any_order():
    other = "0af7651916cd43dd8448eb211c80319c"
    a = adk1_turn(1, None, 0, "e-1", "first", [])
    b = [s.model_copy(update={"trace_id": other}) for s in adk1_turn(1, None, 500, "e-2", "second", [])]
    traces = build_traces([*b[::2], *a, *b[1::2], a[0]])  # interleaved, one span twice
    assert [t.trace_id for t in traces] == [TRACE, other]
    assert [t.turns[0].user_input for t in traces] == ["first", "second"]
    assert len(traces[0].turns[0].span_ids) == 7


def test_model_and_tool_spans_without_an_agent_root_group_by_invocation():
    spans = [s for s in adk1_turn(1, None, 0, "e-1", "q1", []) + adk1_turn(20, None, 100, "e-2", "q2", [])
             if s.name.startswith(("call_llm", "execute_tool"))]
    trace = only(build_traces(spans))
    assert [(t.invocation_id, t.user_input, len(t.tool_calls)) for t in trace.turns] == [
        ("e-1", "q1", 2), ("e-2", "q2", 2)]


# --- ADK 2.x ---------------------------------------------------------------------------------------

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


# --- OpenInference ---------------------------------------------------------------------------------

OI = {"scope_name": "openinference.instrumentation.google_adk", "scope_version": "0.1.6"}


def oi_turn() -> list[Span]:
    ids = {"session.id": SESSION, "user.id": "u-17"}
    new_message = {"parts": [{"text": "How much PTO carries over?"}], "role": "user"}
    llm1 = {**ids, "openinference.span.kind": "LLM", "llm.provider": "google", "llm.model_name": MODEL,
            "llm.input_messages.0.message.role": "system",
            "llm.input_messages.0.message.contents.0.message_content.text": "You are an HR assistant.",
            "llm.input_messages.1.message.role": "user",
            "llm.input_messages.1.message.contents.0.message_content.text": "How much PTO carries over?",
            "llm.input_messages.1.message.contents.0.message_content.type": "text",
            "llm.output_messages.0.message.role": "model",
            "llm.output_messages.0.message.tool_calls.0.tool_call.id": "c-bal",
            "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "get_pto_balance",
            "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments":
                json.dumps(ARGS_BALANCE),
            "llm.token_count.prompt": 812, "llm.token_count.completion": 12, "llm.token_count.total": 824}
    llm2 = {**ids, "openinference.span.kind": "LLM", "llm.model_name": MODEL,
            "llm.input_messages.3.message.role": "tool",
            "llm.input_messages.3.message.name": "get_pto_balance",
            "llm.input_messages.3.message.content": json.dumps(BALANCE),
            "llm.output_messages.0.message.role": "model",
            "llm.output_messages.0.message.contents.0.message_content.text": "You have 62.5 hours.",
            "llm.token_count.prompt": 1431, "llm.token_count.completion": 82}
    tool = {**ids, "openinference.span.kind": "TOOL", "tool.name": "get_pto_balance",
            "tool.description": "PTO", "tool.parameters": json.dumps(ARGS_BALANCE),
            "input.value": json.dumps(ARGS_BALANCE),
            "output.value": json.dumps({"id": "c-bal", "name": "get_pto_balance", "response": BALANCE}),
            "gen_ai.tool.call.id": "c-bal"}
    return [
        span(1, "invocation [hr_app]", None, 0, 50, {**ids, "openinference.span.kind": "CHAIN",
             "input.value": json.dumps({"user_id": "u-17", "session_id": SESSION, "new_message": new_message,
                                        "state_delta": None, "run_config": None}),
             "input.mime_type": "application/json"}, scope=OI),
        span(2, "agent_run [hr_policy_advisor]", 1, 1, 49, {**ids, "openinference.span.kind": "AGENT"},
             scope=OI),
        span(3, "call_llm", 2, 2, 10, llm1, scope=OI),
        span(4, "execute_tool get_pto_balance", 2, 11, 12, tool, scope=OI),
        span(5, "call_llm", 2, 13, 48, llm2, scope=OI),
    ]


def test_openinference_flattened_messages_and_function_response_output():
    trace = only(build_traces(oi_turn()))
    assert (trace.producer, trace.agent, trace.session_id, trace.user_id) == (
        "openinference", "hr_policy_advisor", SESSION, "u-17")
    [turn] = trace.turns
    assert turn.user_input == "How much PTO carries over?"
    assert turn.final_response == "You have 62.5 hours."
    assert [(c.name, c.args, c.result, c.call_id) for c in turn.tool_calls] == [
        ("get_pto_balance", ARGS_BALANCE, BALANCE, "c-bal")]
    assert [(m.model, m.input_tokens, m.output_tokens) for m in turn.model_calls] == [
        (MODEL, 812, 12), (MODEL, 1431, 82)]


def test_openinference_root_message_stands_in_when_the_llm_input_is_hidden():
    spans = oi_turn()
    hidden = {k: v for k, v in spans[2].attributes.items() if not k.startswith("llm.input_messages")}
    spans[2] = spans[2].model_copy(update={"attributes": hidden})
    [turn] = only(build_traces(spans)).turns
    assert turn.user_input == "How much PTO carries over?"


# --- GenAI semconv, older forms --------------------------------------------------------------------

PLAIN = {"scope_name": "agent_framework", "scope_version": "1.0.0"}


def genai_turn() -> list[Span]:
    weather_call = {"id": "call_1", "type": "function",
                    "function": {"name": "get_weather", "arguments": "{\"location\": \"Paris\"}"}}
    chat = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai",
            "gen_ai.request.model": "gpt-4.1"}
    return [
        span(1, "invoke_agent travel_desk", None, 0, 30, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "travel_desk",
            "gen_ai.conversation.id": "conv_5j66"}, scope=PLAIN),
        # semconv <= 1.27: prompt/completion span events
        span(2, "chat gpt-4.1", 1, 1, 9, {**chat, "gen_ai.usage.prompt_tokens": 40,
                                          "gen_ai.usage.completion_tokens": 9},
             scope=PLAIN, events=[
                 SpanEvent(name="gen_ai.content.prompt", attributes={
                     "gen_ai.prompt": json.dumps([{"role": "user", "content": "Weather in Paris?"}])}),
                 SpanEvent(name="gen_ai.content.completion", attributes={
                     "gen_ai.completion": json.dumps([{"role": "assistant",
                                                       "tool_calls": [weather_call]}])})]),
        span(3, "execute_tool get_weather", 1, 10, 11, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather",
            "gen_ai.tool.call.id": "call_1", "gen_ai.tool.call.arguments": "{\"location\": \"Paris\"}",
            "gen_ai.tool.call.result": "rainy, 57°F"},
             scope=PLAIN),
        # semconv 1.28-1.36: log-record-shaped events, here attached to the span
        span(4, "chat gpt-4.1", 1, 12, 29, {**chat, "gen_ai.usage.input_tokens": 70,
                                            "gen_ai.usage.output_tokens": 11},
             scope=PLAIN, events=[
                 SpanEvent(name="gen_ai.user.message", attributes={"content": "Weather in Paris?"}),
                 SpanEvent(name="gen_ai.assistant.message",
                           attributes={"body": json.dumps({"tool_calls": [weather_call]})}),
                 SpanEvent(name="gen_ai.tool.message",
                           attributes={"body": {"content": "rainy, 57°F", "id": "call_1"}}),
                 SpanEvent(name="gen_ai.choice", attributes={"body": json.dumps(
                     {"index": 0, "finish_reason": "stop", "message": {"content": "It is rainy, 57°F."}})})]),
    ]


def test_genai_older_event_forms():
    trace = only(build_traces(genai_turn()))
    assert (trace.producer, trace.agent, trace.session_id) == ("genai", "travel_desk", "conv_5j66")
    [turn] = trace.turns
    assert turn.user_input == "Weather in Paris?"
    assert turn.final_response == "It is rainy, 57°F."
    assert [(c.name, c.args, c.result) for c in turn.tool_calls] == [
        ("get_weather", {"location": "Paris"}, "rainy, 57°F")
    ]
    assert (turn.input_tokens, turn.output_tokens) == (110, 20)


def test_spans_of_no_agent_convention_give_a_trace_without_turns():
    trace = only(build_traces([span(1, "GET /health", None, 0, 1, {"http.method": "GET"}, scope={})]))
    assert (trace.producer, trace.turns) == (None, [])


@pytest.mark.parametrize("text, expected", [
    ('{"a": 1}', {"a": 1}), ("{'a': (1, 2)}", {"a": [1, 2]}), ("plain words", "plain words"),
    ("{not json", "{not json"), ("[1, 2", "[1, 2"),
])
def test_tool_values_decode_json_then_python_reprs_else_keep_the_text(text, expected):
    spans = adk1_turn(1, None, 0, "e-1", "q", [])
    spans[3] = spans[3].model_copy(update={"attributes": {**spans[3].attributes,
                                                          "gcp.vertex.agent.tool_response": text}})
    [turn] = only(build_traces(spans)).turns
    assert turn.tool_calls[1].result == expected


def test_merged_tools_span_stands_in_when_the_single_tool_spans_are_missing():
    spans = [s for s in adk1_turn(1, None, 0, "e-1", "q", []) if not s.name.startswith("execute_tool get_")
             and not s.name.startswith("execute_tool search_")]
    event = {"id": "ev-merged", "author": "hr_policy_advisor", "invocation_id": "e-1",
             "content": answers(("c-bal", "get_pto_balance", BALANCE), ("c-pol", "search_hr_policy", POLICY))}
    at = next(i for i, s in enumerate(spans) if s.name == "execute_tool (merged)")
    merged = spans[at]
    spans[at] = merged.model_copy(
        update={"attributes": {**merged.attributes, "gcp.vertex.agent.tool_response": json.dumps(event)}}
    )
    [turn] = only(build_traces(spans)).turns
    assert [(c.name, c.args, c.result, c.span_id) for c in turn.tool_calls] == [
        ("get_pto_balance", ARGS_BALANCE, BALANCE, merged.span_id),
        ("search_hr_policy", ARGS_POLICY, POLICY, merged.span_id)]


def test_hostile_shapes_do_not_crash_the_builder():
    deep = "[" * 100_000 + "]" * 100_000
    spans = [
        span(1, "invoke_agent a", 2, 0, 10, {"gen_ai.operation.name": "invoke_agent"}),  # a parent cycle
        span(2, "invoke_agent b", 1, 0, 10, {"gen_ai.operation.name": "invoke_agent"}),
        span(3, "execute_tool deep", 1, 1, 2, {**execute_tool("deep", "d1", {}, {}),
                                               "gcp.vertex.agent.tool_response": deep}),
    ]
    trace = only(build_traces(spans))
    [call] = [c for turn in trace.turns for c in turn.tool_calls]
    assert call.name == "deep" and call.result == deep
