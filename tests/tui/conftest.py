"""Fixtures of the UI tests: an eval repo in a temp folder, a fixed clock and SME, steady cursors."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual import _wait as textual_wait
from textual.widgets import Input, TextArea
from textual.worker import WorkerCancelled

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
    """No cursor blinking (snapshots are taken at any moment), no real XDG state folder, and Pilot's
    wait for an idle app looks in 10 ms slots instead of 20 ms ones.

    `pilot.press` and `pilot.pause` wait until the process's CPU time stands still for a slot (at least
    three slots a key): with 20 ms slots a key costs 60 ms or more even when the app answered in 5 ms,
    and the Tab walk of every control at 80x24 presses hundreds of keys. The test is the same: the
    process is idle (under 5% of the slot's CPU time, as 1 ms of 20 ms was) before anything is looked
    at. Not shorter: on two loaded cores a process can get no CPU for 5 ms while it still has work."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", lambda self: None)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(textual_wait, "SLEEP_GRANULARITY", 0.010)
    monkeypatch.setattr(textual_wait, "SLEEP_IDLE", 0.0005)


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
    """Let messages drain, the promote screen's pending (debounced) views run, and every worker finish
    (never a sleep)."""
    from tui.screens.promote import PromoteScreen

    await pilot.pause()
    for screen in pilot.app.screen_stack:
        if isinstance(screen, PromoteScreen) and screen._debounce is not None:
            screen.refresh_views()
    while True:
        try:
            await pilot.app.workers.wait_for_complete()
            break
        except WorkerCancelled:  # an exclusive worker replaced by a newer one: wait for that one
            await pilot.pause()
    await pilot.pause()


@pytest.fixture(scope="session")
def carryover_trace():
    """The carryover turn's trace, scrubbed once for the whole run as the loader child scrubs it, and as
    it crosses to the UI (without raw values), for tests of the promote screen, where reading the export
    through the loader is not what is tested."""
    from promote.source import read_traces, scrub_trace
    from tui import seams

    engine = seams.engine()
    for trace in read_traces([EXPORT]):
        if any("carries into next year" in (turn.user_input or "") for turn in trace.turns):
            done = scrub_trace(trace, engine, salt=b"tests").without_raw()
            turn = next(t.index for t in done.trace.turns if "carries into next year" in (t.user_input or ""))
            return done, turn
    raise AssertionError("the carryover turn is not in the fixture export")


def make_promote_app(repo: Path, carryover_trace, dark: bool = True):
    """The app opened straight on the promote screen of the carryover turn (no loader child)."""
    from tui import seams
    from tui.app import PromoteApp
    from tui.edit_session import EditSession

    done, turn = carryover_trace
    found = seams.EvalRepo.find(repo)
    session = EditSession.from_draft(done, turn, repo=found, by="hermione.g", now=NOW)
    app = PromoteApp([], repo_dir=repo, by="hermione.g", now=NOW, dark=dark, session=session)
    app.prepare()
    return app


async def show_tab(pilot, tab: str) -> None:
    """Show a tab of the promote screen, as the SME does: it is built the first time it is shown."""
    from tui.widgets.lazy_pane import LazyPane

    screen = pilot.app.screen
    screen.query_one("#case-tabs").active = tab
    await screen.query_one(f"#{tab}", LazyPane).build()


async def type_fast(pilot, text: str, interval: float = 0.02) -> None:
    """Type `text` as a person typing fast would: a key every `interval` seconds, without waiting for the
    app to handle the previous one (`pilot.press` waits for idle after each key: it cannot lose one)."""
    import asyncio

    from textual import events
    from textual.keys import _character_to_key

    app = pilot.app
    for char in text:
        key = char if char.isalnum() else _character_to_key(char)
        event = events.Key(key, char)
        event.set_sender(app)
        app._driver.send_message(event)
        await asyncio.sleep(interval)
