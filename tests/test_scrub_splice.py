"""Big JSON strings planned member by member (scrubbers.speed.splice) scrub exactly like the same strings
decoded whole, on the real ADK and OpenInference exports, and change only the members that hold data."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

import scrubbers.speed.splice as splice_module
from promote.ingest import iter_spans
from scrubbers import ScrubEngine
from scrubbers.speed.splice import cut_json
from tests.conftest import TRACES

EXPORTS = ["adk2.otlp.jsonl", "adk1.otlp.jsonl", "openinference.otlp.jsonl", "adk2-default.otlp.jsonl"]


def _trace_items(engine: ScrubEngine) -> list[tuple]:
    """(context, key, value) for every string attribute of the fixture exports, one context per trace."""
    contexts: dict[str, object] = defaultdict(engine.new_context)
    items = []
    for name in EXPORTS:
        for span in iter_spans([TRACES / name]):
            for key, value in span.attributes.items():
                if isinstance(value, str):
                    items.append((contexts[f"{name}:{span.trace_id}"], key, value))
    return items


def _scrub_all() -> tuple[list, ScrubEngine, int]:
    engine = ScrubEngine()
    items = _trace_items(engine)
    spliced_before = engine._builder.splicer.member_chars
    output = engine.scrub_many(items, learn=True)
    return output, engine, engine._builder.splicer.member_chars - spliced_before


def test_spliced_plans_scrub_exactly_like_whole_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    spliced, spliced_engine, member_chars = _scrub_all()
    assert member_chars > 10_000  # the requests and histories really went the member-by-member way
    with monkeypatch.context() as patched:
        patched.setattr(splice_module, "SPLICE_MIN_CHARS", 10**12)
        whole, whole_engine, whole_member_chars = _scrub_all()
    assert whole_member_chars == 0
    assert spliced == whole
    assert spliced_engine.report.model_dump() == whole_engine.report.model_dump()


def test_only_the_member_that_holds_a_name_is_rewritten() -> None:
    engine = ScrubEngine()
    history = [{"role": "user", "content": f"Turn {i}: how much PTO carries over in CA? " * 3}
               for i in range(12)]
    history[5]["content"] = "Hi, I'm Maria Gonzalez. How much PTO carries over in CA?"
    # Hand-written spacing outside the member: the whole-string path would normalise all of it.
    text = (
        '{"model" :  "gemini-2.5-flash",   "contents":[' + ",  ".join(json.dumps(m) for m in history) + "] }"
    )
    assert len(text) > splice_module.SPLICE_MIN_CHARS
    out = engine.scrub_value(text, engine.new_context(), key="gcp.vertex.agent.llm_request")
    assert out == text.replace("Maria Gonzalez", "<PERSON_1>")


def test_the_scanner_cuts_plain_json_and_refuses_anything_else() -> None:
    text = ' {"a": [1, {"b": "x,y"}], "c" :"d"}'
    cut = cut_json(text, 1, 2)
    assert cut is not None and cut.is_object and cut.end == len(text)
    assert [(p.key, text[p.start:p.end]) for p in cut.pieces] == [("a", '[1, {"b": "x,y"}]'), ("c", '"d"')]
    inner = cut.pieces[0].cut
    assert inner is not None and [text[p.start:p.end] for p in inner.pieces] == ["1", '{"b": "x,y"}']
    for bad in ['{"a": 1, "a": 2}', '{"a": 1,}', '{"a" 1}', "{'a': 1}", '[1, 2', '{"a": tru}']:
        assert cut_json(bad, 0, 2) is None, bad


def test_numbers_in_a_spliced_string_are_copied_not_planned_unless_a_key_makes_them_personal() -> None:
    engine = ScrubEngine()
    text = json.dumps({"embedding": [0.125] * 300, "account_number": 12345678,
                       "note": "Maria Gonzalez called"})
    out = json.loads(engine.scrub_value(text, engine.new_context(), key="tool.result"))
    assert out == {"embedding": [0.125] * 300, "account_number": "<US_BANK_NUMBER_1>",
                   "note": "<PERSON_1> called"}
    assert engine._builder.splicer.member_chars < 100  # the 300 numbers took no member plans


def test_a_spliced_value_that_comes_back_is_planned_twice_at_most(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tool declarations come back in every model call of every trace; a model request is seen once.
    engine = ScrubEngine()
    tools = json.dumps([{"name": f"lookup_{i}", "description": "Looks up the policy of a state. " * 4,
                         "parameters": {"type": "object", "properties": {"state": {"type": "string"}}}}
                        for i in range(20)])
    assert len(tools) > splice_module.SPLICE_MIN_CHARS
    built: list[str] = []
    build = engine._builder.value
    monkeypatch.setattr(engine._builder, "value", lambda value, key: built.append(value) or build(value, key))
    key = "gen_ai.tool.definitions"
    outputs = [engine.scrub_many([(engine.new_context(), key, tools)])[0] for _ in range(5)]  # five traces
    assert outputs == [tools] * 5
    assert len(built) == 2  # seen once: planned, not kept; seen again: planned and kept
    requests = [tools.replace("lookup_0", f"lookup_{n}x") for n in range(3)]
    for request in requests:
        engine.scrub_many([(engine.new_context(), "gcp.vertex.agent.llm_request", request)])
    assert built[2:] == requests
