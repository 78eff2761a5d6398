"""On the committed traces made by the real ADK: every planted value goes, every keep value stays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrubbers import ScrubEngine


TRACES = Path(__file__).resolve().parent.parent / "fixtures" / "traces"
JSONL_FILES = sorted(p.name for p in TRACES.glob("*.otlp.jsonl")) + sorted(
    p.name for p in TRACES.glob("*.jaeger.json")
)


@pytest.fixture(scope="module")
def engine() -> ScrubEngine:
    return ScrubEngine()


def _string_attributes(node, trace_id, out):
    """(trace id, key, holder) of every string attribute: OTLP `stringValue`s (resource, span and event
    attributes) and Jaeger string tags; `holder["stringValue"]` / `holder["value"]` is the text."""
    if isinstance(node, dict):
        trace_id = node.get("traceId", node.get("traceID", trace_id))
        value = node.get("value")
        if "key" in node and isinstance(value, dict) and isinstance(value.get("stringValue"), str):
            out.append((trace_id, node["key"], value))
        elif "key" in node and node.get("type") == "string" and isinstance(value, str):
            out.append((trace_id, node["key"], {"stringValue": value}))
        for child in node.values():
            _string_attributes(child, trace_id, out)
    elif isinstance(node, list):
        for child in node:
            _string_attributes(child, trace_id, out)
    return out


@pytest.mark.parametrize("name", JSONL_FILES)
def test_every_planted_value_is_gone_and_every_keep_value_survives(engine, expected_traces, name):
    attributes = []
    text = (TRACES / name).read_text()
    documents = [text] if name.endswith(".json") else [line for line in text.splitlines() if line.strip()]
    for document in documents:
        _string_attributes(json.loads(document), None, attributes)
    contexts: dict[str, object] = {}
    items = [(contexts.setdefault(trace, engine.new_context()), key, value["stringValue"])
             for trace, key, value in attributes]
    scrubbed = engine.scrub_many(items)
    before = "\n".join(value["stringValue"] for _, _, value in attributes)
    after = "\n".join(scrubbed)
    planted = [p["value"] for p in expected_traces["planted_pii"]]
    assert [value for value in planted if value in after] == []
    assert [value for value in expected_traces["keep"] if value in before and value not in after] == []
    if expected_traces["files"][name]["content"]:  # runs without message content carry no planted values
        assert [value for value in planted if value in before]
        assert "<PERSON_1>" in after and "<EMAIL_ADDRESS_1>" in after


def test_jsonl_fixtures_exist():
    assert JSONL_FILES, f"no *.otlp.jsonl fixtures under {TRACES}"
