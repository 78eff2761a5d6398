"""Names the first scrubber let through (issue 11: lowercase names with and without a cue, Chinese
names, Vietnamese names without a cue, a name only a later tool result says is one, a surname of the
trace's own user in lower case) are removed by
`scrub`, `traces --json` and `draft` alike.

Each row writes one name into the user's message of a real ADK fixture trace (at every level of JSON
escaping it sits at, as `test_hostile_disguises` does) and checks every output for it in any form.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from corpora.planting import leaked, output_text, scrub_all
from promote.draft import DraftOptions, draft_from_export
from promote.draft.export import draft_text
from promote.ingest import Record, open_export, write_export
from promote.listing import list_traces
from promote.source import scrub_trace
from tests.hostile.test_hostile_disguises import SOURCE, TRACE, _plant, write_planted

ROWS = {
    "a lowercase name after a cue": (", i'm gregory hallman by the way", "gregory hallman"),
    "a Chinese name": (", my colleague 王小明 asks too", "王小明"),
    "a Vietnamese name without a cue": (". Nguyễn Văn An asks the same", "Nguyễn Văn An"),
    "a lowercase name without a cue": (", and so does elena vasquez's husband", "elena vasquez"),
    # the trace's own user (Maria Gonzalez, in its tool result): her surname typed in lower case, no cue
    "the trace's user's surname in lower case": (", cc gonzalez on it", "gonzalez"),
}


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("names")
    made = {}
    for number, (row, (addition, _)) in enumerate(ROWS.items()):
        made[row] = folder / f"name{number}.otlp.jsonl"
        write_planted(made[row], addition)
    return made


@pytest.fixture(scope="module")
def scrubbed(planted: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return scrub_all(planted, tmp_path_factory.mktemp("names-scrubbed"))


@pytest.mark.parametrize("row", ROWS)
def test_scrub_traces_and_draft_remove_the_name(planted, scrubbed, engine, row: str) -> None:
    name = ROWS[row][1]
    assert leaked(output_text(planted[row]), {"name": name}), "nothing planted"
    assert leaked(output_text(scrubbed[row]), {"name": name}) == []
    listing = list_traces([planted[row]], scrub=lambda trace: scrub_trace(trace, engine).trace)
    assert leaked(json.dumps(listing.model_dump(mode="json"), ensure_ascii=False), {"name": name}) == []
    text = draft_text(draft_from_export(planted[row], trace_id=TRACE, options=DraftOptions(), engine=engine))
    assert leaked(text, {"name": name}) == []
    assert "40 hours" in text and "search_hr_policy" in text


UNSEEN = "Qwvern-Zyxo"  # no recognizer finds it in the user's sentence: only the tool result names it


def _name_in_the_result(text: str) -> str:
    text = _plant(text, f", tag {UNSEEN}")
    return re.sub(r'("name\\*"\s*:\s*\\*")Maria Gonzalez', rf"\g<1>{UNSEEN}", text)


def test_a_name_a_later_tool_result_holds_is_removed_from_the_input_read_before_it(engine, tmp_path) -> None:
    export = open_export(SOURCE)
    records = []
    for item in export.records():
        if isinstance(item, Record):
            changes = [(path, _name_in_the_result(slot.value), slot.form) for slot, path in export.slots(item)
                       if isinstance(slot.value, str) and _name_in_the_result(slot.value) != slot.value]
            records.append(export.rewrite(item, changes))
    path = tmp_path / "unseen.otlp.jsonl"
    write_export(records, path, format=export.format, compression=None)
    raw = list_traces([path])
    turn = next(t for trace in raw.traces for t in trace.turns if UNSEEN in (t.user_input or ""))
    assert any(UNSEEN in json.dumps(call.result) for call in turn.tool_calls)  # the result names it
    assert engine.detections(turn.user_input) is not None and not any(
        # NER alone misses it
        UNSEEN in turn.user_input[d.start:d.end] for d in engine.detections(turn.user_input))
    listing = list_traces([path], scrub=lambda trace: scrub_trace(trace, engine).trace)
    assert leaked(json.dumps(listing.model_dump(mode="json"), ensure_ascii=False), {"name": UNSEEN}) == []
    owner = next(trace for trace in raw.traces if turn in trace.turns)
    clean = next(trace for trace in listing.traces if trace.trace_id == owner.trace_id).turns[turn.index]
    # replaced where it sits (learned before the input was scrubbed), not caught late by the output check,
    # which would have redacted the whole message
    assert "this year, tag <PERSON_" in (clean.user_input or ""), clean.user_input
    text = draft_text(draft_from_export(path, trace_id=TRACE, options=DraftOptions(), engine=engine))
    assert leaked(text, {"name": UNSEEN}) == []
