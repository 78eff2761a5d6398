"""The fast engine against its anchor, the reference path (`scrubbers/reference.py`: the policy's steps
over plain Presidio, text by text, none of the speed machinery): the same bytes, and how much faster.

    .venv/bin/python -m benchmarks.speed.scrub_reference --size-mb 10

Both run `promote scrub --workers 1` on one generated ADK-shaped export (`benchmarks/gen_exports.py`),
each in its own process (wall seconds include interpreter start and model load). Exit 1 when the two
outputs differ: every speed round is measured against what the plain path says the output must be.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.gen_exports import DEFAULT_SEED, generate

PROMOTE = str(Path(sys.executable).parent / "promote")


def _scrub(export: str, target: Path, engine: str) -> float:
    started = time.perf_counter()
    subprocess.run([PROMOTE, "scrub", export, "-o", str(target), "--workers", "1", "--force",
                    "--engine", engine], check=True, stderr=subprocess.DEVNULL)
    return round(time.perf_counter() - started, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=10)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    meta = generate(args.size_mb, args.seed)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as scratch:
        fast, reference = Path(scratch) / "fast.jsonl", Path(scratch) / "reference.jsonl"
        figures = {"size_mb": args.size_mb, "spans": meta["spans"],
                   "fast_wall_s": _scrub(meta["path"], fast, "fast"),
                   "reference_wall_s": _scrub(meta["path"], reference, "reference")}
        figures["same_bytes"] = fast.read_bytes() == reference.read_bytes()
    figures["reference_over_fast_time"] = round(figures["reference_wall_s"] / figures["fast_wall_s"], 2)
    figures["load_average_1min_before"] = round(load, 2)
    print(json.dumps(figures, indent=1))
    return 0 if figures["same_bytes"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
