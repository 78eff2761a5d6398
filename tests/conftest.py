"""Shared test fixtures: paths to the committed fixtures, a CLI runner, and one scrub engine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
GOLDEN_CASES = FIXTURES / "cases" / "golden"
TRACES = FIXTURES / "traces"
# An HR eval repo: its evals/promote.yaml holds the HR pillars, entity and safety scope drafts use.
HR_REPO = FIXTURES / "eval-repo"


@pytest.fixture(scope="session")
def engine():  # type: ignore[no-untyped-def]
    """One default-policy scrub engine per test process (loading spaCy takes seconds); a test module that
    needs another policy defines its own `engine`."""
    from scrubbers import ScrubEngine  # imported here: most tests never load the scrubber

    return ScrubEngine()


@pytest.fixture
def golden_cases() -> list[Path]:
    return sorted(GOLDEN_CASES.glob("*.yaml"))


@pytest.fixture
def expected_traces() -> dict:
    """Ground truth written by fixtures/generate_traces.py from what the scripted agents did."""
    return json.loads((TRACES / "expected.json").read_text())


def run_cli(*args: str, stdin: bytes | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run the real console entry point in a subprocess (what users and CI scripts do)."""
    return subprocess.run(
        [sys.executable, "-m", "promote.cli", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=600,
    )


def string_leaves(doc: object) -> list[str]:
    """Every string in a decoded JSON document, JSON held inside strings decoded too (in document order)."""
    out: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str):
            out.append(node)
            if node[:1] in "[{":
                try:
                    walk(json.loads(node))
                except ValueError:
                    pass

    walk(doc)
    return out

