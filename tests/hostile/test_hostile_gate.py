"""The residual-PII gate of `draft` checks a case against the values its own trace held (issue 11).

A recognizer can miss a value in the case (a lowercase name, an odd spelling); the trace it came from
still told the scrubber what was personal in it, and the case writer refuses a case that holds any of it.
"""

from __future__ import annotations

import pytest

from promote import scrubbing
from promote.case.store import CaseRefused, save_case
from promote.draft import DraftOptions, draft_from_export
from promote.draft.export import draft_text, write_draft
from tests.conftest import TRACES

SOURCE = TRACES / "adk2.otlp.jsonl"
TRACE = "6ba1f49a4e0b98a257a16cb62edefd94"  # Maria Gonzalez's carryover question


@pytest.fixture(scope="module")
def drafted():
    return draft_from_export(SOURCE, trace_id=TRACE, options=DraftOptions(), engine=scrubbing.engine())


def test_a_draft_carries_the_raw_values_its_trace_held_without_printing_them(drafted) -> None:
    assert {"Maria Gonzalez", "maria.gonzalez@acme-retail.com"} <= set(drafted.known_values)
    assert "Maria" not in repr(drafted) and "known_values" not in drafted.model_dump()
    assert "Maria Gonzalez" not in draft_text(drafted)  # the clean draft passes the gate


def test_a_draft_holding_a_value_its_trace_held_is_refused(drafted, tmp_path) -> None:
    # what a missed value looks like: no recognizer fires on it in the case, but the trace held it
    leaking = drafted.model_copy(update={"case": drafted.case.model_copy(
        update={"input": drafted.case.input + " (ask maria gonzalez)"})})
    with pytest.raises(CaseRefused):
        draft_text(leaking)
    with pytest.raises(CaseRefused):
        write_draft(leaking, tmp_path / f"{leaking.case.id}.yaml", force=False)
    assert not (tmp_path / f"{leaking.case.id}.yaml").exists()
    # the trace's values alone refuse it, whatever the recognizers say
    with pytest.raises(CaseRefused):
        save_case(leaking.case, tmp_path / f"{leaking.case.id}.yaml", known_values=leaking.known_values,
                  residual_scan=None)
    save_case(drafted.case, tmp_path / f"{drafted.case.id}.yaml", known_values=drafted.known_values,
              residual_scan=None)
