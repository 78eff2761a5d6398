"""Addresses, phones and licence numbers as other people write them (issue 12, text written by others).

Hand-written examples of each signal the recognizers read: multi-line addresses of several countries
with their flat, town, region and postal lines (`scrubbers/recognizers/address_blocks.py`), military and
post-box mail, phone numbers in national formats after a phone word or before a label
(`scrubbers/recognizers/numbers.py`), licence, passport and employee numbers after their words (the
policy's patterns). As important: the figures that must stay (money, hours, dates, citations, versions,
times, a sentence with two ordinary numbers).
"""

from __future__ import annotations

import pytest

from scrubbers import ScrubEngine
from tests.scrub_text import scrub as _scrub, survives as _survives


ADDRESSES = [
    # number, street, number; a suite line, a town line, a blank line, a country and postal code line
    ("Ines Varga\n\n3310 Pajulahti 12\n Suite 40\n Kuopio\n\n Finland 70100",
     ["3310", "Pajulahti 12", "40", "70100"]),
    # mail-client quoting, the street number after the name, a flat line, an all-capitals town
    ("> Kari Nordmann\n> 4512 Kirkeveien 88\n> Apt. 14\n> BERGEN\n> Norway 5007",
     ["4512", "Kirkeveien 88", "14", "5007"]),
    # a street line, then the town, a region line of its own and the postal code
    ("Deliver to 71 Calle Ombú 2210\nPaysandú\n, PA\n 60000 please", ["71", "Ombú 2210", "60000"]),
    # a lower-case word inside the street name, a postal code before the town
    ("Tartu mnt 25\n10117 Tallinn\nEstonia", ["Tartu mnt 25", "10117"]),
    # Greek script, a flat line, a town in capitals
    ("Send the parcel to 44 Οδός Πατησίων 120\n Apt. 7\n ΑΘΗΝΑ 10434", ["44", "120", "7", "10434"]),
    # two numbers, then a street in lower case, in a lower-case text
    ("the courier left it at 5120 88 birch hollow street", ["5120", "88"]),
    # words, then a number, after a residence cue and before a street word
    ("My aunt lives on Rambla Gandhi 7741 street.", ["Rambla Gandhi 7741"]),
    # a house number, the street, a flat and the town and postal code as comma parts
    ("Ship it to 87 Lindholmen 9 Apt. 3, Göteborg, Sweden 41756", ["87", "Lindholmen 9", "41756"]),
    # after an "Address:" line
    ("Address:\n29 Kaarli pst 4\n 10119 Tallinn", ["29", "Kaarli pst 4", "10119"]),
    # military post: a unit or ship line above the APO/FPO/DPO line
    ("Sgt. Lee\nPSC 1234, Box 5678\nAPO AE 09204", ["PSC 1234, Box 5678", "APO AE 09204"]),
    ("Forward it to Unit 2050 Box 4190\nDPO AP 96522 by Friday", ["Unit 2050 Box 4190", "96522"]),
    ("Crew mail: USNS Comfort\nFPO AA 34055", ["USNS Comfort", "34055"]),
    ("write to uss hopper, fpo ap 96661", ["96661"]),
    # post boxes in several languages, with the line after them
    ("Please write to P.O. Box 4471\nNairobi 00100", ["4471", "00100"]),
    ("Antwort bitte an Postfach 1208, 80331 München", ["1208", "80331"]),
    ("Envíelo al Apartado 45 de Ponce", ["45"]),
    # parts after a spaced dash, as Brazil writes them: the neighbourhood after the number, the state
    # after the town, then the postal code (CEP) and the country
    ("Ship to:\nAv. Paulista, 1578 - Bela Vista\nSão Paulo - SP, 01310-200\nBrazil",
     ["1578", "Bela Vista", "São Paulo", "SP", "01310-200"]),
    ("Endereço: Rua Oscar Freire, 379 - Jardins, São Paulo - SP, 01426-001",
     ["379", "Jardins", "São Paulo", "01426-001"]),
    ("Calle Mayor, 5 - Centro\n28013 Madrid", ["5", "Centro", "28013", "Madrid"]),
]

