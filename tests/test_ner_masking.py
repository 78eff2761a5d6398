"""NER reads a text with the values the other recognizers found masked (`scrubbers.speed.masking`): the
stand-ins, how NER's entities map back onto the text, sentences that differ only in those values run once,
and the policy switch that turns it off."""

from __future__ import annotations

from pathlib import Path

import pytest

import scrubbers
from promote.batch.run import ScrubOptions, scrub_exports
from promote.scrubbing import engine
from scrubbers.speed.masking import mask, stand_in
from scrubbers.speed.sentences import SentenceEntities
from tests.conftest import TRACES
from tests.test_ner_sentences import CountingNlp

DEFAULT_POLICY = Path(scrubbers.__file__).parent / "policies" / "default.yaml"


@pytest.mark.parametrize(("value", "entity", "expected"), [
    ("Kavya Ueda", "PERSON", "John Smith"),
    ("Nguyen Van An", "PERSON", "John Smith Miller"),
    ("María José de la Cruz", "PERSON", "John Smith Miller Miller Miller"),
    ("E-71824", "EMPLOYEE_ID", "X-00000"),
    ("318-96-6375", "US_SSN", "000-00-0000"),
    ("sk-live-Ab9Z", "SECRET", "xx-xxxx-Xx0X"),
    ("hiroshi.quintero@acme-retail.com", "EMAIL_ADDRESS", "name@example.com"),
    ("4821 Maple Avenue, Springfield", "STREET_ADDRESS", "1 Main Street"),
])
def test_a_stand_in_keeps_the_shape_or_is_one_common_value(value: str, entity: str, expected: str) -> None:
    assert stand_in(value, entity) == expected


def test_spans_of_the_masked_text_map_back_onto_the_text_as_written() -> None:
    text = "Dr. Kavya Ueda-Lee (E-71824) wrote to hiroshi@acme.com today."
    masked = mask(text, [(4, 14, "PERSON"), (20, 27, "EMPLOYEE_ID"), (38, 54, "EMAIL_ADDRESS"),
                         (21, 25, "EMPLOYEE_ID")])  # the last lies inside another: one stand-in
    assert masked.text == "Dr. John Smith-Lee (X-00000) wrote to name@example.com today."

    def back(part: str) -> str | None:
        start = masked.text.index(part)
        placed = masked.original(start, start + len(part))
        return None if placed is None else text[placed[0]:placed[1]]

    def inside(part: str) -> bool:
        start = masked.text.index(part)
        return masked.inside(start, start + len(part))

    assert back("Dr.") == "Dr."  # before every stand-in
    assert back("today") == "today"  # after them all
    assert back("wrote") == "wrote"  # between two
    assert back("-Lee") == "-Lee"  # right after one
    assert inside("John Smith") and inside("Smith") and inside("00000")  # a value found already
    assert not inside("Dr. John") and not inside("wrote")
    # reaching past a stand-in: no place in the text as written (the text is read as written instead)
    assert back("Dr. John Smith") is None and back("Smith-Lee") is None
    assert back("X-00000) wrote to name") is None


def _analyzer_counting(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    analyzer = engine().analyzer
    nlp = CountingNlp(analyzer.nlp_engine.nlp["en"])
    monkeypatch.setitem(analyzer.nlp_engine.nlp, "en", nlp)
    monkeypatch.setattr(analyzer.nlp_engine, "sentence_entities", SentenceEntities())  # nothing run yet
    return analyzer, nlp


PEOPLE = [("Kavya Ueda", "E-71824", "318-96-6375"), ("Carlos Kimura", "E-56992", "357-86-5659"),
          ("Hiroshi Quintero", "E-10443", "512-44-7723")]


def _texts() -> list[str]:
    return [f"Check my accruals. This is {name}, employee {employee}, SSN {ssn} if you need it."
            for name, employee, ssn in PEOPLE]


def test_texts_that_differ_only_in_found_values_run_ner_once_and_every_value_is_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    analyzer, nlp = _analyzer_counting(monkeypatch)
    found = dict(analyzer.analyze_batch(_texts()))
    assert nlp.piped == ["Check my accruals. This is John Smith, employee X-00000, SSN 000-00-0000 if you "
                         "need it."]
    for text, (name, employee, ssn) in zip(_texts(), PEOPLE):
        surfaces = {(text[d.start:d.end], d.entity) for d in found[text]}
        assert {(name, "PERSON"), (employee, "EMPLOYEE_ID"), (ssn, "US_SSN")} <= surfaces
        assert analyzer.analyze(text) == found[text]  # one text alone: the same


def test_a_name_no_other_recognizer_finds_is_left_to_ner_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    analyzer, nlp = _analyzer_counting(monkeypatch)
    text = "I spoke with Zebulon Quaritch yesterday about the claim of employee E-71824."
    others = analyzer.analyze_without_ner(text)  # what the recognizers but NER find: the id, no name
    assert [(text[d.start:d.end], d.entity) for d in others] == [("E-71824", "EMPLOYEE_ID")]
    found = analyzer.analyze(text)
    assert ("Zebulon Quaritch", "PERSON") in {(text[d.start:d.end], d.entity) for d in found}
    assert nlp.piped == ["I spoke with Zebulon Quaritch yesterday about the claim of employee "
                         "X-00000."]


def test_the_policy_can_have_ner_read_the_text_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    analyzer, nlp = _analyzer_counting(monkeypatch)
    monkeypatch.setattr(analyzer, "policy", analyzer.policy.model_copy(update={"ner_reads_masked": False}))
    found = dict(analyzer.analyze_batch(_texts()))
    assert nlp.piped == _texts()  # every text run as written
    for text, (name, _, _) in zip(_texts(), PEOPLE):
        assert (name, "PERSON") in {(text[d.start:d.end], d.entity) for d in found[text]}


@pytest.mark.parametrize("text", [
    # NER reads "Sorry John, there is ..." as one name: the text as written decides
    "Sorry Bogdan, there is no pay period 2026-13. Pay statements are filed by pay date.",
    # "John via Docker" as one name, "안서현 via Docker" not
    "Rolled back the deployment and checked the labels.\nEscalated to 안서현 via Docker.",
])
def test_where_ner_reads_past_a_stand_in_the_text_is_read_as_written(
        text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    analyzer, nlp = _analyzer_counting(monkeypatch)
    found = analyzer.analyze(text)
    assert any("John" in piped for piped in nlp.piped)  # read masked first
    assert not any("Docker" in text[d.start:d.end] for d in found)
    monkeypatch.setattr(analyzer, "policy", analyzer.policy.model_copy(update={"ner_reads_masked": False}))
    assert analyzer.analyze(text) == found  # then as written: as without masking


@pytest.mark.parametrize("export", ["adk2.otlp.jsonl", "adk1.otlp.jsonl", "openinference.otlp.jsonl",
                                    "producers/kagent.tempo.json", "producers/monocle-adk.carryover.json",
                                    "producers/langfuse-native.tool_error.json"])
def test_masking_changes_no_byte_of_a_real_export_scrubbed(export: str, tmp_path: Path) -> None:
    as_written = tmp_path / "as-written.yaml"
    as_written.write_text(DEFAULT_POLICY.read_text(encoding="utf-8").replace(
        "ner_reads_masked: true", "ner_reads_masked: false"), encoding="utf-8")
    source = str(TRACES / export)
    scrub_exports([source], str(tmp_path / "masked"), ScrubOptions(workers=1))
    scrub_exports([source], str(tmp_path / "written"), ScrubOptions(workers=1, policy_path=as_written))
    assert (tmp_path / "masked").read_bytes() == (tmp_path / "written").read_bytes()
