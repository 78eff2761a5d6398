"""`make demo`: the main job on the bundled fixtures, step by step, as a user would run it."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

STEPS: list[tuple[str, list[str]]] = [
    ("Validate the golden seed cases", ["validate", "fixtures/cases/golden"]),
]


def main() -> int:
    for title, args in STEPS:
        print(f"\n== {title}\n$ promote {shlex.join(args)}", flush=True)
        result = subprocess.run([sys.executable, "-m", "promote.cli", *args], cwd=ROOT)
        if result.returncode != 0:
            print(f"demo step failed with exit code {result.returncode}", file=sys.stderr)
            return result.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
