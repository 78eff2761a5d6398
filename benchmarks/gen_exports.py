"""Large ADK-shaped OTLP JSON-lines exports for the batch-scrub benchmark (seeded, deterministic).

The real ADK fixture exports in fixtures/traces/ are the templates. Each copy of them gets fresh trace
and span ids (random hex of the right length, consistent within the copy, so parent links hold) and a
fresh cast of people: every planted personal value of `expected.json` (names, emails, phones, ids,
addresses, card/bank numbers, keys) is swapped for one drawn from small seeded lists. Real exports have
many different users, and a file that repeats one user would let the scrubber's unique-string cache do
all the work. Everything else (system prompts, tool schemas, the chat history every model call repeats)
stays byte for byte as ADK wrote it.

    # writes benchmarks/data/scrub-100mb-s7.otlp.jsonl
    .venv/bin/python -m benchmarks.gen_exports --size-mb 100
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "traces"
DATA = ROOT / "benchmarks" / "data"
SOURCES = ("adk2.otlp.jsonl", "adk1.otlp.jsonl", "openinference.otlp.jsonl")
DEFAULT_SEED = 7
GENERATOR_VERSION = 2  # bump when the output for a given (size, seed) changes, so cached files are rebuilt

FIRST_NAMES = (
    "Aisha Andre Beatriz Bogdan Camille Carlos Chioma Daniel Elena Emeka Farah Felix Gabriela Hannah "
    "Hiroshi Ines Ivan Jasmine Jonas Kavya Kenji Laila Lucas Mei Miguel Nadia Noah Olga Pedro Rania "
    "Rohan Sakura Samuel Tariq Teresa Uma Victor Wen Yusuf Zara"
).split()
LAST_NAMES = (
    "Abbott Bakshi Castillo Dubois Eriksen Fernandes Goldberg Hamid Ivanova Jankowski Kimura Lindqvist "
    "Mahlangu Novak Okafor Papadopoulos Quintero Rahman Sandoval Takahashi Ueda Vasquez Whitaker Xu "
    "Yilmaz Zielinski Moreau Brennan Achebe Nakamura"
).split()
STREETS = ("Maple Avenue", "Harbor View Road", "Linden Street", "Crescent Drive", "Old Mill Lane",
           "Juniper Court", "Riverside Boulevard", "Sycamore Way", "Prospect Place", "Willow Bend")
CITIES = (("Portland", "OR", "972"), ("Raleigh", "NC", "276"), ("Columbus", "OH", "432"),
          ("Tucson", "AZ", "857"), ("Madison", "WI", "537"), ("Boise", "ID", "837"),
          ("Richmond", "VA", "232"), ("Sacramento", "CA", "958"))
AREA_CODES = ("206", "303", "404", "503", "608", "617", "702", "720", "801", "919")
EMAIL_DOMAINS = ("acme-retail.com", "gmail.com", "outlook.com", "yahoo.com")

_ID = re.compile(rb'"(traceId|spanId|parentSpanId)":"([0-9a-f]+)"')


@dataclass
class Template:
    """One fixture export's lines cut into literal bytes and slots: ('id', old hex) or ('pii', planted
    value)."""

    parts: list[bytes | tuple[str, str]]
    spans: int
    """Spans in one copy."""
    traces: int
    """Distinct trace ids in one copy."""
    lines: int
    """Lines (OTLP requests) in one copy."""


def load_templates(sources: tuple[str, ...] = SOURCES) -> tuple[list[Template], list[dict[str, str]]]:
    """One template per fixture export, and `expected.json`'s planted PII (value and type)."""
    planted = json.loads((FIXTURES / "expected.json").read_text())["planted_pii"]
    # longest first: "Maria Gonzalez" before "Maria"
    values = sorted({p["value"] for p in planted}, key=len, reverse=True)
    slot = re.compile(_ID.pattern + b"|" + b"|".join(re.escape(v.encode()) for v in values))
    templates = [_template((FIXTURES / name).read_bytes(), slot) for name in sources
                 if (FIXTURES / name).exists()]
    if not templates:
        raise SystemExit("no fixture exports in fixtures/traces/: run fixtures/generate_traces.py first")
    return templates, planted


