"""`make demo`: the main job on the bundled fixtures, step by step, as a user would run it."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CARRYOVER_TRACE = "6ba1f49a4e0b98a257a16cb62edefd94"  # the hero turn in the bundled ADK 2 export
OUT = "out/demo"

STEPS: list[tuple[str, list[str]]] = [
    ("List the traces of a real google-adk export (text is scrubbed)",
     ["traces", "fixtures/traces/adk2.otlp.jsonl"]),
    ("Batch-scrub a compressed export, keeping its format",
     ["scrub", "fixtures/traces/adk2.otlp.jsonl.gz", "-o", f"{OUT}/adk2.scrubbed.jsonl.gz",
      "--report", f"{OUT}/scrub-report.json", "--force"]),  # the demo replaces its own output
    ("Draft a golden case from the PTO carryover turn",
     ["draft", "fixtures/traces/adk2.otlp.jsonl", "--trace", CARRYOVER_TRACE, "--by", "hermione.g",
      "--cases-dir", f"{OUT}/cases", "-o", f"{OUT}/cases"]),
    ("Validate the seed cases and the new draft",
     ["validate", "fixtures/cases/golden", f"{OUT}/cases"]),
]


def main() -> int:
    (ROOT / OUT / "cases").mkdir(parents=True, exist_ok=True)
    for title, args in STEPS:
        print(f"\n== {title}\n$ promote {shlex.join(args)}", flush=True)
        result = subprocess.run([sys.executable, "-m", "promote.cli", *args], cwd=ROOT)
        if result.returncode != 0:
            print(f"demo step failed with exit code {result.returncode}", file=sys.stderr)
            return result.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
