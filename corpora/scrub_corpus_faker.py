"""Personal values of many countries from Faker (pinned in the `dev` extra), for the international and
agent corpora. Every value depends only on the rng it is given (Faker is re-seeded from it per trace).
"""

from __future__ import annotations

import random
from functools import lru_cache

from faker import Faker

# 27 locales: Latin with diacritics, Cyrillic, Greek, Arabic, Devanagari, Han, Hangul, kana, Vietnamese.
LOCALES = ("fi_FI", "hu_HU", "de_DE", "fr_FR", "it_IT", "es_ES", "nl_NL", "pl_PL", "pt_BR", "sv_SE", "da_DK",
           "cs_CZ", "vi_VN", "zh_CN", "ru_RU", "hi_IN", "en_GB", "ja_JP", "ko_KR", "tr_TR", "ro_RO", "en_IN",
           "uk_UA", "el_GR", "ar_AA", "en_US", "et_EE")
_FAMILY_FIRST = {"hu_HU", "zh_CN", "ja_JP", "ko_KR", "vi_VN"}
_NO_SPACE = {"zh_CN", "ko_KR"}
_VI_TITLES = ("Bà ", "Ông ", "Anh ", "Chị ", "Em ", "Cô ", "Quý ông ", "Quý bà ")


@lru_cache(maxsize=None)
def _faker(locale: str) -> Faker:
    return Faker(locale)


class Person:
    """A person of one locale: first name, family name, the full name as that locale writes it."""

    def __init__(self, rng: random.Random, locale: str):
        f = _faker(locale)
        f.seed_instance(rng.randrange(2**32))
        self.locale = locale
        if locale == "vi_VN":
            full = f.name()
            for title in _VI_TITLES:
                full = full.removeprefix(title)
            parts = full.split()
            self.last, self.first, self.full = parts[0], parts[-1], full
            return
        self.first, self.last = f.first_name(), f.last_name()
        if rng.random() < 0.15 and locale not in _FAMILY_FIRST:
            self.last = f"{self.last}-{f.last_name()}" if rng.random() < 0.5 else self.last
        sep = "" if locale in _NO_SPACE else " "
        self.full = (
            f"{self.last}{sep}{self.first}" if locale in _FAMILY_FIRST else f"{self.first}{sep}{self.last}"
        )


def email(rng: random.Random, locale: str) -> str:
    f = _faker(locale)
    f.seed_instance(rng.randrange(2**32))
    return f.email()


def phone(rng: random.Random, locale: str) -> str:
    f = _faker(locale)
    f.seed_instance(rng.randrange(2**32))
    number = f.phone_number()
    return number.split("x")[0].strip()  # extensions ("x063") are not part of the number


def address_lines(rng: random.Random, locale: str) -> tuple[str, str]:
    """(street line, postal code and town line)."""
    f = _faker(locale)
    f.seed_instance(rng.randrange(2**32))
    street = f.street_address().replace("\n", " ").strip()
    return street, f"{f.postcode()} {f.city()}"


def card(rng: random.Random, locale: str) -> str:
    f = _faker(locale)
    f.seed_instance(rng.randrange(2**32))
    number = f.credit_card_number()
    if rng.random() < 0.3 and len(number) == 16:
        number = " ".join(number[i:i + 4] for i in range(0, 16, 4))
    return number


def short_card(rng: random.Random) -> str:
    """A 12-digit card (Maestro) written after a card word; no checksum, as some issuers print."""
    return "6" + "".join(str(rng.randrange(10)) for _ in range(11))


def iban(rng: random.Random, locale: str) -> str:
    f = _faker(locale)
    f.seed_instance(rng.randrange(2**32))
    value = f.iban()
    roll = rng.random()
    if roll < 0.3:
        return value.lower()
    if roll < 0.6:
        return " ".join(value[i:i + 4] for i in range(0, len(value), 4))
    return value


def ipv4(rng: random.Random) -> str:
    return f"{rng.randrange(11, 223)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"


def lower_case_name(person: Person) -> str:
    return person.full.lower() if person.full.lower() != person.full else person.full