def _template(raw: bytes, slot: re.Pattern[bytes]) -> Template:
    text = b"".join(line.rstrip(b"\r") + b"\n" for line in raw.splitlines() if line.strip())
    parts: list[bytes | tuple[str, str]] = []
    at = 0
    trace_ids = set()
    for match in slot.finditer(text):
        if match.group(1):  # an id: keep the key, swap the hex
            parts += [text[at : match.start(2)], ("id", match.group(2).decode()), b'"']
            if match.group(1) == b"traceId":
                trace_ids.add(match.group(2))
        else:
            parts += [text[at : match.start()], ("pii", match.group(0).decode())]
        at = match.end()
    parts.append(text[at:])
    spans = len(re.findall(rb'"spanId":', text))
    return Template(parts, spans=spans, traces=len(trace_ids), lines=text.count(b"\n"))


class Cast:
    """One copy's people: every planted value mapped to a generated one of the same kind and shape."""

    def __init__(self, planted: list[dict[str, str]], rng: random.Random) -> None:
        self.rng = rng
        people = [p["value"].split() for p in planted if p["type"] == "PERSON" and " " in p["value"]]
        firsts = sorted({n[0] for n in people})
        lasts = sorted({n[-1] for n in people})
        self.first = dict(zip(firsts, rng.sample(FIRST_NAMES, len(firsts))))
        self.last = dict(zip(lasts, rng.sample(LAST_NAMES, len(lasts))))
        makers: dict[str, Callable[[str], str]] = {
            "PERSON": self.person, "EMAIL_ADDRESS": self.email, "PHONE_NUMBER": self.phone,
            "ADDRESS": self.address, "EMPLOYEE_ID": lambda v: f"E-{rng.randint(10000, 99999)}",
            "US_SSN": self.ssn, "CREDIT_CARD": self.card, "DATE_OF_BIRTH": self.birth_date,
            "US_BANK_ROUTING": self.routing, "US_BANK_NUMBER": lambda v: self.digits(len(v)),
            "API_KEY": self.api_key,
        }
        self.value = {p["value"]: makers.get(p["type"], self.same_shape)(p["value"]) for p in planted}

    def person(self, value: str) -> str:
        return " ".join(self.first.get(w) or self.last.get(w) or w for w in value.split())

    def email(self, value: str) -> str:
        local, _, domain = value.partition("@")
        for old, new in (*self.last.items(), *self.first.items()):
            local = local.replace(old.lower(), new.lower())
        local = re.sub(r"\d+", lambda m: self.digits(len(m.group())), local)
        for old, new in self.first.items():  # "jwashington88": the initial follows the first name
            if local[0] == old[0].lower() and local[1:].startswith(
                tuple(n.lower() for n in self.last.values())
            ):
                local = new[0].lower() + local[1:]
                break
        return f"{local}@{domain if domain == 'acme-retail.com' else self.rng.choice(EMAIL_DOMAINS)}"

    def phone(self, value: str) -> str:
        digits = iter(self.rng.choice(AREA_CODES) + "555" + f"01{self.rng.randint(0, 99):02d}")
        head = value[: len(value) - len(value.lstrip("+1 "))]  # "+1 " stays
        return head + re.sub(r"\d", lambda _: next(digits), value[len(head):])

    def address(self, value: str) -> str:
        city, state, zip3 = self.rng.choice(CITIES)
        apt = f", Apt {self.rng.randint(1, 30)}{self.rng.choice('ABCD')}" if "Apt" in value else ""
        street = f"{self.rng.randint(10, 9999)} {self.rng.choice(STREETS)}{apt}"
        return f"{street}, {city}, {state} {zip3}{self.digits(2)}"

    def ssn(self, value: str) -> str:
        return f"{self.rng.randint(101, 665)}-{self.rng.randint(10, 99)}-{self.rng.randint(1000, 9999)}"

    def card(self, value: str) -> str:
        body = "4" + self.digits(14)
        total = sum(d if i % 2 else sum(divmod(2 * d, 10))
                    for i, d in enumerate(int(c) for c in reversed(body)))
        number = iter(body + str(-total % 10))  # Luhn-valid, so card recognisers fire as on real numbers
        return re.sub(r"\d", lambda _: next(number), value)

    def birth_date(self, value: str) -> str:
        return f"{self.rng.randint(1, 12):02d}/{self.rng.randint(1, 28):02d}/{self.rng.randint(1955, 2003)}"

    def routing(self, value: str) -> str:
        head = self.digits(8)
        weights = (3, 7, 1, 3, 7, 1, 3, 7)
        return head + str(-sum(w * int(d) for w, d in zip(weights, head)) % 10)  # ABA checksum

    def api_key(self, value: str) -> str:
        if value.startswith("AKIA"):
            return "AKIA" + "".join(self.rng.choices(string.ascii_uppercase + "234567", k=len(value) - 4))
        prefix = value[: value.rindex("-") + 1]
        return prefix + "".join(self.rng.choices(string.ascii_letters + string.digits,
                                                 k=len(value) - len(prefix)))

    def same_shape(self, value: str) -> str:
        return re.sub(r"\d", lambda _: str(self.rng.randint(0, 9)), value)

    def digits(self, count: int) -> str:
        return "".join(self.rng.choices(string.digits, k=count))


