"""The street-line pattern is tried without the suffix and prefix forms a text cannot hold (a speed-up):
it must find exactly what the pattern with every form finds."""

from __future__ import annotations

import regex

import scrubbers.recognizers.addresses as addresses
from tests.test_scrub_gates import _texts

# Every form, as the recognizer matched before the forms were chosen by text.
_EVERY_FORM = regex.compile(
    rf"(?<![\w-])(?:{addresses._EN_STREET}|{addresses._SUFFIX_STREET}|{addresses._WORD_STREET}|"
    rf"{addresses._PREFIX_STREET}){addresses._UNIT}(?![\w])")

STREETS = [
    "Ship to Puruntie 82 Apt. 595\n53650 LAPPEENRANTA, Finland",
    "Lieferung an Drubinstraße 47-26, 10115 Berlin", "DRUBINSTRASSE 4 and Skolvägen 12 lgh 1101",
    "Via Roma 3, 00184 Roma", "VIA ROMA 3", "via roma 3", "ul. Paderewskiego 77, 61-668 Kołobrzeg",
    "UL. PADEREWSKIEGO 77", "5, avenue Samson", "Calle Mayor, 5", "C/ Mayor 5", "Str. Lipscani 5",
    "Οδός Αθηνάς 12", "ΟΔΌΣ ΑΘΗΝΆΣ 12", "ул. Ленина, д. 5, кв. 12", "УЛ. ЛЕНИНА 5", "б-р Шевченко 4",
    "8 phố Hùng Vương", "đường Lê Lợi 12", "17 Jones Light, Springfield", "Györgyhalasi utca 121.",
    # "ı" and "İ": `regex` reads them as "i" and "I", case folding does not, so every form is tried
    "VİA Roma 3", "vıa Roma 3", "Rua Augusta 1, Lisboa", "Travessa do Carmo 4", "Praça da Sé 9",
    "no street here: 62.5 hours, policy HR-7.2", "Via", "Puruntie", "ul.\t5",
]


def _spans(pattern: regex.Pattern, text: str) -> list[tuple[int, int]]:
    return [match.span() for match in pattern.finditer(text)]


def test_the_forms_chosen_by_text_find_what_every_form_finds() -> None:
    texts = [*STREETS, *_texts()]
    found = 0
    for text in texts:
        expected = _spans(_EVERY_FORM, text)
        assert _spans(addresses._street_of(text), text) == expected, text
        found += bool(expected)
    assert found >= 20  # the texts do hold street lines of every form


def test_a_text_without_suffix_or_prefix_words_is_read_without_those_forms() -> None:
    assert addresses._street_of("17 Jones Light, 62.5 hours") is addresses._street(False, False)
    assert addresses._street_of("Puruntie 82") is addresses._street(True, False)
    assert addresses._street_of("VIA Roma 3") is addresses._street(False, True)
    assert addresses._street_of("ΟΔΌΣ Αθηνάς 12") is addresses._street(False, True)
    assert addresses._street_of("VİA Roma") is addresses._street(False, True)  # "İ": every prefix form
