"""Unquoted values after personal keys in log text (`username=ghallman`, `user_id: u88645`) go; resource
names after a bare or last-part `name` stay, and a recognizer's own finding names the placeholder."""

from __future__ import annotations

import pytest

from promote.scrubbing import engine

REMOVED = [
    ("auth ok username=ghallman took 12ms", "auth ok username=<PERSON_1> took 12ms"),
    ("username: ghallman", "username: <PERSON_1>"),
    ("GET /v1/pto?user_id=u88645&year=2026", "GET /v1/pto?user_id=<USER_ID_1>&year=2026"),
    ("user.name=ghallman", "user.name=<PERSON_1>"),
    ("manager: greg", "manager: <PERSON_1>"),
    # a lower-case full name after a name key, though "greg" is also a word
    ('level=info msg="lookup" name=greg hallman id=7', 'level=info msg="lookup" name=<PERSON_1> id=7'),
    ("contact name: greg hallman", "contact name: <PERSON_1>"),
    ("Full name: maria gonzalez", "Full name: <PERSON_1>"),
    ("cc: 4111 1111 1111 1111", "cc: <CREDIT_CARD_1>"),
]
KEPT = [
    "k8s.pod.name=payments-api-7f9c8d",
    "name=payments-api replicas=3",
    "Namespace: observability",
    "tool name: get_employee_context",
    "name: redis cluster",
    "name=rose garden",
    "k8s.pod.name=payments api",
    "ssn: none given",
]


def test_a_copy_line_is_no_card_number() -> None:
    # `cc` is a card number's key, but an unquoted value without digits is none (it was `<CREDIT_CARD_1>`)
    assert "CREDIT_CARD" not in engine().scrub_text("cc: rose wells", engine().new_context())
    assert "Rose Wells" not in engine().scrub_text("cc: Rose Wells", engine().new_context())


@pytest.mark.parametrize(("text", "expected"), REMOVED)
def test_an_unquoted_value_after_a_personal_key_is_replaced(text: str, expected: str) -> None:
    assert engine().scrub_text(text, engine().new_context()) == expected


@pytest.mark.parametrize("text", KEPT)
def test_names_of_things_after_name_keys_stay(text: str) -> None:
    assert engine().scrub_text(text, engine().new_context()) == text


def test_a_recognizer_names_the_placeholder_over_an_unquoted_value() -> None:
    scrubbed = engine().scrub_text("iban: DE89 3704 0044 0532 0130 00", engine().new_context())
    assert scrubbed == "iban: <IBAN_CODE_1>"
