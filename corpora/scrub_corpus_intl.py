"""The generic international set: support chats, banking, travel and IT tickets written by and about
people of 27 Faker locales, with every planted personal value and every value that must stay labelled.

    .venv/bin/python -m benchmarks.accuracy.scrub_accuracy --set intl [--phrasing heldout] [--seed N]

Main and held-out phrasing share the value generators but not one template: the held-out family is
written as e-mails, CRM notes and form dumps instead of chat. Tune on main with the default seed only.
"""

from __future__ import annotations

import random

from corpora import scrub_corpus_faker as fk
from corpora.scrub_corpus import LabelledTrace, assemble_trace
from corpora.scrub_corpus_text import Seg, fmt, join, keep, pii, render_json, render_text

DEFAULT_SEED = 20261201
PII_TYPES = ("PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "IBAN_CODE", "STREET_ADDRESS",
             "IP_ADDRESS")
KEEP_CATEGORIES = ("CITY", "COUNTRY", "AIRPORT", "MONEY", "DATE", "REFERENCE", "PRODUCT", "FIGURE", "LABEL",
                   "FLIGHT")
PHRASINGS = ("main", "heldout")

# Keep values: main and held-out draw from different lists (no allow list can simply hold the answers).
_CITIES = {"main": ("London", "Paris", "Berlin", "Madrid", "Rome", "Helsinki", "Budapest", "Warsaw", "Lisbon",
                    "Tokyo", "Seoul", "Mumbai", "São Paulo", "Istanbul", "Prague", "Vienna", "Athens"),
           "heldout": ("Zürich", "Kraków", "Reykjavík", "Osaka", "Hanoi", "Cairo", "Toronto", "Sydney",
                       "Marseille", "Gothenburg", "Tallinn", "Bucharest", "Porto", "Seville", "Munich")}
_COUNTRIES = {"main": ("Finland", "Hungary", "Germany", "France", "Italy", "Spain", "Poland", "Brazil",
                       "Japan"),
              "heldout": ("Sweden", "Denmark", "Czechia", "Vietnam", "Romania", "Greece", "Portugal",
                          "Turkey")}
_AIRPORTS = {"main": ("JFK", "LHR", "CDG", "FRA", "HEL", "BUD", "WAW", "LIS", "NRT", "ICN"),
             "heldout": ("AMS", "MAD", "FCO", "ARN", "CPH", "PRG", "ATH", "IST", "BOM", "GRU")}
_PRODUCTS = {"main": ("Microsoft Teams", "Outlook", "Zoom", "MacBook Pro", "iPhone 15", "Slack", "VPN client",
                      "Chrome", "Excel", "Visa Platinum"),
             "heldout": ("Google Meet", "Thunderbird", "Webex", "ThinkPad X1", "Pixel 8", "Jira", "Firefox",
                         "SharePoint", "Mastercard Gold", "Dropbox")}


def _money(rng: random.Random) -> str:
    amount = rng.randrange(100, 500_000) / 100
    return rng.choice((f"€{amount:,.2f}", f"£{amount:,.2f}", f"{amount:,.2f} EUR", f"${amount:,.2f}",
                       f"{amount:.2f} zł".replace(".", ","), f"¥{int(amount * 100):,}"))


