"""The output check and the structural allow list of `promote scrub` (issue 11, "what to build").

- The output check: a value the trace is known to hold (here under `name` and `ssn` in a tool result) and
  written elsewhere in a form no rule reads (an identifier `GREGORY_HALLMAN`, digits grouped oddly) is
  never written: its field is redacted whole and counted (`output_check_redacted`).
- A structural field (an id, a time) whose value does not have its shape, and in which nothing was
  recognised, is not understood: redacted whole and counted (`misfits_redacted`), never copied.
"""

from __future__ import annotations

import json

import pytest

from corpora.planting import VALUES, leaked, spans_of
from promote.batch.blocks import BlockJob, scrub_block
from promote.ingest import Record
from tests.conftest import TRACES

LINE = (TRACES / "adk2.otlp.jsonl").read_text().splitlines()[0]
UNREAD = "zyxo qwvern"  # nothing recognises it: only its place says it is no time


def _scrub(engine, doc: dict) -> tuple[str, dict]:
    raw = json.dumps(doc).encode()
    job = BlockJob(0, "check.jsonl", "otlp-jsonl", "lines", None,
                   [Record("check.jsonl:1", raw, json.loads(raw))])
    result = scrub_block(job, engine)
    return result.data.decode(), result.report


def _attr(span: dict, key: str, value: str) -> None:
    span.setdefault("attributes", []).append({"key": key, "value": {"stringValue": value}})


def test_a_known_value_in_a_form_no_rule_reads_is_redacted_by_the_output_check(engine) -> None:
    doc = json.loads(LINE)
    first, second = spans_of(doc)[:2]
    _attr(first, "gen_ai.tool.call.result", json.dumps({"name": VALUES["name"], "ssn": VALUES["ssn"]}))
    _attr(second, "note", "ticket owner GREGORY_HALLMAN")
    _attr(second, "reference", "ref 5124477 23")
    assert engine.detections("ticket owner GREGORY_HALLMAN") == []  # no rule reads either form
    out, report = _scrub(engine, doc)
    assert leaked(out, {"name": VALUES["name"], "ssn": VALUES["ssn"]},
                  ("GREGORY_HALLMAN", "5124477 23")) == []
    assert report["output_check_redacted"] >= 2
    notes = [a["value"]["stringValue"] for s in spans_of(json.loads(out)) for a in s.get("attributes", ())
             if a["key"] in ("note", "reference")]
    assert notes == [engine.redacted, engine.redacted]  # the field whole, not a piece of it


def test_a_structural_field_without_its_shape_is_redacted_whole(engine) -> None:
    doc = json.loads(LINE)
    span = spans_of(doc)[1]
    before = (span["traceId"], span["spanId"])
    span["endTimeUnixNano"] = UNREAD
    out, report = _scrub(engine, doc)
    assert UNREAD not in out and report["misfits_redacted"] >= 1
    after = spans_of(json.loads(out))[1]
    assert (after["traceId"], after["spanId"]) == before and after["endTimeUnixNano"] == engine.redacted
