"""Turns rebuilt from what other producers export: Monocle over google-adk and the OpenAI Agents SDK,
Langfuse trace exports (OTel-ingested and native), kagent's Tempo export with the controller's HTTP
span. Fixtures: fixtures/traces/producers/ (fixtures/generate_producer_traces.py), ground truth in its
expected.json (what the scripted model and the tools really did).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from promote.ingest import iter_spans, open_export
from promote.ingest.turns import build_trace, build_traces
from promote.listing import list_traces
from promote.trace_model import Span, Trace
from tests.conftest import TRACES

PRODUCERS = TRACES / "producers"
EXPECTED = json.loads((PRODUCERS / "expected.json").read_text(encoding="utf-8"))
FILES = EXPECTED["files"]
MONOCLE = sorted(name for name, meta in FILES.items() if meta["format"] == "monocle")
LANGFUSE = sorted(name for name, meta in FILES.items() if meta["format"] == "langfuse")


@cache
def traces_of(path: Path) -> tuple[Trace, ...]:
    return tuple(t for t in build_traces(iter_spans([path])) if t.producer is not None)


def truth_turn(name: str) -> tuple[dict, dict]:
    """(scenario, turn) the file holds: Monocle writes one file per turn (`-1`, `-2` for a session)."""
    meta = FILES[name]
    scenarios = EXPECTED["runs"][meta["run"]]["scenarios"]
    scenario = next(s for s in scenarios if s["scenario"] == meta["scenario"])
    number = int(name.rsplit("-", 1)[1].split(".")[0]) - 1 if name.split(".")[1].endswith(("-1", "-2")) else 0
    return scenario, scenario["turns"][number]


def obfuscated(value):
    """What Monocle's default span obfuscation writes for a credential (`Authorization` headers)."""
    if isinstance(value, dict):
        return {k: "<REDACTED>" if k == "Authorization" else obfuscated(v) for k, v in value.items()}
    return value


def mcp_text(value):
    """An MCP `CallToolResult` as Monocle records it: the decoded text of its content."""
    if isinstance(value, dict) and isinstance(value.get("content"), list) and value["content"]:
        return json.loads(value["content"][0]["text"])
    return value


def assert_turn_matches(trace: Trace, scenario: dict, want: dict) -> None:
    (turn,) = trace.turns
    assert turn.user_input == want["user_input"]
    assert turn.final_response == want["final_response"]
    assert [(c.name, c.args) for c in turn.tool_calls] == [(c["name"], c["args"]) for c in want["tool_calls"]]
    for call, truth in zip(turn.tool_calls, want["tool_calls"], strict=True):
        if truth["error"]:  # Monocle keeps the message, ADK 2's own spans say TOOL_ERROR
            assert call.error == "TOOL_ERROR" or call.error.split(": ", 1)[-1] in truth["error"], call.error
            assert call.result is None
        else:
            assert call.error is None and call.result in (truth["result"], obfuscated(truth["result"]),
                                                          mcp_text(truth["result"]))
    assert len(turn.model_calls) == want["model_calls"]
    assert all(m.input_tokens and m.output_tokens for m in turn.model_calls)
    assert turn.input_tokens == sum(m.input_tokens for m in turn.model_calls)
    assert trace.user_id == scenario["user_id"]
    assert trace.agent == "hr_policy_advisor"
    assert turn.warnings == []


@pytest.mark.parametrize("name", MONOCLE)
def test_monocle_turns_tools_replies_tokens_and_user_ids(name: str) -> None:
    assert open_export(PRODUCERS / name).format == "monocle"
    (trace,) = traces_of(PRODUCERS / name)
    assert trace.producer == "monocle"
    scenario, want = truth_turn(name)
    assert_turn_matches(trace, scenario, want)
    if FILES[name]["run"] == "monocle-adk":  # ADK's session and invocation id ride in Monocle's scopes
        assert trace.session_id == scenario["session_id"]
        assert trace.turns[0].invocation_id.startswith("e-")
        assert {m.model for m in trace.turns[0].model_calls} == {"gemini-2.5-flash"}
    else:
        assert {m.model for m in trace.turns[0].model_calls} == {"gpt-4.1-mini"}


@pytest.mark.parametrize("name", LANGFUSE)
def test_langfuse_exports_turns_tools_replies_tokens_and_user_ids(name: str) -> None:
    assert open_export(PRODUCERS / name).format == "langfuse"
    (trace,) = traces_of(PRODUCERS / name)
    scenario, want = truth_turn(name)
    # OTel-ingested observations keep their attributes: OpenInference reads them; native ones are Langfuse's
    assert trace.producer == ("openinference" if FILES[name]["run"] == "langfuse-otel" else "langfuse")
    assert trace.session_id == scenario["session_id"]
    assert_turn_matches(trace, scenario, want)


def test_kagent_tempo_controller_http_span_is_no_phantom_turn_and_names_no_agent() -> None:
    (trace,) = traces_of(PRODUCERS / "kagent.tempo.json")
    (scenario,) = EXPECTED["runs"]["kagent"]["scenarios"]
    (want,) = scenario["turns"]
    assert len(trace.turns) == 1  # the otelhttp `invoke_agent hr-policy-advisor` span was turn 0
    assert trace.agent == "hr_policy_advisor"  # ADK's agent, not the controller's `hr-policy-advisor`
    assert trace.user_id == scenario["user_id"]  # kagent.user_id
    assert trace.turns[0].user_input == want["user_input"]
    assert [c.name for c in trace.turns[0].tool_calls] == [c["name"] for c in want["tool_calls"]]
    assert trace.turns[0].warnings == []