def _cast(rng: random.Random, phrasing: str) -> dict[str, Seg | str]:
    locale = rng.choice(fk.LOCALES)
    person, other, agent = (
        fk.Person(rng, locale), fk.Person(rng, rng.choice(fk.LOCALES)), fk.Person(rng, locale)
    )
    street, town = fk.address_lines(rng, locale)
    year, month, day = 2026, rng.randrange(1, 13), rng.randrange(1, 29)
    return {
        "locale": locale, "full": pii(person.full, "PERSON"), "first": pii(person.first, "PERSON"),
        "lower": pii(fk.lower_case_name(person), "PERSON"), "other": pii(other.full, "PERSON"),
        "other_last": pii(other.last, "PERSON"), "agent": pii(agent.first, "PERSON"),
        "email": pii(fk.email(rng, locale), "EMAIL_ADDRESS"),
        "phone": pii(fk.phone(rng, locale), "PHONE_NUMBER"),
        "street": pii(street, "STREET_ADDRESS"), "town": pii(town, "STREET_ADDRESS"),
        "card": pii(fk.card(rng, locale), "CREDIT_CARD"),
        "short_card": pii(fk.short_card(rng), "CREDIT_CARD"),
        "iban": pii(fk.iban(rng, locale), "IBAN_CODE"), "ip": pii(fk.ipv4(rng), "IP_ADDRESS"),
        "city": keep(rng.choice(_CITIES[phrasing]), "CITY"),
        "city2": keep(rng.choice(_CITIES[phrasing]), "CITY"),
        "country": keep(rng.choice(_COUNTRIES[phrasing]), "COUNTRY"),
        "airport": keep(rng.choice(_AIRPORTS[phrasing]), "AIRPORT"),
        "airport2": keep(rng.choice(_AIRPORTS[phrasing]), "AIRPORT"),
        "money": keep(_money(rng), "MONEY"), "date": keep(f"{year}-{month:02d}-{day:02d}", "DATE"),
        "ref": keep(rng.choice(("ORD-", "BK-", "TCK-", "REF-")) + str(rng.randrange(100_000, 999_999)),
                    "REFERENCE"),
        "pnr": keep("".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6)), "REFERENCE"),
        "product": keep(rng.choice(_PRODUCTS[phrasing]), "PRODUCT"),
        "figure": keep(rng.choice(("2 bags", "23 kg", "3 nights", "450 GB", "4 items", "12 months",
                                   "1 seat")), "FIGURE"),
        "flight": keep(rng.choice(("LH", "AY", "BA", "AF", "LO", "TP", "JL", "KE"))
                       + f" {rng.randrange(100, 9999)}", "FLIGHT"),
    }


# domain -> phrasing -> (user message templates, reply templates)
TEMPLATES: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "support": {
        "main": ((("Hi, I'm {full}. My {product} stopped syncing since {date}. "
                   "Reach me at {phone} or {email}."),
                  "hello this is {lower}, order {ref} never arrived at {street}, {town}",
                  "{full} here. My colleague {other} has the same issue with {product}. Thanks, {first}"),
                 ("Thanks, {first}. I reopened {ref} and {agent} from our {city} team will call {phone}.",
                  "{first}, your replacement {product} ships to {street}, {town} within {figure}.")),
        "heldout": ((("Dear support,\nmy {product} has failed again (ticket {ref}).\nKind "
                      "regards\n{full}\n{phone}"),
                     "Customer: {full} | Email: {email} | Issue: {product} | Since: {date}",
                     ("Note from call with {full}: wants refund of {money}; "
                      "mentioned {other} was charged too.")),
                    ("Dear {first},\nwe have logged {ref}. Our office in {city} will contact "
                     "you at {email}.\nBest regards,\n{agent}",
                     "Summary: {full} ({email}) reported {product}; callback number {phone}.")),
    },
    "banking": {
        "main": (("Please send {money} from my account {iban} to {other} before {date}.",
                  "I lost my card {card}, can you block it? I'm {full}, calling from {country}.",
                  "my card number {short_card} is lost, i am {lower}"),
                 ("Done, {first}: {money} left {iban} today; reference {ref}.",
                  ("The card ending in your number {card} is blocked, {first}. A new one goes to "
                   "{street}, {town}."))),
        "heldout": ((("Transfer request\nBeneficiary: {other}\nIBAN: {iban}\nAmount: "
                      "{money}\nOrdered by: {full}"),
                     "Stolen wallet report for {full}: Visa {card}, Maestro card {short_card}.",
                     "CRM: {full} asked to update the postal address to {street}, {town} ({country})."),
                    ("Dear {first},\nthe transfer of {money} to {other} ({iban}) is scheduled for {date}.",
                     "Case {ref}: card {card} cancelled for {full}; confirmation sent to {email}.")),
    },
    "travel": {
        "main": ((("Book me on {flight} from {airport} to {airport2} on {date}, {figure}. Name: "
                   "{full}, phone {phone}"),
                  "hi, i'm {lower}, can you move my hotel in {city} to {date}? booking {pnr}",
                  "I'm travelling with {other} to {city}, {country}. Pay with card {card}."),
                 (("All set, {first}! {flight} {airport} to {airport2} on {date}, booking "
                   "{pnr}, total {money}."),
                  "{first}, your hotel in {city} is confirmed for {figure}; the invoice goes to {email}.")),
        "heldout": (("Passenger manifest\n1. {full}\n2. {other}\nRoute: {airport}-{airport2} ({flight})",
                     ("Subject: trip to {city2}\n\n"
                      "Please rebook {pnr} for {full}; the card on file is {card}."),
                     "Traveller profile: {full}, {email}, {phone}, home: {street}, {town}"),
                    ("Dear {first}, booking {pnr} from {city} to {city2} costs {money} for {figure}.",
                     "Itinerary for {full}: {flight} departs {airport} on {date}. Questions: {agent}.")),
    },
    "it_ticket": {
        "main": (("Laptop of {full} can't reach the {product} from {ip}; user email {email}.",
                  "{first} here, the {product} asks for a new password every day since {date}",
                  "Please give {other} access to the {city} share, approved by {full}."),
                 ("Hi {first}, I reset your {product} profile; ticket {ref}. Ping {agent} if it recurs.",
                  "{first}, access for {other} is granted until {date} ({figure}).")),
        "heldout": ((("Incident {ref}\nReporter: {full}\nContact: {phone}\n"
                      "Source IP: {ip}\nService: {product}"),
                     "Onboarding: new hire {full} starts {date} in {city}; manager {other}; needs {product}.",
                     "Escalation from {agent}: {full} ({email}) locked out after login from {ip}."),
                    ("Resolved {ref} for {full}: {product} reinstalled, {figure} of storage freed.",
                     "Dear {first},\nyour account is ready. Your manager {other} has been informed.")),
    },
}


