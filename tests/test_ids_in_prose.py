"""Identity, account, user, postal and secret values told in a sentence, after the name of their kind in
the words of several countries (the policy's context patterns), and the ordinary sentences with the same
words that must stay (hand-written; the forms a fresh battery of such values found leaking)."""

from __future__ import annotations

import pytest

from scrubbers import ScrubEngine
from tests.scrub_text import scrub as _scrub


GONE = [
    # national ids of many countries, after their names
    ("Her national insurance number is JK 40 21 77 B.", "JK 40 21 77 B", "NATIONAL_ID"),
    ("Aadhaar card 3307 1842 6659 on file", "3307 1842 6659", "NATIONAL_ID"),
    ("CPF: 318.407.662-09, please update", "318.407.662-09", "NATIONAL_ID"),
    ("DNI 71234098Q caducado", "71234098Q", "NATIONAL_ID"),
    ("NRIC T0412345Z for the new hire", "T0412345Z", "NATIONAL_ID"),
    ("his PAN is BQRPS7719K", "BQRPS7719K", "NATIONAL_ID"),
    ("Steuer-ID 47036892816 fehlt", "47036892816", "NATIONAL_ID"),
    # employee, badge and user numbers
    ("EmpID 204417 asked for a new laptop", "204417", "EMPLOYEE_ID"),
    ("Employee 66120 has not clocked in", "66120", "EMPLOYEE_ID"),
    ("badge 5530 stopped working", "5530", "EMPLOYEE_ID"),
    ("Sakura Ito (ID 30921) joined the team", "30921", "EMPLOYEE_ID"),
    ("Mitarbeiternummer: 800417", "800417", "EMPLOYEE_ID"),
    ("my id is 92314, can you check?", "92314", "EMPLOYEE_ID"),
    ("customer id: 5521907 called twice", "5521907", "USER_ID"),
    # accounts with spaces and dashes, or after another language's word
    ("Pay it into account 4410 2231 9", "4410 2231 9", "US_BANK_NUMBER"),
    ("acc no 8830012291 (Zenith)", "8830012291", "US_BANK_NUMBER"),
    ("Kontonummer 5501 2297 40", "5501 2297 40", "US_BANK_NUMBER"),
    # passports and licences in other languages
    ("pasaporte XDA442190 vence en mayo", "XDA442190", "US_PASSPORT"),
    ("Führerschein J41K2209M1 liegt vor", "J41K2209M1", "US_DRIVER_LICENSE"),
    ("DL# W221-4471-0093", "W221-4471-0093", "US_DRIVER_LICENSE"),
    # secrets told in a sentence
    ("my password is Orchid#7712", "Orchid#7712", "SECRET"),
    ("the wifi password is blue-river-88", "blue-river-88", "SECRET"),
    ("PIN is 9034", "9034", "SECRET"),
    ("card ending 4242, cvv 617", "617", "SECRET"),
    ("Config: DB_PASSWORD=q7Wz!p2Lm9 and REDIS_HOST=cache", "q7Wz!p2Lm9", "SECRET"),
    ("export SLACK_BOT_TOKEN=t0k3nV4lu3xyz", "t0k3nV4lu3xyz", "SECRET"),
    ("the key that failed: sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "SECRET"),
    # user names in prose and logs
    ("username mokoro_hr is locked", "mokoro_hr", "USER_NAME"),
    ("user: tkwame9 failed login", "tkwame9", "USER_NAME"),
    ("uid=mfernandes,ou=people,dc=acme", "mfernandes", "USER_NAME"),
    ("logged in as CORP\\a.petrova at 09:12", "a.petrova", "USER_NAME"),
    ("ping @ama-osei about it", "ama-osei", "USER_NAME"),
    # postal codes told alone; a slashed German number after an office word; a phone word in Spanish
    ("Postcode EH1 1YZ, please", "EH1 1YZ", "STREET_ADDRESS"),
    ("CEP 04538-132", "04538-132", "STREET_ADDRESS"),
    ("Büro: 040 / 3344 5566", "040 / 3344 5566", "PHONE_NUMBER"),
    ("celular 21 99876-1234", "99876-1234", "PHONE_NUMBER"),
    # a number told in words, as a voice agent's transcript writes it
    ("you can call me on oh two oh, seven nine four six, double one eight four", "seven nine four six",
     "PHONE_NUMBER"),
    # a shouted name whose surname no list holds, alone on its line
    ("FROM THE DESK OF\nCHIAMAKA EZEONWUKA", "EZEONWUKA", "PERSON"),
]

KEPT = [
    "See RFC 2616 for the header rules.",
    "The password is incorrect; reset it in Okta.",
    "Your PIN is required at login.",
    "GL account 6110-200 covers overtime; cost account 6115-200 shift differentials.",
    "We account for 40 hours and 2,000 employees.",
    "The employee 2026 bonus pool is ready.",
    "Since 2019, national ID card rules changed.",
    "Request id 884213 was closed.",
    "The license expires in 2027.",
    "Please pan the camera to the 2024 footage.",
    "The username field is required; each user has 3 sessions.",
    "Zip the files before 5 PM.",
    "Paid on 03/12/2026 for 1/2 day; office budget 2019/2020.",
    "Call the Benefits hotline at extension 4100.",
    "We work nine to five, five days a week; one or two of us on call.",
    "usage: prompt_token_count=1234 max_tokens=2048 input_tokens: 512 REDIS_HOST=cache",
]


@pytest.mark.parametrize(("text", "value", "entity"), GONE)
def test_a_value_after_the_name_of_its_kind_goes(engine: ScrubEngine, text: str, value: str,
                                                 entity: str) -> None:
    out = _scrub(engine, text)
    assert value not in out and f"<{entity}_1>" in out, out


@pytest.mark.parametrize("text", KEPT)
def test_the_same_words_without_such_a_value_stay(engine: ScrubEngine, text: str) -> None:
    assert _scrub(engine, text) == text
