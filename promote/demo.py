"""`make demo`: the main job on the bundled fixtures.

In a terminal it opens the terminal UI on the bundled ADK export, with a throwaway eval repo under
`out/demo/eval-repo` (git, the seed cases, an entity catalog) to promote into. Without a terminal (CI,
a pipe) it runs the same job step by step on the command line, as a user would.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CARRYOVER_TRACE = "6ba1f49a4e0b98a257a16cb62edefd94"  # the hero turn in the bundled ADK 2 export
OUT = "out/demo"
DEMO_REPO = f"{OUT}/eval-repo"
DEMO_CATALOG = """\
# Overlay handles of the sandbox records cases run against (synthetic, never production users).
entities:
  - handle: employees.carryover_edge_ca
    resolves_to: E-90001
    via: aag/pto-scenarios@v3
    calendar: Calendar@2026.2
    description: California employee with a PTO balance above the carryover cap
  - handle: employees.new_hire_ny
    resolves_to: E-90002
    via: aag/pto-scenarios@v3
    description: New York employee in the first year
tenant:
  id: acme-retail-us
  environment: sandbox
  data: synthetic
"""

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


def walk_through() -> int:
    (ROOT / OUT / "cases").mkdir(parents=True, exist_ok=True)
    for title, args in STEPS:
        print(f"\n== {title}\n$ promote {shlex.join(args)}", flush=True)
        result = subprocess.run([sys.executable, "-m", "promote.cli", *args], cwd=ROOT)
        if result.returncode != 0:
            print(f"demo step failed with exit code {result.returncode}", file=sys.stderr)
            return result.returncode
    return 0


def demo_repo() -> Path:
    """A fresh eval repo to promote into: git, the seed cases, the entity catalog."""
    repo = ROOT / DEMO_REPO
    shutil.rmtree(repo, ignore_errors=True)
    (repo / "evals" / "cases").mkdir(parents=True)
    for case in sorted((ROOT / "fixtures" / "cases" / "golden").glob("*.yaml")):
        shutil.copy(case, repo / "evals" / "cases" / case.name)
    (repo / "evals" / "entities.yaml").write_text(DEMO_CATALOG, encoding="utf-8")
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    for key, value in (("user.name", "hermione.g"), ("user.email", "hermione.g@example.invalid")):
        subprocess.run(["git", "-C", str(repo), "config", key, value], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "Demo eval repo"], check=True)
    return repo


def terminal_ui() -> int:
    repo = demo_repo()
    args = ["tui", "fixtures/traces/adk2.otlp.jsonl", "--repo", str(repo), "--by", "hermione.g"]
    print(f"$ promote {shlex.join(args)}", flush=True)
    return subprocess.run([sys.executable, "-m", "promote.cli", *args], cwd=ROOT).returncode


def main() -> int:
    if sys.stdin.isatty() and sys.stdout.isatty():
        return terminal_ui()
    return walk_through()


if __name__ == "__main__":
    sys.exit(main())