def _tool_args(s: dict, domain: str) -> dict:
    return {"customer": {"name": s["full"], "email": s["email"], "phone": s["phone"]},
            "reference": s["ref"], "domain": domain, "date": s["date"]}


def _tool_result(rng: random.Random, s: dict) -> dict:
    record = {"status": "ok", "name": s["full"], "city": s["city"], "country": s["country"],
              "address": {"street": s["street"], "postal_town": s["town"]}, "amount": s["money"],
              "product": s["product"]}
    if rng.random() < 0.5:
        record["payment"] = {"iban": s["iban"], "card_number": s["card"]}
    if rng.random() < 0.5:
        record["contacts"] = [{"name": s["other"], "role": "co-traveller"}]
    return record


def _labels(s: dict) -> dict:
    """A form dump: field labels to keep, values to remove."""
    labels = {f"l_{word.lower()}": keep(word, "LABEL")
              for word in ("Name", "Email", "Phone", "City", "Address")}
    return fmt("{l_name}: {full}\n{l_email}: {email}\n{l_phone}: {phone}\n{l_city}: {city}\n"
               "{l_address}: {street}\n", {**s, **labels})


def generate_trace(seed: int, index: int, phrasing: str = "main") -> LabelledTrace:
    rng = random.Random(seed * 1_000_003 + index)
    domain = sorted(TEMPLATES)[index % len(TEMPLATES)]
    s = _cast(rng, phrasing)
    users, replies = TEMPLATES[domain][phrasing]
    compact = rng.random() < 0.5
    user = fmt(rng.choice(users), s)
    reply = fmt(rng.choice(replies), s)
    form = _labels(s)
    items = [
        ("user_message", "gen_ai.input.messages", "json",
         render_json([{"role": "user", "parts": [{"type": "text", "content": user}]}], compact=compact)),
        ("tool_args", "gen_ai.tool.call.arguments", "json",
         render_json(_tool_args(s, domain), compact=compact)),
        ("tool_result", "gen_ai.tool.call.result", "json",
         render_json(_tool_result(rng, s), compact=compact)),
        ("tool_output", "output.value", "text",
         render_text(join(form, fmt("Label check: {product}", s), sep=""))),
        ("model_reply", "gen_ai.output.messages", "json",
         render_json([{"role": "assistant", "parts": [{"type": "text", "content": reply}]}],
                     compact=compact)),
    ]
    return assemble_trace(f"i{index:04d}", f"{domain}/{s['locale']}", items)


def generate_corpus(
    n_traces: int = 300, seed: int = DEFAULT_SEED, phrasing: str = "main"
) -> list[LabelledTrace]:
    return [generate_trace(seed, i, phrasing) for i in range(n_traces)]
