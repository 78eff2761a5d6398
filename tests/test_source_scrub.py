"""`promote.source.scrub_trace`: what a `ScrubbedTrace` carries (what was replaced, where, fingerprints) is
the engine's own report, and nothing raw crosses a process with it; the same id in two files is two
traces for every front end."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest

from promote.case.rules import PLACEHOLDER_RE
from promote.check.run import trace_pairs
from promote.listing import list_traces
from promote.scrubbing import engine as shared_engine
from promote.source import read_traces, scrub_trace

ROOT = Path(__file__).resolve().parent.parent
TRACES = ROOT / "fixtures" / "traces"
EXPORT = TRACES / "adk2.otlp.jsonl"
PLANTED = [item["value"] for item in json.loads((TRACES / "expected.json").read_text())["planted_pii"]]


@pytest.fixture(scope="module")
def scrubbed():
    """Every agent trace of the export: (raw, scrubbed)."""
    engine = shared_engine()
    return [(trace, scrub_trace(trace, engine, salt=b"tests")) for trace in read_traces([EXPORT])
            if trace.turns]


def _raw_text(trace) -> str:
    return json.dumps(trace.model_dump(mode="json"), ensure_ascii=False)


def test_each_replacement_names_the_fields_that_hold_its_placeholder(scrubbed) -> None:
    assert any(done.replacements for _, done in scrubbed)
    for _, done in scrubbed:
        dump = done.trace.model_dump(mode="json")
        for replacement in done.replacements:
            assert PLACEHOLDER_RE.fullmatch(replacement.placeholder)
            assert replacement.entity in replacement.placeholder
            for path in replacement.fields:
                assert replacement.placeholder in json.dumps(_at(dump, path), ensure_ascii=False), path


def test_what_the_engine_replaced_is_known_without_reading_the_output_again(scrubbed) -> None:
    for raw, done in scrubbed:
        held = [value for value in PLANTED if value in _raw_text(raw) and value not in _raw_text(done.trace)]
        for value in held:  # every planted value the scrub removed is a known value, and fingerprinted
            assert any(value.lower() in known.lower() for known in done.known_values), value
        long_enough = [known for known in done.known_values if len(known.strip()) >= 3]
        assert all(done.fingerprints.found_in(known) for known in long_enough)


def test_nothing_raw_crosses_a_process(scrubbed) -> None:
    for raw, done in scrubbed:
        crossing = done.without_raw()
        assert crossing.known_values == () and crossing.fingerprints == done.fingerprints
        sent = pickle.dumps(crossing).decode("latin-1")
        assert [value for value in PLANTED if value in _raw_text(raw) and value in sent] == []
        assert "known_values" not in done.model_dump()  # never written either


def test_the_same_trace_id_in_two_files_is_two_traces_for_every_front_end(tmp_path: Path) -> None:
    first, second = tmp_path / "monday.otlp.jsonl", tmp_path / "tuesday.otlp.jsonl"
    shutil.copy(EXPORT, first)
    shutil.copy(EXPORT, second)
    once = {trace.trace_id for trace in list_traces([first]).traces}
    listed = list_traces([first, second]).traces
    assert sorted(t.trace_id for t in listed) == sorted([*once, *(f"{i}~tuesday.otlp.jsonl" for i in once)])
    assert {t.export for t in listed} == {str(first), str(second)}
    pairs = trace_pairs(listed, shared_engine())
    assert [pair.scrubbed.trace_id for pair in pairs] == [t.trace_id for t in listed]


def _at(dump: dict, path: str):
    """The value at `turns[0].tool_calls[1].args` in a trace's dump."""
    value = dump
    for part in path.replace("]", "").split("."):
        name, _, index = part.partition("[")
        value = value[name]
        if index:
            value = value[int(index)]
    return value
