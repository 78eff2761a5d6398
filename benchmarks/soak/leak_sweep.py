"""Every planted value, in every disguise, at every place of a real ADK record, through `promote traces
--json` and `promote draft` (a soak, not a test: about 1.5 minutes).

The grid is the hostile fuzz test's (`tests/hostile/test_hostile_fuzz.py`: 15 values x 8 disguises x 17
places, on two spans, each in a sentence); `make test` sweeps it through the batch scrubber, this sweeps it
through the two commands that rebuild turns. A leak is a planted value, or its disguised carrier, found
in the output in any form (`corpora/planting.leaked`).

    .venv/bin/python -m benchmarks.soak.leak_sweep [--only traces|draft]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path

from corpora.planting import DISGUISES, MORE_VALUES, PERSONAL_PART, PLACES, VALUES, leaked, spans_of
from promote import scrubbing
from promote.draft import DraftOptions, draft_from_export
from promote.draft.export import draft_text
from promote.errors import PromoteError
from promote.listing import list_traces
from promote.source import scrub_trace

TRACES = Path(__file__).resolve().parents[2] / "fixtures" / "traces"


def _traces_text(path: Path, engine, trace_id: str) -> str:
    listing = list_traces([path], scrub=lambda trace: scrub_trace(trace, engine).trace)
    return json.dumps(listing.model_dump(mode="json"), ensure_ascii=False)


def _draft_text(path: Path, engine, trace_id: str) -> str:
    try:
        return draft_text(draft_from_export(path, trace_id=trace_id, options=DraftOptions(), engine=engine))
    except PromoteError:
        return ""  # the residual gate refused the case: nothing is written


COMMANDS = {"traces": _traces_text, "draft": _draft_text}


def sweep(command: str, engine) -> tuple[int, list[tuple]]:
    """(combinations tried, the leaking ones) of one command over the whole grid."""
    lines = (TRACES / "adk2.otlp.jsonl").read_text().splitlines()
    leaks, tried = [], 0
    with tempfile.TemporaryDirectory() as folder:
        values = {**VALUES, **MORE_VALUES}
        grid = itertools.product(sorted(values), sorted(DISGUISES), sorted(PLACES), (0, 3))
        for number, (kind, disguise, place, index) in enumerate(grid):
            carrier = DISGUISES[disguise](values[kind])
            doc = json.loads(lines[0])
            spans = spans_of(doc)
            span = spans[index % len(spans)]
            PLACES[place](doc, span, f"Ticket opened by {carrier} today")
            path = Path(folder, f"planted{number}.otlp.jsonl")
            path.write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n")
            personal = {kind: PERSONAL_PART.get(kind, values[kind])}
            found = leaked(COMMANDS[command](path, engine, span["traceId"]), personal, (carrier,))
            tried += 1
            if found:
                leaks.append((kind, disguise, place, index, found))
    return tried, leaks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(COMMANDS))
    args = parser.parse_args(argv)
    engine = scrubbing.engine()
    total = 0
    for command in [args.only] if args.only else list(COMMANDS):
        started = time.perf_counter()
        tried, leaks = sweep(command, engine)
        total += len(leaks)
        print(f"{command}: {tried} combinations, {len(leaks)} leaking, {time.perf_counter() - started:.0f} s")
        for leak in leaks[:40]:
            print("  ", leak)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
