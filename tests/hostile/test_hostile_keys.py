"""A key with the shape of a name in code is still scrubbed when it is personal data (issue 11).

Keys that look code-defined (`[a-z_][A-Za-z0-9_]*` joined by `.`, `-`, `/`, `:`) were structure by their
shape alone, so an API key, `gregory.hallman` or a user name used as a key was written as it was: as an
OTLP attribute key, a key of a tool result's JSON, a key of a Langfuse observation's input. Now a key is
structure only when it has that shape *and* nothing personal is found in it (as written, and with its
separators read as spaces); and a key the trace is known to hold as a value (a map keyed by user names)
is caught by the output check and written as that value's placeholder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpora.planting import leaked, output_text, spans_of, string
from promote.batch.run import ScrubOptions, scrub_exports
from promote.ingest import Record, open_export, write_export
from tests.conftest import TRACES

API_KEY = "sk-proj-4f9a8b7c6d5e4f3a2b1cXyZ"
PERSONAL_KEYS = [API_KEY, "gregory.hallman", "gregory_hallman", "elena.vasquez", "ssn_512447723",
                 "ghp_16C7e42F292c6912E7710c838347Ae178B4a"]
CODE_KEYS = ["gen_ai.request.model", "gcp.vertex.agent.llm_request", "pto_balance_hours", "employee_id",
             "manager.name", "http.status_code", "grace_period_days", "max_tokens", "entity.1.name"]


@pytest.mark.parametrize("key", PERSONAL_KEYS)
def test_a_personal_key_with_a_code_shape_is_not_structure(engine, key: str) -> None:
    assert not engine.is_structure("key", key)


@pytest.mark.parametrize("key", CODE_KEYS)
def test_a_code_defined_key_stays_structure(engine, key: str) -> None:
    assert engine.is_structure("key", key)


def _planted_otlp(target: Path) -> None:
    """The ADK fixture with, on its first tool span: personal keys as attribute keys, a tool result whose
    JSON is keyed by a person, and a user name held under `username` and used as a key."""
    export = open_export(TRACES / "adk2.otlp.jsonl")
    records = [item for item in export.records() if isinstance(item, Record)]
    doc = json.loads(records[0].raw)
    span = next(s for s in spans_of(doc) if s["name"].startswith("execute_tool"))
    span["attributes"] += [{"key": key, "value": string("on file")} for key in (API_KEY, "gregory.hallman")]
    span["attributes"] += [
        {"key": "gen_ai.tool.call.result",
         "value": string(json.dumps({"reviewers": {"elena.vasquez": {"role": "manager"}}}))},
        {"key": "username", "value": string("ghallman42")},
        {"key": "ghallman42", "value": string("settings on file")},
    ]
    records[0] = Record(where=records[0].where, raw=json.dumps(doc).encode(), doc=doc)
    write_export(records, target, format=export.format, compression=None)


def test_personal_keys_of_an_otlp_export_are_scrubbed(tmp_path: Path) -> None:
    planted = tmp_path / "keys.otlp.jsonl"
    _planted_otlp(planted)
    out = tmp_path / "out.otlp.jsonl"
    report = scrub_exports([str(planted)], str(out), ScrubOptions(workers=1))
    text = output_text(out)
    assert API_KEY in planted.read_text() and "ghallman42" in planted.read_text()
    for value in (API_KEY, "gregory.hallman", "elena.vasquez", "ghallman42"):
        assert value not in text
    assert report.output_check_redacted >= 1  # the user name as a key: only the trace's values knew it
    first = json.loads(out.read_text().splitlines()[0])
    kept = [kv["key"] for span in spans_of(first) for kv in span["attributes"]]
    assert "gen_ai.tool.name" in kept and "gen_ai.tool.call.result" in kept


def test_a_user_name_key_of_langfuse_content_becomes_its_placeholder(tmp_path: Path) -> None:
    source = TRACES / "producers" / "langfuse-native.carryover.json"
    doc = json.loads(source.read_text())
    first = doc["observations"][0]
    first["input"] = {"username": "ghallman42", "preferences": {"ghallman42": {"pto_balance_hours": 62.5}}}
    planted = tmp_path / source.name
    planted.write_text(json.dumps(doc))
    out = tmp_path / "out.json"
    scrub_exports([str(planted)], str(out), ScrubOptions(workers=1))
    scrubbed = json.loads(out.read_text())["observations"][0]["input"]
    assert "ghallman42" not in out.read_text()
    placeholder = scrubbed["username"]
    assert placeholder.startswith("<")
    assert scrubbed["preferences"] == {placeholder: {"pto_balance_hours": 62.5}}
    assert leaked(output_text(out), {"name": "ghallman42"}) == []


def test_a_personal_key_of_a_value_is_replaced_whole_and_known_to_the_trace(engine) -> None:
    """What `traces` and `draft` scrub (tool arguments and results as values): the key becomes its
    entity's placeholder, and the trace then knows the value wherever else it is written (one with a
    capital or a digit: all-lower-case values are not denied trace-wide, `ScrubContext.remember`)."""
    ctx = engine.new_context()
    scrubbed = engine.scrub_value({"reviewers": {"Elena.Vasquez": {"role": "manager"}}}, ctx, key="result")
    (placeholder,) = scrubbed["reviewers"]
    assert placeholder.startswith("<PERSON_") and scrubbed["reviewers"][placeholder] == {"role": "manager"}
    assert engine.scrub_text("ask Elena.Vasquez first", ctx) == f"ask {placeholder} first"


def test_code_names_of_producer_exports_stay(tmp_path: Path) -> None:
    """The other side: what code names stays where it is. A rule that denied lower-case joined words
    trace-wide once turned `/srv/hr-policy-advisor/` into a person and redacted `service.name`, and took
    the `gcp.vertex.agent` of `gcp.vertex.agent.session_id` keys for one."""
    producers = TRACES / "producers"
    sources = [producers / "monocle-adk.carryover.json", producers / "langfuse-otel.tool_error.json"]
    out = tmp_path / "out"
    scrub_exports([str(path) for path in sources], str(out), ScrubOptions(workers=1))
    monocle = (out / sources[0].name).read_text()
    assert '"service.name": "hr-policy-advisor"' in monocle and "/srv/hr-policy-advisor/.venv/" in monocle
    langfuse = (out / sources[1].name).read_text()
    assert '"gcp.vertex.agent.session_id"' in langfuse and '"gen_ai.system": "gcp.vertex.agent"' in langfuse
