"""Turns rebuilt from Langfuse's own exports of framework traces (issue 38): pydantic-ai, Microsoft
Agent Framework and the OpenAI Agents SDK under OpenInference, as Langfuse's OTel ingestion stored them.

Fixtures: fixtures/traces/producers/langfuse-frameworks/ (copied unchanged from Langfuse's repository),
ground truth in its expected.json, written from the observations themselves. Before issue 38 the three
gave: pydantic-ai 0 tools and "(no content)" (its content sits in Langfuse's `input`/`output`, its tool
spans have no `execute_tool` operation), Agent Framework "(no content)" with "message content was not
captured", the OpenAI Agents SDK "no final text reply" (the reply is in a Responses API object).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import pytest

from promote.batch.run import ScrubOptions, scrub_exports
from promote.draft import DraftOptions, draft_from_export
from promote.ingest import iter_spans, open_export
from promote.ingest.turns import build_traces
from promote.trace_model import Trace
from tests.conftest import TRACES, run_cli

FRAMEWORKS = TRACES / "producers" / "langfuse-frameworks"
EXPECTED = json.loads((FRAMEWORKS / "expected.json").read_text(encoding="utf-8"))
FILES = sorted(EXPECTED["files"])
AGENT_FRAMEWORK = FRAMEWORKS / "microsoft-agent-2025-10-14.json"
PLANTED_EMAIL = "maria.gonzalez@acme-retail.com"


@cache
def traces_of(path: Path) -> tuple[Trace, ...]:
    return tuple(t for t in build_traces(iter_spans([path])) if t.producer is not None)


def truth(name: str) -> tuple[dict, dict]:
    """(the file's truth, its first turn: the one with the tool calls)."""
    meta = EXPECTED["files"][name]
    return meta, meta["turns"][0]


def test_every_file_in_the_folder_has_its_truth() -> None:
    on_disk = {p.name for p in FRAMEWORKS.glob("*.json") if p.name != "expected.json"}
    assert on_disk == set(FILES) and len(FILES) == 3
    assert "Permission is hereby granted, free of charge" in (FRAMEWORKS / "LICENSE").read_text()


@pytest.mark.parametrize("name", FILES)
def test_the_turns_are_rebuilt_with_input_tools_in_order_reply_and_tokens(name: str) -> None:
    assert open_export(FRAMEWORKS / name).format == "langfuse"
    meta, _ = truth(name)
    (trace,) = traces_of(FRAMEWORKS / name)
    assert (trace.trace_id, trace.producer) == (meta["trace_id"], meta["convention"])
    assert trace.agent == meta["agent"]
    assert len(trace.turns) == len(meta["turns"])
    for turn, want in zip(trace.turns, meta["turns"], strict=True):
        assert turn.user_input == want["user_input"]
        assert turn.final_response == want["final_response"]
        assert [(c.name, c.args, c.call_id, c.result) for c in turn.tool_calls] == [
            (c["name"], c["args"], c["call_id"], c["result"]) for c in want["tool_calls"]]
        assert all(c.error is None for c in turn.tool_calls)
        assert [(m.model, m.input_tokens, m.output_tokens) for m in turn.model_calls] == [
            (m["model"], m["input_tokens"], m["output_tokens"]) for m in want["model_calls"]]
        assert (turn.input_tokens, turn.output_tokens) == (want["input_tokens"], want["output_tokens"])
        assert turn.content_captured and turn.warnings == []


def test_pydantic_ai_agent_runs_are_turns_and_a_structured_output_is_the_reply() -> None:
    """One trace of three `agent.run()`s: finding inspiration (three tools), writing the joke, and an
    evaluator whose structured output is a call of its `final_result` output tool, not a tool call."""
    (trace,) = traces_of(FRAMEWORKS / "pydantic-ai-tools-2025-12-04.json")
    spans = {s.span_id: s for s in trace.spans}
    roots = [next(spans[i] for i in turn.span_ids if spans[i].name.endswith(" run")) for turn in trace.turns]
    assert [r.name for r in roots] == ["joke_agent run", "joke_agent run", "evaluator_agent run"]
    assert [len(t.tool_calls) for t in trace.turns] == [3, 0, 0]
    assert json.loads(trace.turns[2].final_response)["quality"] == "good"


def test_pydantic_ai_tools_are_named_by_the_span_not_by_langfuse_observation_name() -> None:
    (trace,) = traces_of(FRAMEWORKS / "pydantic-ai-tools-2025-12-04.json")
    spans = {s.span_id: s for s in trace.spans}
    for call in trace.turns[0].tool_calls:
        assert spans[call.span_id].name == f"running tool: {call.name}"  # Langfuse's observation name
        assert set(call.args) == {"topic"}


def test_langfuse_token_estimate_is_no_count_the_producer_reported() -> None:
    """Agent Framework reported no usage on its first chat span; Langfuse's export shows a tokenizer
    estimate there (25/70). The turn's totals are the agent span's own (631/35), not 656/105."""
    doc = json.loads(AGENT_FRAMEWORK.read_text(encoding="utf-8"))
    first = min((o for o in doc["observations"] if o["type"] == "GENERATION"), key=lambda o: o["startTime"])
    assert first["usageDetails"] == {"input": 25, "output": 70, "total": 95}
    assert "gen_ai.usage.input_tokens" not in first["metadata"]["attributes"]
    agent = next(o for o in doc["observations"] if o["type"] == "AGENT")["metadata"]["attributes"]
    turn = traces_of(AGENT_FRAMEWORK)[0].turns[0]
    assert turn.model_calls[0].input_tokens is None and turn.model_calls[0].output_tokens is None
    assert (turn.input_tokens, turn.output_tokens) == (int(agent["gen_ai.usage.input_tokens"]),
                                                       int(agent["gen_ai.usage.output_tokens"]))


@pytest.mark.parametrize("name", FILES)
def test_metadata_input_and_output_as_json_text_read_the_same(name: str, tmp_path: Path) -> None:
    """Langfuse's stored rows (its own worker tests' framework traces) hold them as JSON text."""
    doc = json.loads((FRAMEWORKS / name).read_text(encoding="utf-8"))
    for observation in doc["observations"]:
        for field in ("metadata", "input", "output"):
            if isinstance(observation.get(field), (dict, list)):
                observation[field] = json.dumps(observation[field])
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    (before,) = traces_of(FRAMEWORKS / name)
    (after,) = traces_of(path)
    assert after.producer == before.producer
    assert [t.model_dump() for t in after.turns] == [t.model_dump() for t in before.turns]


def test_native_observations_still_count_langfuse_usage() -> None:
    """The SDK's own observations have nothing but Langfuse's usage: it stays their token count."""
    (trace,) = traces_of(TRACES / "producers" / "langfuse-native.carryover.json")
    assert all(m.input_tokens and m.output_tokens for m in trace.turns[0].model_calls)


# --- the commands ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_promote_traces_lists_the_turn(name: str) -> None:
    result = run_cli("traces", str(FRAMEWORKS / name), "--json")
    assert result.returncode == 0, result.stderr.decode()
    _, want = truth(name)
    (trace,) = json.loads(result.stdout)["traces"]
    assert len(trace["turns"]) == len(EXPECTED["files"][name]["turns"])
    turn = trace["turns"][0]
    assert [c["name"] for c in turn["tool_calls"]] == [c["name"] for c in want["tool_calls"]]
    assert [sorted(c["args"]) for c in turn["tool_calls"]] == [sorted(c["args"]) for c in want["tool_calls"]]
    assert all(c["result"] for c in turn["tool_calls"])
    assert turn["user_input"] and turn["final_response"] and turn["warnings"] == []
    assert (turn["input_tokens"], turn["output_tokens"]) == (want["input_tokens"], want["output_tokens"])
    table = run_cli("traces", str(FRAMEWORKS / name)).stdout.decode()
    assert "(no content)" not in table and "not captured" not in table and "no final text reply" not in table


def agent_framework_with_an_email(tmp_path: Path) -> Path:
    """The Agent Framework export with an email in the places the turn is now read from: the tool's
    Langfuse output and the user message in the AGENT and GENERATION inputs."""
    text = AGENT_FRAMEWORK.read_text(encoding="utf-8")
    assert text.count("Portland?") >= 3
    path = tmp_path / AGENT_FRAMEWORK.name
    path.write_text(text.replace("Portland?", f"Portland? Mail me at {PLANTED_EMAIL}")
                    .replace("high of 19°C.", f"high of 19°C. Sent to {PLANTED_EMAIL}"), encoding="utf-8")
    return path


def test_traces_scrubs_what_langfuse_fields_now_bring_in(tmp_path: Path) -> None:
    path = agent_framework_with_an_email(tmp_path)
    raw = run_cli("traces", str(path), "--json", "--no-scrub")
    assert PLANTED_EMAIL in raw.stdout.decode()  # the planted value reaches the turn: the test can fail
    scrubbed = run_cli("traces", str(path), "--json")
    assert scrubbed.returncode == 0
    assert PLANTED_EMAIL not in scrubbed.stdout.decode() and "acme-retail" not in scrubbed.stdout.decode()
    (turn,) = json.loads(scrubbed.stdout)["traces"][0]["turns"]
    assert "<EMAIL" in turn["user_input"] and "<EMAIL" in turn["tool_calls"][0]["result"]


@pytest.fixture(scope="module")
def engine():
    from scrubbers import ScrubEngine, load_policy

    return ScrubEngine(load_policy())


@pytest.mark.parametrize("name", FILES)
def test_draft_a_case_from_each_export(name: str, engine) -> None:
    meta, want = truth(name)
    options = DraftOptions(by="hermione.g", now=datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC))
    result = draft_from_export(FRAMEWORKS / name, trace_id=meta["trace_id"], options=options, engine=engine)
    case = result.case
    assert [(t.name, t.args) for t in case.expected_tools.calls] == [
        (c["name"], c["args"]) for c in want["tool_calls"]]
    assert case.input == want["user_input"]
    assert case.expected_output and case.expected_output.split()[:3] == want["final_response"].split()[:3]
    assert case.provenance.trace.trace_id == meta["trace_id"]