def write_copy(template: Template, planted: list[dict[str, str]], rng: random.Random) -> bytes:
    """One copy of one template with fresh ids and a fresh cast."""
    cast = Cast(planted, rng).value
    ids: dict[str, str] = {}
    out = []
    for part in template.parts:
        if isinstance(part, bytes):
            out.append(part)
        elif part[0] == "id":
            new = ids.get(part[1])
            if new is None:
                new = ids[part[1]] = f"{rng.getrandbits(4 * len(part[1])):0{len(part[1])}x}"
            out.append(new.encode())
        else:
            out.append(cast[part[1]].encode())
    return b"".join(out)


def export_path(size_mb: int, seed: int) -> Path:
    return DATA / f"scrub-{size_mb}mb-s{seed}.otlp.jsonl"


def generate(size_mb: int, seed: int = DEFAULT_SEED, path: Path | None = None) -> dict:
    """Write (or reuse) an export of at least `size_mb` MB; returns its metadata (also in PATH.meta.json)."""
    path = path or export_path(size_mb, seed)
    meta_path = path.with_name(path.name + ".meta.json")
    templates, planted = load_templates()
    wanted = {"generator": GENERATOR_VERSION, "size_mb": size_mb, "seed": seed, "sources": list(SOURCES)}
    if path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if {k: meta.get(k) for k in wanted} == wanted and meta.get("bytes") == path.stat().st_size:
            return meta
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    written = copies = 0
    partial = path.with_name(path.name + ".part")
    with open(partial, "wb") as out:  # one copy in memory at a time
        while written < size_mb * 1_000_000:
            for template in templates:  # each fixture file's traces get their own people
                chunk = write_copy(template, planted, rng)
                out.write(chunk)
                written += len(chunk)
            copies += 1
    partial.replace(path)
    meta = {**wanted, "path": str(path), "bytes": written, "copies": copies,
            "lines": copies * sum(t.lines for t in templates),
            "spans": copies * sum(t.spans for t in templates),
            "traces": copies * sum(t.traces for t in templates),
            "spans_per_copy": sum(t.spans for t in templates)}
    meta_path.write_text(json.dumps(meta, indent=1))
    return meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, required=True, help="target size in MB (10^6 bytes)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("-o", "--output", type=Path,
                        help="default: benchmarks/data/scrub-<size>mb-s<seed>.otlp.jsonl")
    args = parser.parse_args(argv)
    meta = generate(args.size_mb, args.seed, args.output)
    print(json.dumps(meta))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
