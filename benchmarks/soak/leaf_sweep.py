"""A planted value at every distinct string path of every bundled export, through `promote scrub`
(a soak, not a test: about 2 minutes on 2 cores).

For each export (every producer's under `fixtures/traces/producers/`, and ADK's Tempo, OTLP JSON and
Jaeger exports), each distinct key path of a string (list indices folded) in its first documents gets
(and in the protobuf and console exports, every string and bytes field of every message present, set or
not: `corpora/planting_records`),
one at a time, a sentence with a made-up person's name, that person's e-mail in a sentence, their SSN in
base64 and their phone as a fake placeholder. All planted copies are scrubbed in one run; a leak is the
value, or its carrier, left in the output in any form (`corpora/planting.leaked`).
`tests/hostile/test_hostile_every_leaf.py` runs the Langfuse and kagent part of this in `make test`,
`tests/hostile/test_hostile_every_field.py` the protobuf and console part (with two of the carriers).

`--objects` adds, to each distinct JSON object of the JSON exports (OTLP JSON lines of ADK 1.x and
OpenInference too), a member whose key is one of the planted values (every kind and script of
`corpora/planting`) or whose value is a planted number under a personal key (about 6 minutes more);
`tests/hostile/test_hostile_every_object.py` runs two of those members in `make test`.

    .venv/bin/python -m benchmarks.soak.leaf_sweep [--objects]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from corpora.planting import (DIGITS, DISGUISES, MORE_VALUES, PERSONAL_PART, VALUES, leaked,
                              output_text, plant_every_object_path, plant_every_string_path)
from corpora.planting_records import plant_every_record_field
from promote.batch.run import ScrubOptions, scrub_exports

TRACES = Path(__file__).resolve().parents[2] / "fixtures" / "traces"

CARRIERS = {
    "name": f"Ticket opened by {VALUES['name']} today",
    "email": f"mail {VALUES['email']} now",
    "ssn": DISGUISES["base64"](VALUES["ssn"]),
    "phone": DISGUISES["fake placeholder"](VALUES["phone"]),
}
DOCUMENTS = 3
"""Documents of a JSON-lines export planted into (the rest are copied)."""


def exports() -> list[Path]:
    producers = sorted(p for p in (TRACES / "producers").glob("*.json") if p.name != "expected.json")
    return [*producers, TRACES / "adk2.tempo.json", TRACES / "adk2.otlp.json", TRACES / "adk2.jaeger.json"]


RECORD_EXPORTS = [TRACES / "adk2.otlp.pb", TRACES / "adk2-default.otlp.pb", TRACES / "adk2.console.log",
                  TRACES / "adk2-nocontent.console.log"]
"""Exports that are not one JSON document: planted field by field (`plant_every_record_field`)."""


OBJECT_EXPORTS = [TRACES / name for name in ("adk2.otlp.jsonl", "adk1.otlp.jsonl", "openinference.otlp.jsonl",
                                             "adk2-nocontent.otlp.jsonl")]
"""JSON-lines exports planted into with `--objects`, beside `exports()`."""
NUMBER_KEYS = {"phone": "phone_number", "ssn": "social_security_number", "card": "card_number"}


def object_members() -> tuple[dict[str, tuple[str, object]], dict[str, tuple[str, str]]]:
    """(members by kind, (value kind, what must go) by kind): every planted value as a key, each planted
    number under a personal key, and as a string under its own kind's key."""
    members: dict[str, tuple[str, object]] = {}
    looked_for: dict[str, tuple[str, str]] = {}
    for kind, value in {**VALUES, **MORE_VALUES}.items():
        members[f"{kind} as a key"] = (value, 1)
        looked_for[f"{kind} as a key"] = (kind, PERSONAL_PART.get(kind, value))
    for kind, number in DIGITS.items():
        members[f"{kind} as a number"] = (NUMBER_KEYS[kind], number)
        members[f"{kind} as a string"] = (kind, str(number))
        looked_for[f"{kind} as a number"] = looked_for[f"{kind} as a string"] = (kind, VALUES[kind])
    return members, looked_for


def _leaks(planted: dict[tuple, Path], looked_for: dict[str, tuple[str, str, str]], out: Path) -> list[tuple]:
    """The plantings whose value (or carrier) is left, all scrubbed in one run into `out`."""
    out.mkdir()
    scrub_exports([str(path) for path in planted.values()], str(out), ScrubOptions())
    leaks = []
    for (name, shape, kind), path in planted.items():
        value_kind, value, carrier = looked_for[kind]
        if leaked(output_text(out / path.name), {value_kind: value}, (carrier,) if carrier else ()):
            leaks.append((name, "/".join(map(str, shape)), kind))
    return leaks


def main(argv: list[str] | None = None) -> int:
    objects = "--objects" in (sys.argv[1:] if argv is None else argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary, "in")
        folder.mkdir()
        planted = plant_every_string_path(exports(), CARRIERS, folder, DOCUMENTS)
        # (file names stay apart: each starts with its number, then its source's name)
        planted |= plant_every_record_field(RECORD_EXPORTS, CARRIERS, folder, DOCUMENTS)
        leaks = _leaks(planted, {kind: (kind, VALUES[kind], CARRIERS[kind]) for kind in CARRIERS},
                       Path(temporary, "out"))
        if objects:
            members, wanted = object_members()
            (folder / "objects").mkdir()
            more = plant_every_object_path([*exports(), *OBJECT_EXPORTS], members, folder / "objects", 2)
            leaks += _leaks(more, {kind: (*wanted[kind], "") for kind in members}, Path(temporary, "objects"))
            planted |= {(name, shape, kind, "object"): path for (name, shape, kind), path in more.items()}
    sources = len(exports()) + len(RECORD_EXPORTS) + (len(OBJECT_EXPORTS) if objects else 0)
    print(f"{len(planted)} plantings in {sources} exports, {len(leaks)} leaking, "
          f"{time.perf_counter() - started:.0f} s")
    for leak in leaks[:40]:
        print("  ", leak)
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
