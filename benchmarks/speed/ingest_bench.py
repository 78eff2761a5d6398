"""Ingest speed and memory on a large OTLP JSON-lines export (a benchmark, not a test).

Generates an export of about --size-mb MB under benchmarks/data/ by replicating the fixture lines
with fresh trace/span ids, then, each in its own subprocess on the same file, measures spans/s and
peak RSS of:
  floor       a plain json.loads of every line
  iter_spans  promote.ingest.iter_spans (sniff, decode, convert every span)
  cli         `promote traces --json --no-scrub` (when the CLI can read traces)
Memory is measured again on a quarter-size file: listing must not grow with the file. Times are CPU
seconds (the machine is shared, so wall time says more about the neighbours than about the code).

    .venv/bin/python benchmarks/speed/ingest_bench.py --size-mb 200
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "traces"
DATA = ROOT / "benchmarks" / "data"
SOURCES = ("adk2.otlp.jsonl", "adk1.otlp.jsonl", "openinference.otlp.jsonl")
_ID = re.compile(rb'"(traceId|spanId|parentSpanId)":"([0-9a-f]+)"')
_SPAN = re.compile(rb'"spanId":')

FLOOR = """
import json, sys, time
start = time.process_time()
spans = 0
with open(sys.argv[1], "rb") as lines:
    for line in lines:
        doc = json.loads(line)
        spans += sum(len(s["spans"]) for r in doc["resourceSpans"] for s in r["scopeSpans"])
print(spans, time.process_time() - start)
"""

ITER_SPANS = """
import sys, time
from promote.ingest import iter_spans
start = time.process_time()
spans = sum(1 for _ in iter_spans([sys.argv[1]]))
print(spans, time.process_time() - start)
"""


def generate(path: Path, size_mb: int) -> int:
    """Write the export (reused when present with the right size); returns its span count."""
    lines = [line for name in SOURCES if (FIXTURES / name).exists()
             for line in (FIXTURES / name).read_bytes().splitlines() if line.strip()]
    if not lines:
        sys.exit("no fixture exports in fixtures/traces/: run fixtures/generate_traces.py first")
    spans_per_copy = sum(len(_SPAN.findall(line)) for line in lines)
    copy_bytes = sum(len(line) + 1 for line in lines)
    copies = max(1, size_mb * 1_000_000 // copy_bytes)
    if path.exists() and path.stat().st_size == copies * copy_bytes:
        return copies * spans_per_copy
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        for copy in range(copies):
            # ids stay unique per copy: the copy number replaces the first hex digits of every id
            stamp = f"{copy:08x}".encode()

            def fresh(match: re.Match[bytes]) -> bytes:
                key, old = match.group(1), match.group(2)
                return b'"%s":"%s%s"' % (key, stamp, old[len(stamp) :])

            out.write(b"".join(_ID.sub(fresh, line) + b"\n" for line in lines))
    return copies * spans_per_copy


def measure(argv: list[str], keep_output: bool = True) -> tuple[float, int, str]:
    """(CPU seconds, peak RSS in MB, stdout) of one child process.

    Large output goes to /dev/null: held here it would grow this process, and a child's peak RSS
    starts from its parent's size at fork.
    """
    child = subprocess.Popen(argv, stdout=subprocess.PIPE if keep_output else subprocess.DEVNULL,
                             stderr=subprocess.PIPE, cwd=ROOT)
    stdout = child.stdout.read() if child.stdout else b""  # type: ignore[union-attr]
    stderr = child.stderr.read() if child.stderr else b""  # type: ignore[union-attr]
    _, status, usage = os.wait4(child.pid, 0)  # per-child rusage: RUSAGE_CHILDREN would mix the runs
    seconds = usage.ru_utime + usage.ru_stime
    if status != 0:
        raise SystemExit(f"{argv[:3]} failed: {stderr.decode()[-2000:]}")
    return seconds, usage.ru_maxrss // 1024, stdout.decode()


def cli_available() -> bool:
    probe = subprocess.run([sys.executable, "-m", "promote.cli", "traces", "--help"], capture_output=True,
                           cwd=ROOT)
    return probe.returncode == 0


def run(path: Path, spans: int, with_cli: bool, repeat: int) -> list[tuple[str, int, float, int]]:
    """Best time and highest peak RSS of `repeat` runs each (the machine is shared: best is least noisy)."""
    rows = []
    for label, code in (("floor: json.loads per line", FLOOR), ("iter_spans", ITER_SPANS)):
        times, peaks = [], []
        for _ in range(repeat):
            _, rss, out = measure([sys.executable, "-c", code, str(path)])
            counted, seconds = out.split()
            assert int(counted) == spans, f"{label} counted {counted} spans, expected {spans}"
            times.append(float(seconds))
            peaks.append(rss)
        rows.append((label, spans, min(times), max(peaks)))
    if with_cli:
        runs = [
            measure(
                [sys.executable, "-m", "promote.cli", "traces", "--json", "--no-scrub", str(path)],
                keep_output=False,
            )
            for _ in range(repeat)
        ]
        rows.append(("promote traces --json --no-scrub (whole process)", spans, min(r[0] for r in runs),
                     max(r[1] for r in runs)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size-mb", type=int, default=200, help="size of the large export (default 200)")
    parser.add_argument("--no-cli", action="store_true", help="skip `promote traces` even when it exists")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each measurement; the best time is reported")
    args = parser.parse_args()
    with_cli = not args.no_cli and cli_available()
    print(f"{'file':>10}  {'run':<42} {'spans':>9} {'CPU s':>8} {'spans/s':>10} {'peak RSS MB':>11}")
    for size in (args.size_mb, max(1, args.size_mb // 4)):
        path = DATA / f"ingest-{size}mb.otlp.jsonl"
        spans = generate(path, size)
        for label, count, seconds, rss in run(path, spans, with_cli, args.repeat):
            print(f"{size:>8}MB  {label:<42} {count:>9} {seconds:>8.2f} {count / seconds:>10.0f} {rss:>11}")


if __name__ == "__main__":
    main()
