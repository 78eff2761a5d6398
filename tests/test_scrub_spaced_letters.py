"""A value written letter by letter ("G r e g o r y   H a l l m a n") is read joined, and the spaced
characters themselves are what gets replaced; short runs and ordinary text with single letters stay."""

from __future__ import annotations

import pytest

from promote.scrubbing import engine
from scrubbers.structure.disguise import reading_of, view_of

REMOVED = [
    ("Ticket opened by G r e g o r y   H a l l m a n today", "G r e g o r y   H a l l m a n", "PERSON"),
    ("mail g r e g . h a l l m a n @ e x a m p l e . c o m now",
     "g r e g . h a l l m a n @ e x a m p l e . c o m", "EMAIL_ADDRESS"),
    ("my ssn is 5 1 2 - 4 4 - 7 7 2 3 ok", "5 1 2 - 4 4 - 7 7 2 3", "US_SSN"),
    ('{"note": "call ( 4 1 5 )   5 5 5 - 0 1 3 4"}', "( 4 1 5 )   5 5 5 - 0 1 3 4", "PHONE_NUMBER"),
]
KEPT = [
    "Steps 1 2 3 4 5 then done",
    "The grid is A B C D E F.",
    "Pick a b c from the list",
    "x = a + b + c",
    "You have 62.5 hours of PTO (PTO-CA-2026 §4.2).",
]


@pytest.mark.parametrize(("text", "spaced", "entity"), REMOVED)
def test_a_value_written_letter_by_letter_is_replaced_where_it_stands(text: str, spaced: str,
                                                                      entity: str) -> None:
    scrubbed = engine().scrub_text(text, engine().new_context())
    assert scrubbed == text.replace(spaced, f"<{entity}_1>")


@pytest.mark.parametrize("text", KEPT)
def test_single_letters_and_digits_in_ordinary_text_stay(text: str) -> None:
    assert engine().scrub_text(text, engine().new_context()) == text


def test_the_view_joins_each_word_and_maps_back_to_the_spaced_characters() -> None:
    text = "Also G r e g o r y   H a l l m a n (name)."
    view = view_of(text)
    assert view.text == "Also Gregory Hallman (name)."
    start = view.text.index("Hallman")
    begin, end = view.span(start, start + len("Hallman"))
    assert text[begin:end] == "H a l l m a n"
    assert view_of("a b c").text == "a b c"  # fewer than four letters: read as written


@pytest.mark.parametrize("surface", [
    "Gregory Hallman", "G r e g o r y", "Gre\u200bgory", "Gr\u0435gory", "greg%2Ehallman", "&#71;regory",
    "<GREGORY_HALLMAN>", "R3JlZ29yeSBIYWxsbWFu", "E-88645", "\\u0047regory"])
def test_what_a_replaced_value_reads_as_is_its_view(surface: str) -> None:
    # the placeholder of a replaced value is keyed by its reading: the shortcut must read as the view does
    assert reading_of(surface) == view_of(surface).text