@pytest.mark.parametrize("name, turn", [
    # the tool result's "Pun idea: ..." is a label, not a person (it was: save_case then refused the reply)
    ("pydantic-ai-tools-2025-12-04.json", 0),
    ("pydantic-ai-tools-2025-12-04.json", 1),
    ("microsoft-agent-2025-10-14.json", 0),
    ("openai-agents-2025-09-30.json", 0),
])
def test_promote_draft_writes_the_case(name: str, turn: int, tmp_path: Path) -> None:
    meta = EXPECTED["files"][name]
    result = run_cli("draft", str(FRAMEWORKS / name), "--trace", meta["trace_id"][:8], "--turn", str(turn),
                     "--by", "hermione.g", "-o", str(tmp_path))
    assert result.returncode == 0, result.stderr.decode()
    (written,) = tmp_path.glob("*.yaml")
    text = written.read_text(encoding="utf-8")
    assert all(f"name: {c['name']}" in text for c in meta["turns"][turn]["tool_calls"])
    assert "expected_output:" in text and meta["trace_id"] in text


def test_draft_of_the_planted_export_leaks_nothing(tmp_path: Path, engine) -> None:
    path = agent_framework_with_an_email(tmp_path)
    options = DraftOptions(by="hermione.g", now=datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC))
    case = draft_from_export(path, trace_id=EXPECTED["files"][path.name]["trace_id"], options=options,
                             engine=engine).case
    assert PLANTED_EMAIL not in case.model_dump_json() and "<EMAIL" in case.input


def test_scrub_keeps_each_export_and_it_still_rebuilds(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    planted = agent_framework_with_an_email(tmp_path / "in")
    sources = [str(FRAMEWORKS / n) for n in FILES if n != AGENT_FRAMEWORK.name] + [str(planted)]
    report = scrub_exports(sources, str(tmp_path / "out"), ScrubOptions(workers=1))
    assert {f.format for f in report.files} == {"langfuse"}
    for name in FILES:
        out = tmp_path / "out" / name
        assert PLANTED_EMAIL not in out.read_text(encoding="utf-8")
        before = json.loads((FRAMEWORKS / name).read_text(encoding="utf-8"))
        after = json.loads(out.read_text(encoding="utf-8"))
        assert [(o["id"], o["type"]) for o in after["observations"]] == [
            (o["id"], o["type"]) for o in before["observations"]]
        (trace,) = traces_of(out)
        want = truth(name)[1]["tool_calls"]
        assert [c.name for c in trace.turns[0].tool_calls] == [c["name"] for c in want]
