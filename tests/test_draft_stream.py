"""`promote draft --trace` reads an export only until its trace is complete, from a file or from stdin
(no copy of the stream): the rest of a stream is hashed unread, so the draft still names the whole
export's sha256."""

from __future__ import annotations

import hashlib
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

import promote.source.traces as source_traces
from promote.draft import DraftOptions, draft_from_export
from promote.source import read_traces
from tests.conftest import HR_REPO

ROOT = Path(__file__).resolve().parent.parent
EXPORT = ROOT / "fixtures" / "traces" / "adk2.otlp.jsonl"
OPTIONS = DraftOptions(by="hermione.g", now=datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC), repo=HR_REPO)


@pytest.fixture
def builds(monkeypatch) -> list[str]:
    """The trace ids whose turns were rebuilt (each trace read is rebuilt once)."""
    built: list[str] = []
    real = source_traces.build_trace

    def counting(spans):
        built.append(spans[0].trace_id)
        return real(spans)

    monkeypatch.setattr(source_traces, "build_trace", counting)
    return built


def first_trace_with_input() -> str:
    return next(t.trace_id for t in read_traces([EXPORT]) if t.turns and t.turns[0].user_input)


@pytest.mark.parametrize("from_stdin", [False, True], ids=["file", "stdin"])
def test_draft_reads_up_to_its_trace_and_names_the_whole_export(monkeypatch, builds, from_stdin) -> None:
    wanted = first_trace_with_input()
    every = [t.trace_id for t in read_traces([EXPORT])]
    builds.clear()
    if from_stdin:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(EXPORT.read_bytes())))
    result = draft_from_export(Path("-") if from_stdin else EXPORT, trace_id=wanted, options=OPTIONS)
    assert builds[-1] == wanted and len(builds) < len(every)  # the traces after it were never rebuilt
    assert result.case.provenance.trace.export_sha256 == hashlib.sha256(EXPORT.read_bytes()).hexdigest()
    assert result.case.provenance.trace.trace_id == wanted
