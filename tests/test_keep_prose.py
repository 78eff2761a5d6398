"""Prose an HR or IT agent sees that holds no personal value stays as written, and the values beside the
same shapes still go (hand-written; each case a false positive a fresh battery of such prose found).

The signals: a PERSON made only of dictionary words that no name list holds goes back to being words
when it heads a sentence, a line, a list item or a table cell, or joins a Title Case run
(`Refiner._common_words`); public holidays and the UK's nations in the policy's keep lists; a glossary
line is no speaker; a number with a thousands group is no house number; a time's seconds are no phone;
a log line's severity and date and an error code are no employee id; a list number after "token:" is no
secret; a month after a word of time, or before a year or day, is no person.
"""

from __future__ import annotations

import pytest

from scrubbers import ScrubEngine
from tests.scrub_text import scrub as _scrub


KEPT = [
    "Available leave types:\n- Vacation\n- Floating Holiday\n- Jury Duty",
    "Sure, here it is.",
    "The Employee Assistance Program is confidential; see the Employee Handbook.",
    "Dear Service Desk,\nthe portal is down again.\nThanks, Payroll Team",
    "Reviewer: Compliance",
    "Victoria Day is a statutory holiday in most Canadian provinces.",
    "Summer Hours: Fridays end at 1 PM from Memorial Day through Labor Day.",
    "Holiday Schedule 2026\nNew Year's Day\nMartin Luther King Jr. Day\nPresidents' Day",
    "Bank holiday in England and Wales: Early May Bank Holiday, 4 May 2026.",
    "Appendix B\nAccrual: the amount of leave earned per pay period.\nCarryover: unused leave moved on.",
    "Total 1,842 records; approximately 2,000 employees enrolled.",
    "E0318 09:15:02.331207       1 reflector.go:138] Failed to watch *v1.ConfigMap",
    "Error E4012: pay group not found.",
    "Steps to reset your VPN token:\n1. Open the Okta dashboard.\n2. Select Security.",
    "Please send the results for April by Friday; pay changes from June apply. April 2026 payroll closed.",
]

GONE = [
    ("Thanks, Mark", "Mark"),
    ("my colleague Grace said the form was late", "Grace"),
    ("whenever Trump says it, the room goes quiet", "Trump"),
    ("Doris Day sang it at the party", "Doris"),
    ("Tomomi: who are you?\nNgozi: i am the new hire", "Tomomi"),
    ("Her id is E-88645 and his is EMP12345", "88645"),
    ("Her id is E-88645 and his is EMP12345", "12345"),
    ("Phone:0412 345 678 after 09:15", "0412 345 678"),
    ("password: abc123", "abc123"),
    ("April Jones approved it", "April"),
    ("I talked to April yesterday", "April"),
]


@pytest.mark.parametrize("text", KEPT)
def test_prose_without_personal_values_stays(engine: ScrubEngine, text: str) -> None:
    assert _scrub(engine, text) == text


@pytest.mark.parametrize(("text", "value"), GONE)
def test_the_values_beside_those_shapes_still_go(engine: ScrubEngine, text: str, value: str) -> None:
    out = _scrub(engine, text)
    assert value not in out, out