# --- variants of the real files -----------------------------------------------------------------


def monocle_doc(name: str) -> list[dict]:
    return json.loads((PRODUCERS / name).read_text(encoding="utf-8"))


def write(tmp_path: Path, doc, name: str = "trace.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc, indent=4), encoding="utf-8")
    return path


def test_monocle_ids_with_0x_and_json_tool_results_read_the_same(tmp_path: Path) -> None:
    doc = monocle_doc("monocle-adk.carryover.json")
    for span in doc:
        span["context"]["trace_id"] = "0x" + span["context"]["trace_id"]
        span["context"]["span_id"] = "0x" + span["context"]["span_id"]
        span["parent_id"] = "0x" + span["parent_id"] if span["parent_id"] else None
        for event in span["events"]:  # JSON instead of the Python repr Monocle 0.8.15 writes for ADK
            is_tool = span["attributes"]["span.type"] == "agentic.tool.invocation"
            if is_tool and event["name"] == "data.output":
                event["attributes"]["response"] = json.dumps(eval_free_repr(event["attributes"]["response"]))
    (before,) = traces_of(PRODUCERS / "monocle-adk.carryover.json")
    (after,) = traces_of(write(tmp_path, doc))
    assert after.trace_id == before.trace_id
    assert after.turns[0].model_dump(exclude={"span_ids"}) == before.turns[0].model_dump(exclude={"span_ids"})


def eval_free_repr(text: str):
    import ast

    return ast.literal_eval(text)


def test_monocle_real_mcp_tool_call() -> None:
    (trace,) = traces_of(PRODUCERS / "monocle-adk.holiday_mcp.json")
    spans = {s.span_id: s for s in trace.spans}
    (call,) = trace.turns[0].tool_calls
    assert spans[call.span_id].attributes["span.type"] == "agentic.mcp.invocation"
    assert (call.name, call.args) == ("get_holiday_calendar", {"state": "CA", "year": 2026})
    assert call.result["calendar"] == "HOL-CA-2026"


def test_monocle_mcp_tool_and_reply_from_turn_end_inference(tmp_path: Path) -> None:
    doc = monocle_doc("monocle-adk.carryover.json")
    for span in doc:
        attributes = span["attributes"]
        is_tool = attributes["span.type"].startswith("agentic.tool")
        if is_tool and attributes.get("entity.1.name") == "search_hr_policy":
            attributes.update({"span.type": "agentic.mcp.invocation", "entity.1.type": "mcp.server"})
            for event in span["events"]:
                if event["name"] == "data.output":
                    event["attributes"] = {"output": event["attributes"]["response"]}
        if attributes["span.type"] in ("agentic.turn", "agentic.invocation"):  # empty turn output
            span["events"] = [e for e in span["events"] if e["name"] != "data.output"]
        if attributes["span.type"] == "inference" and attributes.get("span.subtype") != "turn_end":
            span["events"] = [e for e in span["events"] if e["name"] != "data.output"]
    (trace,) = traces_of(write(tmp_path, doc))
    _, want = truth_turn("monocle-adk.carryover.json")
    assert [c.name for c in trace.turns[0].tool_calls] == ["get_employee_context", "search_hr_policy"]
    assert trace.turns[0].tool_calls[1].result == want["tool_calls"][1]["result"]
    assert trace.turns[0].final_response == want["final_response"]


def openinference_spans() -> list[Span]:
    return list(iter_spans([TRACES / "openinference-schema1.otlp.jsonl.gz"]))


def test_openinference_reply_from_the_agent_span_when_no_llm_span_has_it() -> None:
    runs = json.loads((TRACES / "expected.json").read_text())["runs"]
    truth = runs["openinference-schema1"]["scenarios"][0]
    spans = [s for s in openinference_spans() if s.trace_id == truth["trace_id"]]
    outputs = ("output.", "llm.output_messages", "gcp.vertex.agent.llm_response")
    for span in spans:  # what the held-out runs look like: no LLM span records the model's output
        if span.attributes.get("openinference.span.kind") == "LLM":
            span.attributes = {k: v for k, v in span.attributes.items() if not k.startswith(outputs)}
    trace = build_trace(spans)
    assert trace.turns[0].final_response == truth["turns"][0]["final_response"]


@pytest.mark.parametrize("key", ["user.id", "enduser.id", "kagent.user_id"])
def test_user_id_from_every_convention_key(key: str) -> None:
    spans = [s for s in openinference_spans() if s.trace_id == openinference_spans()[0].trace_id]
    for span in spans:
        span.attributes = {k: v for k, v in span.attributes.items() if k != "user.id"}
    spans[0].attributes[key] = "E-99001"
    assert build_trace(spans).user_id == "E-99001"


# --- never zero in silence ------------------------------------------------------------------------


def test_monocle_spans_without_a_turn_say_so(tmp_path: Path) -> None:
    doc = [s for s in monocle_doc("monocle-adk.carryover.json") if s["attributes"]["span.type"] == "workflow"]
    listing = list_traces([write(tmp_path, doc)])
    assert listing.turn_count == 0
    (note,) = listing.without_turns
    assert str(tmp_path / "trace.json") + ":" in note.where
    assert "spans carry Monocle attributes but no agentic.turn span" in note.why
