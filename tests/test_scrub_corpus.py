"""The scrub accuracy corpus is deterministic and its labels are exact; the scorer reads them right."""

from __future__ import annotations

import ast
import json

import pytest

from corpora.scrub_corpus import (DEFAULT_SEED, KEEP_CATEGORIES, PHRASINGS, PII_TYPES, LabelledSpan,
                                  LabelledString, generate_corpus, generate_trace, read_corpus,
                                  write_corpus)
from corpora.scrub_scoring import score_string


@pytest.fixture(scope="module", params=sorted(PHRASINGS))
def corpus(request):
    return generate_corpus(20, DEFAULT_SEED, request.param)


def _strings(corpus) -> list[LabelledString]:
    return [s for trace in corpus for s in trace.strings]


def _decoded(item: LabelledString):
    return json.loads(item.text) if item.format == "json" else ast.literal_eval(item.text)


def _key_values(node, out: set) -> set:
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, str):
                out.add((k, v))
            _key_values(v, out)
    elif isinstance(node, list):
        for v in node:
            _key_values(v, out)
    return out


def test_same_seed_gives_the_same_corpus_and_another_seed_does_not():
    corpus = generate_corpus(20, DEFAULT_SEED)
    again = generate_corpus(20, DEFAULT_SEED)
    assert [t.model_dump() for t in again] == [t.model_dump() for t in corpus]
    other = generate_corpus(20, DEFAULT_SEED + 1)
    assert [t.model_dump() for t in other] != [t.model_dump() for t in corpus]
    # a trace depends only on (seed, index), so small corpora are prefixes of the benchmark's
    assert generate_trace(DEFAULT_SEED, 13) == corpus[13]


def test_heldout_phrasing_shares_no_wording_or_names_with_main():
    main, heldout = PHRASINGS["main"], PHRASINGS["heldout"]
    for field in main._fields:
        assert not set(getattr(main, field)) & set(getattr(heldout, field)), field
    main_names = {s.text for t in generate_corpus(20) for i in t.strings for s in i.spans
                  if s.label == "PERSON"}
    heldout_names = {s.text for t in generate_corpus(20, phrasing="heldout") for i in t.strings
                     for s in i.spans if s.label == "PERSON"}
    assert not main_names & heldout_names


def test_every_span_points_at_its_text(corpus):
    spans = [(item, span) for item in _strings(corpus) for span in item.spans]
    assert len(spans) > 1000
    for item, span in spans:
        assert item.text[span.start:span.end] == span.text, (item.string_id, span)
        assert span.text.strip() == span.text and span.text


def test_pii_and_keep_spans_do_not_overlap(corpus):
    for item in _strings(corpus):
        ordered = sorted(item.spans, key=lambda s: s.start)
        for left, right in zip(ordered, ordered[1:]):
            assert left.end <= right.start, (item.string_id, left, right)


def test_every_pii_type_and_keep_category_occurs(corpus):
    spans = [span for item in _strings(corpus) for span in item.spans]
    assert {s.label for s in spans if s.kind == "pii"} == set(PII_TYPES)
    assert {s.label for s in spans if s.kind == "keep"} == set(KEEP_CATEGORIES)
    assert {s.label for s in spans if s.keyed} >= {"PERSON", "EMAIL_ADDRESS", "US_SSN", "EMPLOYEE_ID"}


def test_structured_strings_parse_and_keyed_spans_are_whole_field_values(corpus):
    structured = [item for item in _strings(corpus) if item.format != "text"]
    assert {item.kind for item in structured} >= {"tool_args", "tool_result", "chat_history", "retrieval"}
    for item in structured:
        pairs = _key_values(_decoded(item), set())
        for span in item.spans:
            if span.keyed:
                assert (span.json_key, span.text) in pairs, (item.string_id, span)
    history = next(i for i in structured if i.kind == "chat_history")
    assert _decoded(history)[0]["parts"][0]["type"] == "text"  # gen_ai.input.messages shape


def test_corpus_round_trips_through_jsonl(corpus, tmp_path):
    path = write_corpus(corpus, tmp_path / "corpus.jsonl")
    assert read_corpus(path) == corpus


def _replace_pii(item: LabelledString) -> str:
    text = item.text
    for span in sorted((s for s in item.spans if s.kind == "pii"), key=lambda s: -s.start):
        text = text[:span.start] + f"<{span.label}_1>" + text[span.end:]
    return text


def test_scorer_credits_a_perfect_scrubber_and_blames_a_leaky_one(corpus):
    for item in _strings(corpus)[:60]:
        perfect = score_string(item, _replace_pii(item))
        assert all(o.ok and o.strict_ok for o in perfect.outcomes), item.string_id
        assert all(r.hits_pii for r in perfect.replacements)
        untouched = score_string(item, item.text)
        assert not any(o.ok for o in untouched.outcomes if o.span.kind == "pii")
        assert untouched.replacements == []


def test_scorer_counts_partial_removal_and_collateral_damage():
    item = next(s for s in generate_trace(DEFAULT_SEED, 0).strings if s.kind == "user_message")
    person = next(s for s in item.spans if s.label == "PERSON" and " " in s.text)
    first, last = person.text.split(" ", 1)
    half_done = item.text[:person.start] + "<PERSON_1> " + last + item.text[person.end:]
    assert not next(o for o in score_string(item, half_done).outcomes if o.span == person).ok
    kept = next(s for s in item.spans if s.kind == "keep")
    damaged = item.text[:kept.start] + "<DATE_TIME>" + item.text[kept.end:]
    score = score_string(item, damaged)
    assert not next(o for o in score.outcomes if o.span == kept).ok
    assert [(r.label, r.hits_pii) for r in score.replacements] == [("DATE_TIME", False)]


def test_scorer_reads_json_escapes_as_their_own_tokens():
    text = '[{"content": "Thanks,\\nLi Wu\\nPayroll Specialist"}]'
    name_at, title_at = text.index("Li Wu"), text.index("Payroll")
    item = LabelledString(string_id="t/x", kind="chat_history", attribute="gen_ai.input.messages",
                          format="json", text=text, spans=[
                              LabelledSpan(start=name_at, end=name_at + 5, kind="pii", label="PERSON",
                                           text="Li Wu"),
                              LabelledSpan(start=title_at, end=title_at + 18, kind="keep", label="JOB_TITLE",
                                           text="Payroll Specialist")])
    # the scrubber also swallowed the newline after the name: the title itself is still intact
    score = score_string(item, text.replace("Li Wu\\n", "<PERSON_1>"))
    assert [o.ok for o in score.outcomes] == [True, True]
