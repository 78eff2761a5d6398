"""A planted value at every distinct string path of every bundled export, through `promote scrub`
(a soak, not a test: about 2 minutes on 2 cores).

For each export (every producer's under `fixtures/traces/producers/`, and ADK's Tempo, OTLP JSON and
Jaeger exports), each distinct key path of a string (list indices folded) in its first documents gets
(and in the protobuf and console exports, every string and bytes field of every message present, set or
not: `tests/hostile/planting_records`),
one at a time, a sentence with a made-up person's name, that person's e-mail in a sentence, their SSN in
base64 and their phone as a fake placeholder. All planted copies are scrubbed in one run; a leak is the
value, or its carrier, left in the output in any form (`tests/hostile/planting.leaked`).
`tests/hostile/test_hostile_every_leaf.py` runs the Langfuse and kagent part of this in `make test`,
`tests/hostile/test_hostile_every_field.py` the protobuf and console part (with two of the carriers).

    .venv/bin/python -m benchmarks.leaf_sweep
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from promote.batch.run import ScrubOptions, scrub_exports
from tests.conftest import TRACES
from tests.hostile.planting import DISGUISES, VALUES, leaked, output_text, plant_every_string_path
from tests.hostile.planting_records import plant_every_record_field

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


def main() -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as temporary:
        folder, out = Path(temporary, "in"), Path(temporary, "out")
        folder.mkdir()
        out.mkdir()
        planted = plant_every_string_path(exports(), CARRIERS, folder, DOCUMENTS)
        # (file names stay apart: each starts with its number, then its source's name)
        planted |= plant_every_record_field(RECORD_EXPORTS, CARRIERS, folder, DOCUMENTS)
        scrub_exports([str(path) for path in planted.values()], str(out), ScrubOptions())
        leaks = [(name, "/".join(map(str, shape)), kind) for (name, shape, kind), path in planted.items()
                 if leaked(output_text(out / path.name), {kind: VALUES[kind]}, (CARRIERS[kind],))]
    sources = len(exports()) + len(RECORD_EXPORTS)
    print(f"{len(planted)} plantings in {sources} exports, {len(leaks)} leaking, "
          f"{time.perf_counter() - started:.0f} s")
    for leak in leaks[:40]:
        print("  ", leak)
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
