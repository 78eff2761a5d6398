"""Fixtures of the UI tests: an eval repo in a temp folder, a fixed clock and SME, steady cursors."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from tests.conftest import TRACES

NOW = datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC)
EXPORT = TRACES / "adk2.otlp.jsonl"
CARRYOVER_HANDLE = "employees.carryover_edge_ca"
CATALOG = f"""\
entities:
  - handle: {CARRYOVER_HANDLE}
    resolves_to: E-90001
    via: aag/pto-scenarios@v3
    calendar: Calendar@2026.2
    description: California employee with a PTO balance above the carryover cap
  - handle: employees.new_hire_ny
    resolves_to: E-50100
    via: aag/pto-scenarios@v3
    description: New York employee in the first year
tenant:
  id: acme-retail-us
  environment: sandbox
  data: synthetic
"""


@pytest.fixture(autouse=True)
def steady(monkeypatch, tmp_path):
    """No cursor blinking (snapshots are taken at any moment) and no real XDG state folder."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", lambda self: None)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture
def eval_repo(tmp_path) -> Path:
    """A git eval repo with an entity catalog and no cases yet."""
    root = tmp_path / "people-agents"
    (root / "evals" / "cases").mkdir(parents=True)
    (root / "evals" / "entities.yaml").write_text(CATALOG, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def make_app(repo: Path, exports: list[Path] | None = None, case: Path | None = None, dark: bool = True):
    from tui.app import PromoteApp

    app = PromoteApp([EXPORT] if exports is None else exports, case=case, repo_dir=repo, by="hermione.g",
                     now=NOW, dark=dark)
    app.prepare()
    return app


async def settle(pilot) -> None:
    """Let messages drain and every worker finish (never a sleep)."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
