"""Residual scan: finds personal data left in a case, by path and type, never by value."""

from __future__ import annotations

import pytest

from scrubbers import ScrubEngine, residual_scan


@pytest.fixture(scope="module")
def engine() -> ScrubEngine:
    return ScrubEngine()


def test_clean_case_strings_and_placeholders_are_not_findings(engine):
    strings = [
        ("input", "Hi, I'm <PERSON_1> (<EMAIL_ADDRESS_1>). How much PTO carries into next year?"),
        ("expected_output",
         "Up to 40 hours carries over; 22.5 hours at risk (PTO-CA-2026 §4.2) by December 31."),
        ("expected_tools.calls[0].name", "get_employee_context"),
        ("expected_tools.calls[1].args.topic", "pto_carryover"),
        ("expected_tools.calls[1].args.jurisdiction", "CA"),
        ("entities[0].name", "<PERSON_3fa2c1>"),
    ]
    assert residual_scan(strings, engine=engine) == []


def test_leftover_values_are_reported_by_path_and_type_without_the_value(engine):
    findings = residual_scan(
        [("input", "I'm Maria Gonzalez, reach me at 415-555-0132"), ("entities[0].contact.email", "x"),
         ("expected_tools.calls[0].args.employee_id", "E-44213")],
        engine=engine,
    )
    found = {(f.path, f.entity_type) for f in findings}
    assert found == {("input", "PERSON"), ("input", "PHONE_NUMBER"),
                     ("entities[0].contact.email", "EMAIL_ADDRESS"),
                     ("expected_tools.calls[0].args.employee_id", "EMPLOYEE_ID")}
    assert "Maria" not in "".join(f.model_dump_json() for f in findings)


def test_allow_accepts_legitimate_identifiers(engine):
    strings = [("entities[0].resolves_to", "E-44213"), ("provenance.promoted_by", "Hermione Granger"),
               ("input", "Ask Hermione Granger")]

    def allow(path: str, entity_type: str, matched: str) -> bool:
        return path == "entities[0].resolves_to" or (path == "provenance.promoted_by"
                                                     and entity_type == "PERSON")

    findings = residual_scan(strings, engine=engine, allow=allow)
    assert [(f.path, f.entity_type) for f in findings] == [("input", "PERSON")]
