"""Synthetic values for the scrub accuracy corpus: people, contact data, identifiers, secrets, and the
HR domain values a golden case must keep. Every generator takes the caller's seeded `random.Random`, so
the corpus is a pure function of its seed. All personal values are invented; formats follow the real
ones closely enough that a scrubber cannot pass by luck (Luhn-valid cards, ABA-valid routing numbers,
SSNs outside the never-issued ranges, assigned US area codes)."""

from __future__ import annotations

import random
import re
import string

FIRST_NAMES = (
    "Dana", "Crystal", "Maria", "Christian", "Priya", "Luis", "Aisha", "Tomasz", "Keiko", "Marcus",
    "Olivia", "Darnell", "Sofia", "Ethan", "Mei", "Rahul", "Grace", "Andre", "Fatima", "Connor",
    "Yesenia", "Jamal", "Ingrid", "Mateo", "Hannah", "Kwame", "Elena", "Trevor", "Nadia", "Brandon",
    "Rose", "Grant", "Lucia", "Dmitri", "Amara", "Wesley", "Camila", "Jonah", "Leilani", "Victor",
)
LAST_NAMES = (
    "Whitfield", "Gonzalez", "Natarajan", "Okafor", "Kowalski", "Tanaka", "Brennan", "Haddad",
    "Lindqvist", "Delgado", "Chen", "Robinson", "Patel", "Moreau", "Abernathy", "Nguyen", "Schmidt",
    "Castillo", "Oyelaran", "McAllister", "Fitzgerald", "Ramirez", "Johansson", "Adeyemi", "Sullivan",
    "Kaur", "Petrov", "Hernandez", "Yamamoto", "Blackwood", "Osei", "Vasquez", "Thornton", "Mbeki",
)
# Held-out names: never tune the engine on these. Hyphens, particles, Mc/Mac, two-letter names, names
# that are also words, "Last, First" order; no apostrophes (a repr leaf must not need escaping).
FIRST_NAMES_HELDOUT = ("Siobhan", "Anne-Marie", "Hope", "Will", "Joy", "Mark", "Summer", "Bo", "Li",
                       "Xiomara", "Oluwaseun", "Thanh", "Jean-Luc", "Ximena", "Bjorn", "Zainab", "Kai",
                       "Dakota")
LAST_NAMES_HELDOUT = ("McAllister", "MacDonald", "de la Cruz", "Van der Berg", "Nguyen-Tran", "Al-Sayed",
                      "Smith", "Young", "King", "Brown", "Ng", "Wu", "Oyelowo", "Szczepanski", "Rivera Soto")
STREET_NAMES = (
    "Evergreen Terrace", "Maple Avenue", "Oak Street", "Juniper Lane", "Harbor View Drive",
    "Cedar Ridge Road", "Willow Court", "Sycamore Boulevard", "Lakeshore Drive", "Pinecrest Way",
)
STREET_SUFFIX_UNITS = ("", "", "", " Apt 4B", " Unit 12", " Suite 310", " #7")
# (city, state code, ZIP prefix): real cities so NER-based address detection is tested fairly.
CITIES = (
    ("Springfield", "IL", "627"), ("Austin", "TX", "787"), ("Oakland", "CA", "946"),
    ("Portland", "OR", "972"), ("Albany", "NY", "122"), ("Tacoma", "WA", "984"),
    ("Denver", "CO", "802"), ("Raleigh", "NC", "276"), ("Tampa", "FL", "336"), ("Boston", "MA", "021"),
)
# Assigned US area codes, so phonenumbers' validity check (used by Presidio) cannot be the reason for a miss.
AREA_CODES = ("212", "213", "206", "303", "312", "404", "415", "510", "512", "617", "646", "702",
              "713", "773", "818", "919")
EMAIL_DOMAINS = ("acme-corp.com", "gmail.com", "outlook.com", "yahoo.com", "proton.me")

