"""The speed goal of issues 11 and 12, measured so that a shared machine's drift does not decide it.

`promote scrub --workers 1` (b) against the NER floor (d) of `benchmarks/speed/scrub_bench` (the same two
children), run alternately `--repeat` times on the same generated export. This host's speed drifts by
10-20 % over minutes (one `scrub_bench` run gave 1.76x, the next 1.97x), and `scrub_bench` runs (b), (c)
and (d) one after the other, so a slow spell during one of them moves the ratio. Here each (b) runs next
to a (d): the table gives every pair's ratio, and the ratio of the fastest (b) to the fastest (d).

    .venv/bin/python -m benchmarks.speed.scrub_ratio --size-mb 100 --repeat 3 \
        --json benchmarks/out/scrub_ratio.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from benchmarks.gen_exports import DEFAULT_SEED, generate
from benchmarks.speed.scrub_bench import OUT, PYTHON, measure

GOAL = 1.5


def pair(path: str, label: str) -> tuple[float, float, float, float]:
    """Wall s of (b), of (d), CPU s of (b), of (d), run one after the other."""
    target = OUT / f"scrub_ratio.{label}.otlp.jsonl"
    scrub = measure([str(Path(PYTHON).parent / "promote"), "scrub", path, "-o", str(target), "--workers", "1",
                     "--force"], f"ratio.{label}.scrub1")
    target.unlink(missing_ok=True)
    floor = measure([PYTHON, "-m", "benchmarks.speed.scrub_bench", "--child", "floor", path],
                    f"ratio.{label}.floor")
    return scrub["wall_seconds"], floor["wall_seconds"], scrub["cpu_seconds"], floor["cpu_seconds"]


def export_arguments(description: str, repeat: int) -> argparse.ArgumentParser:
    """The arguments of a benchmark that alternates children on one generated export (here and
    `scrub_bound`): its size and seed, the rounds, and a JSON file for the figures."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--size-mb", type=int, default=100)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--repeat", type=int, default=repeat)
    parser.add_argument("--json", help="also write the figures to this file")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = export_arguments(__doc__.splitlines()[0], repeat=3).parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    meta = generate(args.size_mb, args.seed)
    pairs = [pair(meta["path"], f"{args.size_mb}mb.{n}") for n in range(args.repeat)]
    ratios = [scrub / floor for scrub, floor, _, _ in pairs]
    cpu_ratios = [scrub / floor for _, _, scrub, floor in pairs]
    fastest = min(p[0] for p in pairs) / min(p[1] for p in pairs)
    print(f"{args.size_mb} MB, {meta['spans']} spans, load average {os.getloadavg()[0]:.1f}:")
    print("| run | (b) scrub --workers 1: wall / CPU s | (d) floor: wall / CPU s | (b)/(d) wall "
          "| (b)/(d) CPU |")
    print("|---|---|---|---|---|")
    for number, (times, ratio, cpu) in enumerate(zip(pairs, ratios, cpu_ratios), 1):
        scrub, floor, scrub_cpu, floor_cpu = times
        print(f"| {number} | {scrub:.2f} / {scrub_cpu:.2f} | {floor:.2f} / {floor_cpu:.2f} "
              f"| {ratio:.2f}× | {cpu:.2f}× |")
    print(f"fastest (b) / fastest (d): {fastest:.2f}×; median pair {statistics.median(ratios):.2f}× wall, "
          f"{statistics.median(cpu_ratios):.2f}× CPU (goal: at most {GOAL}×)")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "size_mb": args.size_mb, "spans": meta["spans"], "pairs": pairs, "ratios": ratios,
            "cpu_ratios": cpu_ratios, "fastest_ratio": fastest, "median_ratio": statistics.median(ratios),
            "goal": GOAL}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
