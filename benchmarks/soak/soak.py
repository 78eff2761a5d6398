"""Soak: random broken inputs and random kills through `promote`, for as long as the time budget allows.

Not a test (it runs for minutes or hours): `.venv/bin/python -m benchmarks.soak.soak --minutes 10`. Each round
takes a fixture export, damages it at random (cut, flipped bytes, a bad line, deep nesting, a wrong JSON
type, random bytes, recompression), runs `traces`, `scrub` or `draft` on it, and sometimes kills the run
(SIGKILL or SIGTERM) at a random moment. After each round it checks what a user would:

- files lost: an output that existed before the round is gone or changed, although the run did not finish;
- half files: an output that is not what an uninterrupted run writes, or a temp file left behind after
  the next run of the same target;
- tracebacks and exit 3: anything a user can cause must end in exit 0 / 1 / 2 and one line.

It prints the counts as JSON (and writes them with `--json FILE`).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zstandard

ROOT = Path(__file__).resolve().parents[2]
TRACES = ROOT / "fixtures" / "traces"
SOURCES = ["adk2.otlp.jsonl", "adk1.otlp.jsonl", "adk2.otlp.pb", "adk2.jaeger.json", "adk2.otlp.jsonl.gz",
           "openinference.otlp.jsonl", "adk2.tempo.json", "adk2.console.log"]
TRACE_ID = "6ba1f49a4e0b98a257a16cb62edefd94"


def damage(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One random defect (or none) applied to an export's bytes."""
    kind = rng.choice(["none", "cut", "flip", "bad-line", "deep", "wrong-type", "random", "gzip", "zstd-cut"])
    if kind == "cut":
        return kind, data[: rng.randrange(1, max(2, len(data)))]
    if kind == "flip":
        raw = bytearray(data)
        for _ in range(rng.randrange(1, 20)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return kind, bytes(raw)
    if kind == "bad-line":
        lines = data.split(b"\n")
        lines.insert(rng.randrange(len(lines) + 1), rng.choice([b"{", b"not json", b"[1,2", b"\xff\xfe"]))
        return kind, b"\n".join(lines)
    if kind == "deep":
        return kind, b'{"resourceSpans": ' + b"[" * 3000 + b"]" * 3000 + b"}\n" + data
    if kind == "wrong-type":
        return kind, data.replace(b'"spans":[', b'"spans":"x","_":[', 1).replace(
            b'"events":[', b'"events":[3,', 1
        )
    if kind == "random":
        return kind, os.urandom(rng.randrange(1, 200_000))
    if kind == "gzip":
        return kind, gzip.compress(data)
    if kind == "zstd-cut":
        packed = zstandard.ZstdCompressor().compress(data)
        return kind, packed[: rng.randrange(1, len(packed))]
    return kind, data


def command(kind: str, export: Path, out: Path) -> list[str]:
    if kind == "traces":
        return ["traces", "--json", str(export)]
    if kind == "draft":
        return ["draft", str(export), "--trace", TRACE_ID, "--by", "soak", "-o", str(out), "--force"]
    return ["scrub", str(export), "-o", str(out), "--workers", "1", *SCRUB_FORCE]


def _scrub_force() -> list[str]:
    """`--force` where `scrub` asks for it to replace an output (the soak replaces its own outputs)."""
    done = subprocess.run([sys.executable, "-m", "promote.cli", "scrub", "--help"], capture_output=True,
                          cwd=ROOT)
    return ["--force"] if b"--force" in done.stdout else []


SCRUB_FORCE: list[str] = []


def _comparable(data: bytes | None) -> bytes | None:
    """An output without what legitimately differs between two runs (a draft's promoted_at time)."""
    if data is None:
        return None
    return b"\n".join(line for line in data.split(b"\n") if not line.strip().startswith(b"promoted_at:"))


def run(args: list[str], kill_after: float | None, sig: int) -> tuple[int, bytes]:
    process = subprocess.Popen([sys.executable, "-m", "promote.cli", *args], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if kill_after is not None:
        try:
            process.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            process.send_signal(sig)
    _, err = process.communicate(timeout=600)
    return process.returncode, err


def soak(minutes: float, seed: int) -> dict:
    rng = random.Random(seed)
    SCRUB_FORCE[:] = _scrub_force()
    counts = {"rounds": 0, "inputs_tried": 0, "faults_injected": 0, "kills": 0, "files_lost": 0,
              "half_files": 0, "tracebacks": 0, "exit_3": 0, "unexpected_exit": 0, "by_damage": {},
              "examples": []}
    deadline = time.monotonic() + minutes * 60
    with tempfile.TemporaryDirectory(prefix="promote-soak-") as folder:
        work = Path(folder)
        while time.monotonic() < deadline:
            counts["rounds"] += 1
            name = rng.choice(SOURCES)
            defect, data = damage((TRACES / name).read_bytes(), rng)
            counts["by_damage"][defect] = counts["by_damage"].get(defect, 0) + 1
            counts["inputs_tried"] += 1
            counts["faults_injected"] += defect != "none"
            export = work / f"in-{counts['rounds']}{Path(name).suffix}"
            export.write_bytes(data)
            kind = rng.choice(["traces", "scrub", "draft"])
            out = work / ("out.yaml" if kind == "draft" else "out" + Path(name).suffix)
            reference_code, _ = run(command(kind, export, out), None, signal.SIGTERM)
            reference = _comparable(out.read_bytes()) if out.exists() else None
            previous = reference if reference is not None else b"previous output\n"
            out.write_bytes(previous)
            killed = rng.random() < 0.5
            sig = rng.choice([signal.SIGKILL, signal.SIGTERM])
            code, err = run(command(kind, export, out), rng.uniform(0.2, 4.0) if killed else None, sig)
            was_killed = code in (-signal.SIGKILL, 143, -signal.SIGTERM)
            counts["kills"] += was_killed
            text = err.decode("utf-8", "replace")
            counts["tracebacks"] += "Traceback" in text
            counts["exit_3"] += code == 3 or reference_code == 3
            if not was_killed and code not in (0, 1, 2):
                counts["unexpected_exit"] += 1
            if kind != "traces":
                now = _comparable(out.read_bytes()) if out.exists() else None
                if was_killed and now not in (_comparable(previous), reference):
                    counts["half_files" if now is not None else "files_lost"] += 1
                    counts["examples"].append(f"round {counts['rounds']}: {kind} {defect} "
                                              "killed: output changed")
                if not was_killed and code == 0 and now != reference:
                    counts["half_files"] += 1
                    counts["examples"].append(f"round {counts['rounds']}: {kind} {defect}: output differs")
                run(command(kind, export, out), None, signal.SIGTERM)  # the next run cleans up after a kill
                left = [p.name for p in work.glob(f".{out.name}.*") if p.suffix in (".partial", ".tmp")]
                counts["half_files"] += len(left)
                if left:
                    counts["examples"].append(f"round {counts['rounds']}: {kind} left {left}")
            export.unlink()
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="time budget")
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    parser.add_argument("--json", type=Path, help="write the counts here too")
    args = parser.parse_args()
    counts = soak(args.minutes, args.seed)
    text = json.dumps(counts, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
