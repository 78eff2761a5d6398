"""Turn rebuilding from OpenInference spans: flattened `llm.*` message keys, `input.value` / `output.value`
(../shared/reference/trace-formats.md §4).
"""

from __future__ import annotations

import json

from promote.ingest.turns import build_traces
from promote.trace_model import Span
from tests.turn_spans import ARGS_BALANCE, BALANCE, MODEL, SESSION, only, span

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
