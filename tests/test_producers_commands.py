"""`traces`, `draft` and `scrub` on the new producers' files: bad input exits 2 with file:line, no
command prints zero turns without the reason, drafts and scrubs work as on OTLP (scrub keeps the shape).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from promote.batch.run import ScrubOptions, scrub_exports
from promote.draft import DraftOptions, draft_from_export
from promote.errors import PromoteError
from promote.ingest import iter_spans, open_export
from promote.ingest.turns import build_traces
from promote.listing import list_traces
from tests.conftest import TRACES, run_cli

PRODUCERS = TRACES / "producers"
EXPECTED = json.loads((PRODUCERS / "expected.json").read_text(encoding="utf-8"))
MONOCLE_FILE = PRODUCERS / "monocle-adk.carryover.json"
LANGFUSE_FILE = PRODUCERS / "langfuse-native.carryover.json"
# Personal values the carryover scenario plants (fixtures/agents/scenarios.py).
PLANTED = ["Maria Gonzalez", "maria.gonzalez@acme-retail.com", "415-555-0132", "Thomas Reyes",
           "1742 Evergreen Terrace"]


def needles(value: str) -> set[str]:
    once = json.dumps(value)[1:-1]
    return {value, once, json.dumps(once)[1:-1]}


def leaked(text: str) -> list[str]:
    return [v for v in PLANTED if any(n in text for n in needles(v))]


# --- bad input --------------------------------------------------------------------------------------


def test_a_monocle_array_broken_in_the_middle_skips_that_span_with_file_and_line(tmp_path: Path) -> None:
    text = MONOCLE_FILE.read_text(encoding="utf-8")
    second = text.index('{\n    "name"', 10)
    path = tmp_path / "monocle.json"
    path.write_text(text[:second] + '{\n    "name": "google.genai.models", "context": {,\n},' + text[second:])
    listing = list_traces([path])
    assert listing.turn_count == 1
    (skip,) = listing.skipped
    line = text[:second].count("\n") + 1
    assert skip.where == f"{path}:{line}"


@pytest.mark.parametrize("content, what", [
    ('[\n{\n    "name": "workflow",\n    "context": {"trace_id": \n', ":2: not valid JSON"),
    ('{"trace": {"id": "t-1"}, "observations": "none"}\n', ":1: not a Langfuse trace export"),
])
def test_a_malformed_monocle_or_langfuse_file_exits_2_naming_file_and_line(tmp_path: Path, content: str,
                                                                          what: str) -> None:
    path = tmp_path / "export.json"
    path.write_text(content)
    result = run_cli("traces", str(path), "--no-scrub")
    assert result.returncode == 2
    message = result.stderr.decode()
    assert f"{path}:" in message and what in message and "Traceback" not in message


def test_a_langfuse_observation_with_a_bad_time_is_skipped_and_the_rest_read(tmp_path: Path) -> None:
    doc = json.loads(LANGFUSE_FILE.read_text(encoding="utf-8"))
    doc["observations"][1]["startTime"] = "yesterday"
    path = tmp_path / "langfuse.json"
    path.write_text(json.dumps(doc, indent=2))
    listing = list_traces([path])
    assert listing.turn_count == 1
    assert [s.where for s in listing.skipped] == [f"{path}:1"]
    assert "yesterday" in listing.skipped[0].why


def test_the_apis_trace_with_full_details_shape_reads_the_same(tmp_path: Path) -> None:
    doc = json.loads(LANGFUSE_FILE.read_text(encoding="utf-8"))
    path = tmp_path / "trace-with-details.json"
    path.write_text(json.dumps({**doc["trace"], "observations": doc["observations"]}, indent=2))
    assert open_export(path).format == "langfuse"
    (before,) = list_traces([LANGFUSE_FILE]).traces
    (after,) = list_traces([path]).traces
    assert after.turns[0].model_dump(exclude={"span_ids"}) == before.turns[0].model_dump(exclude={"span_ids"})


# --- never zero in silence --------------------------------------------------------------------------


def http_only_export(tmp_path: Path) -> Path:
    """kagent's controller span alone: the agent's own spans were not exported."""
    doc = json.loads((PRODUCERS / "kagent.tempo.json").read_text())
    doc["batches"] = doc["batches"][:1]
    path = tmp_path / "controller.tempo.json"
    path.write_text(json.dumps(doc))
    return path


def test_traces_exits_1_and_says_why_when_no_input_yields_a_turn(tmp_path: Path) -> None:
    result = run_cli("traces", str(http_only_export(tmp_path)), "--no-scrub")
    assert result.returncode == 1
    out, err = result.stdout.decode(), result.stderr.decode()
    assert "no turn in " in out and "only HTTP/RPC transport spans" in out
    assert "no turn found" in err and "tried Monocle, OpenInference" in err


def test_draft_says_why_there_is_no_turn(tmp_path: Path) -> None:
    doc = [s for s in json.loads(MONOCLE_FILE.read_text()) if s["attributes"]["span.type"] == "workflow"]
    path = tmp_path / "workflow-only.json"
    path.write_text(json.dumps(doc, indent=4))
    with pytest.raises(PromoteError) as caught:
        draft_from_export(path, trace_id=doc[0]["context"]["trace_id"], options=DraftOptions(by="t"))
    assert "spans carry Monocle attributes but no agentic.turn span" in str(caught.value)
    assert str(path) in str(caught.value.where)


def test_help_lists_every_format_read() -> None:
    from promote.ingest import FORMATS

    result = run_cli("traces", "--help")
    assert result.returncode == 0
    text = result.stdout.decode()
    assert all(f"  {name} " in text for name in FORMATS)
    readme = (TRACES.parent.parent / "README.md").read_text()
    assert "Monocle" in readme and "Langfuse" in readme


# --- draft and scrub ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def engine():
    from scrubbers import ScrubEngine, load_policy

    return ScrubEngine(load_policy())


def test_draft_from_a_monocle_export(engine) -> None:
    trace_id = EXPECTED["runs"]["monocle-adk"]["scenarios"][0]["trace_ids"][0]
    options = DraftOptions(by="hermione.g", now=datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC))
    result = draft_from_export(MONOCLE_FILE, trace_id=trace_id, options=options, engine=engine)
    case = result.case
    assert [t.name for t in case.expected_tools.calls] == ["get_employee_context", "search_hr_policy"]
    assert "40 hours" in case.expected_output
    assert not leaked(case.model_dump_json())


def test_scrub_keeps_the_monocle_array_and_the_langfuse_export_shape(tmp_path: Path) -> None:
    report = scrub_exports([str(MONOCLE_FILE), str(LANGFUSE_FILE)], str(tmp_path), ScrubOptions(workers=1))
    assert {f.format for f in report.files} == {"monocle", "langfuse"}
    monocle_in = json.loads(MONOCLE_FILE.read_text())
    monocle_out = json.loads((tmp_path / MONOCLE_FILE.name).read_text())
    assert [s["name"] for s in monocle_out] == [s["name"] for s in monocle_in]
    assert open_export(tmp_path / MONOCLE_FILE.name).format == "monocle"
    langfuse_out = json.loads((tmp_path / LANGFUSE_FILE.name).read_text())
    assert set(langfuse_out) == {"trace", "observations"}
    assert [o["name"] for o in langfuse_out["observations"]] == [
        o["name"] for o in json.loads(LANGFUSE_FILE.read_text())["observations"]]
    for name in (MONOCLE_FILE.name, LANGFUSE_FILE.name):
        assert not leaked((tmp_path / name).read_text()), name
        (trace,) = [t for t in build_traces(iter_spans([tmp_path / name])) if t.producer]
        assert [c.name for c in trace.turns[0].tool_calls] == ["get_employee_context", "search_hr_policy"]
