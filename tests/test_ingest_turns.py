"""Turn rebuilding from ADK 1.x spans (`call_llm` / `execute_tool` with `gcp.vertex.agent.*` JSON), and
what any convention's builder must survive.

Attribute keys are exactly those of ../shared/reference/trace-formats.md §3; ADK 2.x, OpenInference and
the older GenAI forms have their own test modules (test_ingest_turns_*.py).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from promote.ingest.turns import build_traces
from promote.trace_model import SpanEvent
from tests.turn_spans import (
    ARGS_BALANCE,
    ARGS_POLICY,
    BALANCE,
    POLICY,
    SESSION,
    TRACE,
    adk1_turn,
    answers,
    asks,
    call_llm,
    execute_tool,
    only,
    said,
    span,
    user,
)


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
