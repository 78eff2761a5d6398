"""Turns rebuilt from the committed ADK fixtures (fixtures/traces/, made by real google-adk runs).

Ground truth is fixtures/traces/expected.json: per run and scenario the user input, final reply, tool
calls in the model's call order (name, args, call id, result or error) and the number of model calls.
Every file of a run must give the same turns, whatever its format and compression.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from promote.ingest import iter_spans
from promote.ingest.turns import build_traces
from promote.source import read_traces
from promote.listing import TraceListing, list_traces, render_table
from promote.trace_model import Trace

TRACES = Path(__file__).resolve().parent.parent / "fixtures" / "traces"
EXPECTED = json.loads((TRACES / "expected.json").read_text(encoding="utf-8"))
FILES = sorted(EXPECTED["files"])
RUNS: dict[str, list[str]] = {}
for _name in FILES:
    RUNS.setdefault(EXPECTED["files"][_name]["run"], []).append(_name)


@cache
def traces_of(name: str) -> tuple[Trace, ...]:
    return tuple(t for t in build_traces(iter_spans([TRACES / name])) if t.producer is not None)


def test_every_fixture_file_is_in_expected_json():
    on_disk = {p.name for p in TRACES.iterdir()
               # producers/: own truth
               if p.is_file() and p.suffix not in (".md",) and p.name != "expected.json"}
    assert on_disk == set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_turns_match_what_the_scripted_model_did(name: str):
    meta = EXPECTED["files"][name]
    traces = traces_of(name)
    assert len(traces) == meta["traces"]
    for scenario in EXPECTED["runs"][meta["run"]]["scenarios"]:
        trace = traces[scenario["trace_index"]]
        label = f"{name} {scenario['scenario']}"
        assert trace.trace_id == scenario["trace_id"], label
        assert (trace.service, trace.agent, trace.session_id) == (
            "hr-policy-advisor", "hr_policy_advisor", scenario["session_id"]), label
        assert trace.user_id in (None, scenario["user_id"]), label  # only OpenInference records it
        assert len(trace.turns) == len(scenario["turns"]), label
        for turn, expected in zip(trace.turns, scenario["turns"], strict=True):
            assert len(turn.model_calls) == expected["model_calls"], label
            assert [(c.name, c.call_id) for c in turn.tool_calls] == [
                (c["name"], c["call_id"]) for c in expected["tool_calls"]], label
            assert turn.content_captured is meta["content"], label
            if meta["content"]:
                assert_content(turn, expected, label)
            else:
                assert_no_content(turn, expected, label)


def assert_content(turn: Any, expected: dict, label: str) -> None:
    assert turn.user_input == expected["user_input"], label
    assert turn.final_response == expected["final_response"], label
    got = [{"name": c.name, "args": c.args, "call_id": c.call_id, "result": c.result, "error": c.error}
           for c in turn.tool_calls]
    assert got == expected["tool_calls"], label
    assert all(not w.startswith("message content") for w in turn.warnings), label


def assert_no_content(turn: Any, expected: dict, label: str) -> None:
    assert (turn.user_input, turn.final_response) == (None, None), label
    assert all(c.args is None and c.result is None for c in turn.tool_calls), label
    # A failure is still visible from the span status.
    assert [c.error is not None for c in turn.tool_calls] == [c["error"] is not None
                                                              for c in expected["tool_calls"]]
    assert any("ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=true" in w and "SPAN_ONLY" in w
               for w in turn.warnings), label
    assert turn.input_tokens and turn.output_tokens, label


def comparable(trace: Trace) -> tuple[dict, list[tuple[float, float]]]:
    """A trace as listed, and apart its turns' start (µs) and duration (ms): formats keep time at
    different precision (console output rounds to the microsecond, Jaeger truncates)."""
    dump = trace.model_dump(mode="json", exclude={"producer"})
    timing = []
    for turn, model in zip(dump["turns"], trace.turns, strict=True):
        del turn["started_at"]
        timing.append((model.started_at.timestamp() * 1e6, turn.pop("duration_ms")))
    return dump, timing


@pytest.mark.parametrize("run", [run for run, names in RUNS.items() if len(names) > 1])
def test_every_format_of_a_run_gives_the_same_turns(run: str):
    first, *others = RUNS[run]
    reference = [comparable(t) for t in traces_of(first)]
    for name in others:
        other = [comparable(t) for t in traces_of(name)]
        assert [dump for dump, _ in other] == [dump for dump, _ in reference], f"{name} differs from {first}"
        for (_, times), (_, expected_times) in zip(other, reference, strict=True):
            for (start, duration), (expected_start, expected_duration) in zip(
                times, expected_times, strict=True
            ):
                assert abs(start - expected_start) <= 2 and abs(duration - expected_duration) <= 0.003, name


def test_parallel_calls_keep_the_model_call_order_in_every_run():
    for run, names in RUNS.items():
        [scenario] = [s for s in EXPECTED["runs"][run]["scenarios"] if s["scenario"] == "parallel_tools"]
        [turn] = traces_of(names[0])[scenario["trace_index"]].turns
        assert [c.call_id for c in turn.tool_calls] == [c["call_id"]
                                                        for c in scenario["turns"][0]["tool_calls"]]
        assert "(merged tools)" not in [c.name for c in turn.tool_calls]


def test_openinference_on_schema_v2_rebuilds_the_model_calls_it_overwrote():
    [scenario] = [s for s in EXPECTED["runs"]["openinference"]["scenarios"] if s["scenario"] == "carryover"]
    [turn] = traces_of("openinference.otlp.jsonl")[scenario["trace_index"]].turns
    assert [m.input_tokens is None for m in turn.model_calls] == [True, True, False]
    assert any("only the last model call" in w for w in turn.warnings)


# --- listing -------------------------------------------------------------------------------------

SPEC_TRACE = {"trace_id", "service", "agent", "session_id", "user_id", "turns"}
SPEC_TURN = {"index", "invocation_id", "started_at", "duration_ms", "user_input", "final_response",
             "tool_calls", "model_calls", "input_tokens", "output_tokens"}


def test_listing_json_has_the_cli_spec_shape():
    dump = list_traces([TRACES / "adk2.otlp.jsonl"]).model_dump(mode="json")
    assert set(dump) >= {"traces", "skipped"} and dump["skipped"] == []
    trace = dump["traces"][0]
    assert set(trace) >= SPEC_TRACE and "spans" not in trace
    turn = trace["turns"][0]
    assert set(turn) >= SPEC_TURN
    assert turn["started_at"] == "2026-06-29T16:02:00Z"
    assert set(turn["tool_calls"][0]) >= {"name", "args", "result", "error", "span_id"}
    assert set(turn["model_calls"][0]) == {"model", "input_tokens", "output_tokens", "span_id"}
    assert turn["input_tokens"] == sum(m["input_tokens"] for m in turn["model_calls"])
    assert json.loads(json.dumps(dump)) == dump
    assert TraceListing.model_validate(dump).model_dump(mode="json") == dump


def test_listing_reads_on_past_bad_lines_and_merges_files(tmp_path: Path):
    lines = (TRACES / "adk1.otlp.jsonl").read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "export.jsonl.gz"
    broken.write_bytes(gzip.compress("\n".join([lines[0], "{not json", *lines[1:]]).encode()))
    listing = list_traces([broken, TRACES / "adk2.otlp.jsonl"])
    assert [s.where for s in listing.skipped] == [f"{broken}:2"]
    assert len(listing.traces) == 12
    assert [t.trace_id for t in listing.traces] == sorted(
        (t.trace_id for t in listing.traces), key=lambda i: next(t.turns[0].started_at for t in listing.traces
                                                                 if t.trace_id == i))


def test_scrub_hook_sees_every_listed_trace():
    def scrub(trace: Trace) -> Trace:
        for turn in trace.turns:
            turn.user_input = "<scrubbed>"
        return trace

    listing = list_traces([TRACES / "adk1.otlp.jsonl"], scrub=scrub)
    assert {turn.user_input for t in listing.traces for turn in t.turns} == {"<scrubbed>"}


def test_table_shows_each_turn_with_tools_tokens_and_errors():
    listing = list_traces([TRACES / "adk2.otlp.jsonl", TRACES / "adk2-default.otlp.jsonl"])
    table = render_table(listing, width=200)
    assert table.startswith("12 trace(s), 14 turn(s)\n")
    assert all(f"trace {t.trace_id}" in table for t in listing.traces)
    assert "get_pay_statement!" in table  # the failed call
    assert "1850/130" in table and "(no content)" in table and "message content was not captured" in table
    assert max(len(line) for line in render_table(listing, width=120).splitlines()) <= 120


def test_streamed_traces_are_the_listing_s(tmp_path: Path):
    skipped: list = []
    lines = (TRACES / "adk2.otlp.jsonl").read_text(encoding="utf-8").splitlines()
    export = tmp_path / "export.jsonl"
    export.write_text("\n".join([*lines, "not json"]) + "\n", encoding="utf-8")
    streamed = list(read_traces([export], skipped=skipped, settle=1))
    listed = list_traces([export]).traces
    assert [s.where for s in skipped] == [f"{export}:{len(lines) + 1}"]
    # Handed on as soon as each looks whole, they are the listing's traces, whole.
    assert {t.trace_id: len(t.spans) for t in streamed} == {t.trace_id: len(t.spans) for t in listed}