PHONES = [
    ("You can reach her at 612 34 567 after six.", "612 34 567"),
    ("Please stop sending messages to 44 21 98 76", "44 21 98 76"),
    ("He is not answering at 731 4489 today", "731 4489"),
    ("Olu Bello\nAcme Ltd\n491 2277 fax\n(21) 335-8810 office", "491 2277"),
    ("Olu Bello\nAcme Ltd\n491 2277 fax\n(21) 335-8810 office", "(21) 335-8810"),
    ("Contacts: 2125550147-Office\\,0207 946 0018-Fax", "2125550147"),
    ("Text me on 07 88 12 34 56 ext. 12", "07 88 12 34 56"),
]

LICENCES = [
    ("My driver's license number is 4471-20-9935", "4471-20-9935"),
    ("driver licence no: D1234-56789 (Ontario)", "D1234-56789"),
    ("Her licence is A7730019.", "A7730019"),
    ("passport number: X7723419", "X7723419"),
    # employee ids after their words, in prose (a key such as employee_id is the key rules' job)
    ("my employee ID is 48213", "48213"),
    ("Jordan Lee (employee 48213) asked about PTO", "48213"),
    ("badge #99321 was not scanned", "99321"),
    ("Jordan Lee, emp 4821, asked again", "4821"),
    ("Employee ID: A-77120", "A-77120"),
]

KEPT = [
    "She used 62.5 hours of PTO and 14 days of leave.",
    "The refund of $2,431.18 is due June 29, 2026 under PTO-CA-2026 §4.2 (REQ-884213).",
    "Upgrade from version 3.12.1 to 3.13 before 2026-06-29.",
    "We shipped 40 boxes to 12 stores and 3 warehouses.",
    "I have 2 kids and 3 dogs at home.",
    "The meeting moved to 7 : 41 in Room 4 at Gate 12.",
    "Python 3 runs on Windows 11 and Ubuntu 24.",
    "Ticket REQ-884213 logged 40 hours in week 23.",
    "Read Chapter 5 on page 112 of Volume 2.",
    "Total: 40 hours\nBalance: 12.5 hours\nRate: 3.5 %",
    "The license is valid until 2027 and the licence plan covers 25 seats.",
    # a spaced dash after a number is no address part unless a street line stands before it
    "Policy 4.2 - Overtime Rules - applies to all sites",
    "Report 2024 - Payroll Summary\nPrepared by HR",
    "Take Route 9 - Exit 4 - then left",
    # a heading above a line that starts with "Employees" is no name before an employee id
    "Section 12 - Leave Policy\nEmployees accrue 1.5 days of leave a month.",
    "The employee 2026 bonus pool and the staff numbers for 2025 are in the report.",
    "The employee asked whether Benefits covers 62.5 hours of leave.",
]


@pytest.mark.parametrize(("text", "values"), ADDRESSES)
def test_the_parts_of_an_address_are_removed(engine: ScrubEngine, text: str, values: list[str]) -> None:
    out = _scrub(engine, text)
    assert not [value for value in values if _survives(value, out)], out


@pytest.mark.parametrize(("text", "value"), PHONES)
def test_national_phone_numbers_after_a_cue_or_before_a_label_are_removed(
        engine: ScrubEngine, text: str, value: str) -> None:
    out = _scrub(engine, text)
    assert value not in out, out


@pytest.mark.parametrize(("text", "value"), LICENCES)
def test_licence_passport_and_employee_numbers_after_their_word_are_removed(
        engine: ScrubEngine, text: str, value: str) -> None:
    out = _scrub(engine, text)
    assert value not in out, out


@pytest.mark.parametrize("text", KEPT)
def test_figures_and_ordinary_numbers_stay(engine: ScrubEngine, text: str) -> None:
    assert _scrub(engine, text) == text


def test_an_address_block_takes_no_word_of_the_lines_around_it(engine: ScrubEngine) -> None:
    text = ("Hi team,\nplease post the contract for 40 hours a week to:\n3310 Pajulahti 12\n Suite 40\n"
            " Kuopio\n Finland 70100\nThanks for the 62.5 hours you logged.")
    out = _scrub(engine, text)
    assert out.startswith("Hi team,\nplease post the contract for 40 hours a week to:\n"), out
    assert out.endswith("\nThanks for the 62.5 hours you logged."), out
    assert not any(_survives(value, out) for value in ("3310", "12", "70100")), out


def test_words_after_a_dash_stay_unless_more_of_the_address_follows(engine: ScrubEngine) -> None:
    out = _scrub(engine, "Office: 42 Elm Street - Payroll Team\nAsk for the 62.5 hours report")
    assert not _survives("42", out), out
    assert out.endswith(" - Payroll Team\nAsk for the 62.5 hours report"), out