# Jurisdictions: (state code, state name, policy prefix, state-specific leave law acronym).
JURISDICTIONS = (
    ("CA", "California", "PTO-CA", "CFRA"), ("NY", "New York", "PTO-NY", "NYPFL"),
    ("WA", "Washington", "PTO-WA", "PFML"), ("TX", "Texas", "PTO-TX", "FMLA"),
    ("IL", "Illinois", "PTO-IL", "FMLA"), ("MA", "Massachusetts", "PTO-MA", "PFML"),
    ("CO", "Colorado", "PTO-CO", "FAMLI"), ("OR", "Oregon", "PTO-OR", "PLO"),
)
JOB_TITLES = ("Payroll Specialist", "Registered Nurse", "Warehouse Associate", "Software Engineer",
              "Benefits Analyst", "Store Manager", "Lexicographer", "Therapist", "Account Executive",
              "HR Business Partner", "Forklift Operator", "Data Analyst")
ACRONYMS = ("PTO", "FMLA", "HRIS", "HSA", "FSA", "COBRA", "W-4", "401(k)")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
# Tool names of the synthetic HR agent; they appear in system prompts, chat history and tool args.
TOOLS = ("get_pto_balance", "submit_leave_request", "get_employee_profile", "update_direct_deposit",
         "search_policies", "get_pay_stub", "enroll_benefits", "lookup_login_activity")


def person(rng: random.Random, *, heldout: bool = False) -> tuple[str, str]:
    """A (first, last) name pair, from the main or the held-out lists."""
    if heldout:
        return rng.choice(FIRST_NAMES_HELDOUT), rng.choice(LAST_NAMES_HELDOUT)
    return rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)


def email(rng: random.Random, first: str, last: str) -> str:
    """A work or personal email address derived from a name, as HR systems hold them."""
    local = rng.choice((f"{first}.{last}", f"{first[0]}{last}", f"{first}{rng.randint(1, 99)}",
                        f"{first}_{last}"))
    return f"{re.sub(r'[^a-z0-9._]', '', local.lower())}@{rng.choice(EMAIL_DOMAINS)}"


def phone(rng: random.Random) -> str:
    """A US phone number in one of the common written formats."""
    area, exchange, line = rng.choice(AREA_CODES), rng.randint(201, 989), rng.randint(0, 9999)
    if exchange % 100 == 11 or exchange == 555:  # N11 and 555 exchanges are not assignable
        exchange += 1
    fmt = rng.choice(("({a}) {e}-{l}", "{a}-{e}-{l}", "{a}.{e}.{l}", "+1 {a} {e} {l}", "+1-{a}-{e}-{l}"))
    return fmt.format(a=area, e=exchange, l=f"{line:04d}")


def ssn(rng: random.Random) -> str:
    """A dashed US SSN outside the never-issued ranges (000, 666, 9xx areas; 00 group; 0000 serial)."""
    area = rng.choice([n for n in range(1, 900) if n != 666])
    group, serial = rng.randint(1, 99), rng.randint(1, 9999)
    return f"{area:03d}-{group:02d}-{serial:04d}"


def _luhn_check_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:  # positions that get doubled once the check digit is appended
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def credit_card(rng: random.Random) -> str:
    """A Luhn-valid Visa, Mastercard or Amex number, grouped as people write them."""
    prefix, length = rng.choice((("4", 16), ("5" + str(rng.randint(1, 5)), 16), ("37", 15)))
    body = prefix + "".join(rng.choice(string.digits) for _ in range(length - len(prefix) - 1))
    number = body + _luhn_check_digit(body)
    sep = rng.choice((" ", "-", ""))
    groups = (4, 6, 5) if length == 15 else (4, 4, 4, 4)
    parts, pos = [], 0
    for g in groups:
        parts.append(number[pos:pos + g])
        pos += g
    return sep.join(parts)


