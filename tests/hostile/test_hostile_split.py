"""Values split across adjacent parts of one message (issue 11): no piece survives `scrub`, `traces --json`
or `draft`, and structure (ids, times, tool names, figures) is unchanged.

Each row cuts one made-up value in two and writes the halves as two adjacent text parts of the user's
message, in each real fixture's own message shape: OTel GenAI `parts` (`{"type": "text", "content"}`,
ADK 2), a Gemini/ADK `Content` (`{"parts": [{"text"}]}`, ADK 1, also OpenInference's `input.value`), and
OpenInference's flattened `llm.input_messages.N.message.contents.M.message_content.text` attributes.
Neither half is recognised alone: only the joined text names the value.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from corpora.planting import VALUES, leaked, output_text
from promote.batch.run import ScrubOptions, scrub_exports
from promote.draft import DraftOptions, draft_from_export
from promote.draft.export import draft_text
from promote.ingest import iter_spans
from promote.listing import list_traces
from promote.source import scrub_trace
from tests.conftest import TRACES

PHRASE = "If I do not use all my PTO this year"
FIXTURES = {"adk2 (OTel GenAI parts)": "adk2.otlp.jsonl", "adk1 (ADK Content parts)": "adk1.otlp.jsonl",
            "openinference (flattened contents)": "openinference.otlp.jsonl.gz"}
SPLITS = {
    # row: (kind, first part, second part, pieces that must not survive)
    "e-mail: local part | domain": ("email", "Also write to greg.hallman", "@example.com about it.",
                                    ("greg.hallman",)),
    "name: first | surname": ("name", "Ticket opened by Gregory", "Hallman today.", ("Gregory", "Hallman")),
    "card in two parts": ("card", "The card is 4111 1111", "1111 1111 on file.", ("4111 1111", "1111 1111")),
    "phone cut inside its number": ("phone", "Call me on (415) 555-", "0134 after five.",
                                    ("415) 555-", "0134 after")),
}


def _with_parts(value: Any, first: str, second: str) -> Any:
    """`value` with the two halves added as text parts after each text part that holds PHRASE."""
    if isinstance(value, list):
        return [_with_parts(item, first, second) for item in value]
    if not isinstance(value, dict):
        return value
    value = {key: _with_parts(item, first, second) for key, item in value.items()}
    parts = value.get("parts")
    if isinstance(parts, list):
        planted = []
        for part in parts:
            planted.append(part)
            key = next((k for k in ("text", "content")
                        if isinstance(part, dict) and isinstance(part.get(k), str)), None)
            if key is not None and PHRASE in part[key]:
                planted += [{**part, key: first}, {**part, key: second}]
        value["parts"] = planted
    return value


def _plant_attributes(attributes: list[dict], first: str, second: str) -> list[dict]:
    planted = []
    for attribute in attributes:
        planted.append(attribute)
        value = attribute.get("value", {}).get("stringValue")
        if not isinstance(value, str) or PHRASE not in value:
            continue
        key = attribute["key"]
        if key.endswith(".contents.0.message_content.text"):  # OpenInference: one attribute per part
            stem = key[: -len("0.message_content.text")]
            for number, text in ((1, first), (2, second)):
                planted += [{"key": f"{stem}{number}.message_content.text", "value": {"stringValue": text}},
                            {"key": f"{stem}{number}.message_content.type", "value": {"stringValue": "text"}}]
        else:
            try:
                decoded = json.loads(value)
            except ValueError:
                continue
            planted_value = json.dumps(_with_parts(decoded, first, second), ensure_ascii=False)
            attribute["value"] = {"stringValue": planted_value}
    return planted


def write_split(source: Path, target: Path, first: str, second: str) -> None:
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as handle:
        docs = [json.loads(line) for line in handle if line.strip()]
    for doc in docs:
        for block in doc.get("resourceSpans", ()):
            for scope in block.get("scopeSpans", ()):
                for span in scope.get("spans", ()):
                    span["attributes"] = _plant_attributes(span.get("attributes", []), first, second)
    target.write_text("".join(json.dumps(doc, ensure_ascii=False) + "\n" for doc in docs), encoding="utf-8")


CASES = [(fixture, row) for fixture in FIXTURES for row in SPLITS]


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    folder = tmp_path_factory.mktemp("split")
    made = {}
    for number, (fixture, row) in enumerate(CASES):
        _, first, second, _ = SPLITS[row]
        made[(fixture, row)] = folder / f"split{number:02d}.otlp.jsonl"
        write_split(TRACES / FIXTURES[fixture], made[(fixture, row)], first, second)
    return made


@pytest.fixture(scope="module")
def scrubbed(planted: dict[tuple[str, str], Path], tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("split-scrubbed")
    scrub_exports([str(path) for path in planted.values()], str(out), ScrubOptions(workers=1))
    return {case: out / path.name for case, path in planted.items()}


def _check(text: str, row: str) -> None:
    kind, _, _, pieces = SPLITS[row]
    assert leaked(text, {kind: VALUES[kind]}, pieces) == [], row


def _assert_planted(path: Path, row: str) -> None:
    _, first, second, _ = SPLITS[row]
    text = output_text(path)
    assert first in text and second in text, f"{row}: nothing planted"  # else the test passes for nothing


@pytest.mark.parametrize(("fixture", "row"), CASES)
def test_scrub_removes_a_value_split_across_parts(planted, scrubbed, fixture: str, row: str) -> None:
    _assert_planted(planted[(fixture, row)], row)
    _check(output_text(scrubbed[(fixture, row)]), row)
    before, after = list(iter_spans([planted[(fixture, row)]])), list(iter_spans([scrubbed[(fixture, row)]]))
    assert [(s.trace_id, s.span_id, s.start_ns, s.end_ns) for s in after] == [
        (s.trace_id, s.span_id, s.start_ns, s.end_ns) for s in before]
    tool = "gen_ai.tool.name"
    assert [s.attributes.get(tool) for s in after] == [s.attributes.get(tool) for s in before]


@pytest.mark.parametrize(("fixture", "row"), CASES)
def test_traces_json_and_draft_remove_a_value_split_across_parts(
    planted, engine, fixture: str, row: str
) -> None:
    path = planted[(fixture, row)]
    plain = list_traces([path])
    _, first, second, _ = SPLITS[row]
    assert any(first in (turn.user_input or "") for trace in plain.traces for turn in trace.turns), (
        "not planted"
    )
    listing = list_traces([path], scrub=lambda trace: scrub_trace(trace, engine).trace)
    _check(json.dumps(listing.model_dump(mode="json"), ensure_ascii=False), row)
    for before, after in zip(plain.traces, listing.traces, strict=True):
        assert after.trace_id == before.trace_id
        for old, new in zip(before.turns, after.turns, strict=True):
            assert [c.name for c in new.tool_calls] == [c.name for c in old.tool_calls]
            assert (new.started_at, new.input_tokens) == (old.started_at, old.input_tokens)
    trace = next(t for t in plain.traces if any(first in (turn.user_input or "") for turn in t.turns))
    result = draft_from_export(path, trace_id=trace.trace_id, options=DraftOptions(), engine=engine)
    text = draft_text(result)  # not refused by the residual gate: the scrubber removed every piece
    _check(text, row)
    assert "40 hours" in text and "search_hr_policy" in text  # a figure and a tool name survive


def test_the_same_text_under_another_key_rule_is_read_again(engine) -> None:
    # The borders of a plan are cached by text *and* key rule: under a personal key the whole string is
    # one value (no parts to join); the same text as a message must still have its parts read joined.
    text = json.dumps([{"role": "user", "parts": [{"type": "text", "content": "Write to greg.hallman"},
                                                  {"type": "text", "content": "@example.com today"}]}])
    assert engine.scrub_value(text, engine.new_context(), key="email").startswith("<EMAIL_ADDRESS_")
    out = engine.scrub_value(text, engine.new_context(), key="gen_ai.input.messages")
    assert "greg.hallman" not in out and "@example.com" not in out and "today" in out


def test_a_split_value_takes_the_placeholder_of_the_whole_value(engine) -> None:
    ctx = engine.new_context()
    message = json.dumps([{"role": "user", "parts": [{"type": "text", "content": "Write to greg.hallman"},
                                                     {"type": "text", "content": "@example.com today"}]}])
    items = [(ctx, "gen_ai.input.messages", message),
             (ctx, "gen_ai.tool.call.result", json.dumps({"contact": "greg.hallman@example.com"}))]
    parts_out, result_out = engine.scrub_items(items, learn=True).values
    contents = [part["content"] for part in json.loads(parts_out)[0]["parts"]]
    token = json.loads(result_out)["contact"]
    assert token.startswith("<EMAIL_ADDRESS_") and contents == [f"Write to {token}", f"{token} today"]
