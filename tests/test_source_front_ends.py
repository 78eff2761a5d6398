"""Every front end shows the same export the same way (issue 38): `promote traces`, `promote draft`, the
terminal UI's loader and `promote check` read through `promote.source`, so for every fixture export they
give the same trace ids, the same turns and the same placeholders.

One engine (the process's shared one, `promote.scrubbing.engine()`) serves every front end, as in a run.
"""

from __future__ import annotations

import io
import json
import queue
from contextlib import redirect_stdout
from datetime import UTC, datetime
from pathlib import Path

import pytest

from promote.case.rules import PLACEHOLDER_RE
from promote.check.run import trace_pairs
from promote.cli.main import main as promote
from promote.draft import DraftOptions, draft_from_export
from promote.listing import list_traces
from promote.scrubbing import engine as shared_engine
from tui.loader import serve
from tui.pipe import RowsRead, TracesScrubbed

ROOT = Path(__file__).resolve().parent.parent
TRACES = ROOT / "fixtures" / "traces"
NOT_EXPORTS = {"expected.json", "README.md", "LICENSE"}
EXPORTS = sorted(path for path in TRACES.rglob("*") if path.is_file() and path.name not in NOT_EXPORTS)
OPTIONS = DraftOptions(by="hermione.g", now=datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC))


class _NoRequests:
    """The UI asks for nothing: the loader's listener waits (a daemon thread) while it scrubs in order."""

    def get(self):
        return queue.Queue().get()


def from_the_cli(path: Path) -> dict[str, dict]:
    """`promote traces --json FILE`: trace id → the trace as printed."""
    out = io.StringIO()
    with redirect_stdout(out):
        promote(["traces", "--json", str(path)])
    return {trace["trace_id"]: trace for trace in json.loads(out.getvalue())["traces"]}


def from_the_loader(path: Path) -> tuple[list, dict[str, dict]]:
    """What the UI's loader child sends for `path`: its rows, and trace id → the trace scrubbed."""
    results: queue.Queue = queue.Queue()
    serve([path], None, _NoRequests(), results)
    rows, traces = [], {}
    while not results.empty():
        message = results.get()
        if isinstance(message, RowsRead):
            rows += message.rows
        elif isinstance(message, TracesScrubbed):
            for done in message.traces:
                traces[done.trace.trace_id] = done.trace.model_dump(mode="json")
    return rows, traces


def from_check(path: Path) -> dict[str, dict]:
    """The scrubbed traces `promote check` compares and quotes: trace id → the trace."""
    pairs = trace_pairs(list_traces([path]).traces, shared_engine())
    return {pair.scrubbed.trace_id: pair.scrubbed.model_dump(mode="json") for pair in pairs}


@pytest.fixture(scope="module", autouse=True)
def warm_engine():
    """The engine is loaded once for the module (every front end below asks for the shared one)."""
    shared_engine()


@pytest.mark.parametrize("path", EXPORTS, ids=lambda path: str(path.relative_to(TRACES)))
def test_every_front_end_shows_the_same_traces_turns_and_placeholders(path: Path) -> None:
    listed = from_the_cli(path)
    assert listed, "every fixture export holds agent turns"
    rows, loaded = from_the_loader(path)
    assert loaded == listed
    assert sorted((row.trace_id, row.turn) for row in rows) == sorted(
        (trace_id, turn["index"]) for trace_id, trace in listed.items() for turn in trace["turns"])
    assert from_check(path) == listed
    for trace_id, trace in listed.items():
        for turn in trace["turns"]:
            if turn["user_input"] is None:
                continue
            case = draft_from_export(path, trace_id=trace_id, turn=turn["index"], options=OPTIONS,
                                     engine=shared_engine()).case
            assert case.provenance.trace.trace_id == trace_id
            assert case.input == turn["user_input"]
            assert case.expected_output == (turn["final_response"] or None)
            drafted = [call.args for call in case.expected_tools.calls] if case.expected_tools else []
            assert drafted == [call["args"] or None for call in turn["tool_calls"]]


def test_the_fixture_exports_do_hold_placeholders() -> None:
    """The comparison above is about placeholders: the fixtures' scrubbed turns do hold some."""
    texts = [json.dumps(trace) for path in (TRACES / "adk2.otlp.jsonl", TRACES / "openinference.otlp.jsonl")
             for trace in from_the_cli(path).values()]
    assert sum(len(PLACEHOLDER_RE.findall(text)) for text in texts) > 10