def routing_number(rng: random.Random) -> str:
    """A 9-digit ABA routing number with a valid checksum (weights 3, 7, 1)."""
    digits = [rng.randint(0, 1)] + [rng.randint(0, 9) for _ in range(7)]
    weights = (3, 7, 1, 3, 7, 1, 3, 7)
    check = (10 - sum(d * w for d, w in zip(digits, weights)) % 10) % 10
    return "".join(map(str, digits + [check]))


def bank_account(rng: random.Random) -> str:
    """A US bank account number, 10 to 12 digits."""
    return "".join(rng.choice(string.digits) for _ in range(rng.randint(10, 12)))


def street_address(rng: random.Random) -> str:
    """A full one-line US street address."""
    city, state, zip3 = rng.choice(CITIES)
    unit = rng.choice(STREET_SUFFIX_UNITS)
    street = f"{rng.randint(12, 9876)} {rng.choice(STREET_NAMES)}{unit}"
    return f"{street}, {city}, {state} {zip3}{rng.randint(10, 99)}"


def birth_date(rng: random.Random) -> tuple[str, str]:
    """A date of birth as (ISO form for JSON, a written form for free text)."""
    year, month, day = rng.randint(1958, 2003), rng.randint(1, 12), rng.randint(1, 28)
    written = rng.choice((f"{month:02d}/{day:02d}/{year}", f"{MONTHS[month - 1]} {day}, {year}"))
    return f"{year}-{month:02d}-{day:02d}", written


def employee_id(rng: random.Random) -> str:
    """An employee id in the HRIS format `E-44213`."""
    return f"E-{rng.randint(10000, 99999)}"


def ip_address(rng: random.Random) -> str:
    """A public-looking IPv4 address (or, now and then, an IPv6 one)."""
    if rng.random() < 0.15:
        return "2001:db8:" + ":".join(f"{rng.randint(0, 65535):x}" for _ in range(6))
    return ".".join(str(n) for n in (rng.choice((24, 67, 98, 104, 172, 185)), rng.randint(0, 255),
                                      rng.randint(0, 255), rng.randint(1, 254)))


def _token(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def secret(rng: random.Random) -> tuple[str, str]:
    """A credential as (kind, value): a live API key, an AWS key id, a bearer token or a JWT."""
    alnum = string.ascii_letters + string.digits
    b64url = alnum + "-_"
    kind = rng.choice(("api_key", "aws_key", "bearer", "jwt"))
    if kind == "api_key":
        return kind, "sk-live-" + _token(rng, alnum, 32)
    if kind == "aws_key":
        return kind, "AKIA" + _token(rng, string.ascii_uppercase + string.digits, 16)
    if kind == "bearer":
        return kind, _token(rng, b64url, 40)
    header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    return kind, f"{header}.eyJ{_token(rng, b64url, 60)}.{_token(rng, b64url, 43)}"


def request_id(rng: random.Random) -> str:
    """A leave/HR request id `REQ-884213`."""
    return f"REQ-{rng.randint(100000, 999999)}"


def case_number(rng: random.Random) -> str:
    """An 8-digit HR case number."""
    return str(rng.randint(10_000_000, 99_999_999))


def hours(rng: random.Random) -> str:
    """An hours figure as written in balances (`62.5`, `4.62`, `80`)."""
    return rng.choice((f"{rng.randint(1, 240) / 2:g}", f"{rng.randint(100, 999) / 100:.2f}",
                       str(rng.randint(8, 160))))


def money(rng: random.Random) -> str:
    """A dollar amount `$2,431.18`."""
    return f"${rng.randint(40, 9999) + rng.randint(0, 99) / 100:,.2f}"


def date_of_record(rng: random.Random, year: int = 2026) -> tuple[str, str]:
    """A date of record as (ISO form, written form such as `June 29`)."""
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    return f"{year}-{month:02d}-{day:02d}", f"{MONTHS[month - 1]} {day}"


def policy_citation(rng: random.Random, prefix: str) -> str:
    """A policy section citation `PTO-CA-2026 §4.2`."""
    return f"{prefix}-{rng.choice((2025, 2026))} §{rng.randint(1, 9)}.{rng.randint(1, 9)}"
