"""Turn rebuilding from the older GenAI semantic-convention forms: prompt / completion attributes and
message events (../shared/reference/trace-formats.md §2.3).
"""

from __future__ import annotations

import json

from promote.ingest.turns import build_traces
from promote.trace_model import Span, SpanEvent
from tests.turn_spans import only, span

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
