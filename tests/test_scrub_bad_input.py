"""Bad input never crashes the scrubber and never leaks: redact when unsure, and count it."""

from __future__ import annotations

import base64
import json

import pytest

from scrubbers import ScrubEngine, load_policy

NAME, EMAIL = "Maria Gonzalez", "maria.gonzalez@acme-retail.com"


@pytest.fixture(scope="module")
def engine() -> ScrubEngine:
    return ScrubEngine()


def test_lone_surrogates_from_undecodable_bytes_are_replaced_and_counted(engine):
    raw = f"From {NAME} <{EMAIL}> \xff\xfe payroll".encode("latin-1", "ignore") + b"\xff\xfe"
    text = raw.decode("utf-8", "surrogateescape")
    out = engine.scrub_text(text, engine.new_context())
    assert NAME not in out and EMAIL not in out
    out.encode("utf-8")  # writable: no lone surrogates left
    assert engine.report.invalid_unicode >= 1


def test_a_megabyte_string_skips_ner_but_still_loses_patterns_and_known_values(engine):
    ctx = engine.new_context()
    engine.scrub_value({"name": NAME}, ctx)
    filler = "PTO accrues 4.62 hours per pay period under PTO-CA-2026 §4.2. " * 16_500
    text = f"{NAME} wrote from {EMAIL}, SSN 123-45-6789. " + filler
    assert len(text) > 1_000_000
    before = engine.report.ner_skipped
    out = engine.scrub_text(text, ctx)
    assert out.startswith("<PERSON_1> wrote from <EMAIL_ADDRESS_1>, SSN <US_SSN_1>. PTO accrues 4.62 hours")
    assert out.endswith(filler[-200:])
    assert engine.report.ner_skipped == before + 1


def test_long_text_is_analyzed_in_chunks_with_correct_offsets(engine):
    policy = load_policy().policy.model_copy(update={"ner_chunk_chars": 1000})
    small = ScrubEngine(load_policy().model_copy(update={"policy": policy}))
    text = "Your PTO balance is 62.5 hours as of June 29. " * 60 + f"Contact {EMAIL} or Maria Gonzalez."
    out = small.scrub_text(text, small.new_context())
    assert out.endswith("Contact <EMAIL_ADDRESS_1> or <PERSON_1>.") and out.startswith(text[:2000])


def test_deeply_nested_json_is_redacted_whole_not_a_recursion_error(engine):
    deep_text = "[" * 100_000 + json.dumps(NAME) + "]" * 100_000
    assert engine.scrub_value(deep_text, engine.new_context()) == "<REDACTED>"
    deep_value: object = NAME
    for _ in range(200):
        deep_value = {"child": deep_value}
    before = engine.report.too_deep
    out = json.dumps(engine.scrub_value(deep_value, engine.new_context()))
    assert NAME not in out and "<REDACTED>" in out and engine.report.too_deep > before


def test_truncated_json_and_escaped_json_are_scanned_by_key(engine):
    truncated = '{"employee": {"name": "Zyx Qwv", "email": "zq@acme-retail.com", "note": "cut'
    out = engine.scrub_value(truncated, engine.new_context())
    assert (
        "Zyx Qwv" not in out and "zq@acme" not in out and out.startswith('{"employee": {"name": "<PERSON_1>"')
    )
    escaped = 'payload={\\"full_name\\": \\"Zyx Qwv\\", \\"pto_hours\\": 40}'
    assert "Zyx Qwv" not in engine.scrub_text(escaped, engine.new_context())


def test_python_repr_is_decoded_and_reencoded_as_repr(engine):
    text = repr({"name": NAME, "hours": 62.5, "tags": ("pto", None, True)})
    out = engine.scrub_value(text, engine.new_context())
    assert out == "{'name': '<PERSON_1>', 'hours': 62.5, 'tags': ('pto', None, True)}"


def test_base64_blobs_are_replaced_and_counted(engine):
    blob = base64.b64encode(bytes(range(256)) * 3).decode()
    before = engine.report.blobs_redacted
    out = engine.scrub_value({"inline_data": {"mime_type": "image/png", "data": blob},
                              "note": f"img {blob} ok"},
                             engine.new_context())
    assert out == {"inline_data": {"mime_type": "image/png", "data": "<BLOB>"}, "note": "img <BLOB> ok"}
    assert engine.report.blobs_redacted == before + 2


def test_empty_and_non_string_values(engine):
    ctx = engine.new_context()
    assert engine.scrub_value("", ctx) == ""
    assert engine.scrub_value({"a": [], "b": {}, "c": None, "d": 1.5, "e": False}, ctx) == {
        "a": [], "b": {}, "c": None, "d": 1.5, "e": False}
    assert engine.scrub_value(f"{NAME}".encode(), ctx) == "<PERSON_1>"


def test_analyzer_failure_redacts_the_whole_string_and_counts_it(engine, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("model exploded")

    monkeypatch.setattr(engine.analyzer, "analyze", broken)
    monkeypatch.setattr(engine.analyzer, "analyze_batch", broken)
    ctx = engine.new_context()
    before = engine.report.redacted_on_error
    assert engine.scrub_text(f"never seen before: {NAME} / 1", ctx) == "<REDACTED>"
    items = [(ctx, "app.note", f"never seen before: {NAME} / 2"), (ctx, "gen_ai.request.model", "gemini")]
    assert engine.scrub_many(items) == ["<REDACTED>", "gemini"]
    assert engine.report.redacted_on_error == before + 2
