"""The edit loop's other defects of issue 37: the views (problems, YAML, diff, recovery write) run once per
burst of keys and never on the UI thread; a case with errors is saved only as a draft that says so; a
recovery file that holds no case is said, and kept (not overwritten by the next edit)."""

from __future__ import annotations

import asyncio
import json
import threading

from textual.widgets import Select

from tests.tui.conftest import make_promote_app, settle, type_fast
from tui.screens.confirm import ConfirmScreen
from tui.screens.promote import PromoteScreen


def messages(app) -> str:
    return " ".join(f"{n.title}: {n.message}" for n in app._notifications)


def test_views_run_once_per_burst_off_the_ui_thread(eval_repo, carryover_trace):
    app = make_promote_app(eval_repo, carryover_trace)
    session = app._first_session
    on_ui_thread: list[bool] = []
    original = session.views

    def views():
        on_ui_thread.append(threading.current_thread() is threading.main_thread())
        return original()

    session.views = views

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            on_ui_thread.clear()
            app.screen.query_one("#basics-title").focus()
            await type_fast(pilot, "What carries over and what is at risk", interval=0.02)  # replaces it
            await settle(pilot)
            assert session.case.title == "What carries over and what is at risk"
            assert 1 <= len(on_ui_thread) <= 2 and not any(on_ui_thread), on_ui_thread  # not 20, not here

    asyncio.run(run())


def test_a_case_with_errors_is_saved_only_as_a_draft_that_says_so(eval_repo, carryover_trace):
    async def run() -> None:
        app = make_promote_app(eval_repo, carryover_trace)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            screen = app.screen
            screen.query_one("#basics-status", Select).value = "valid"
            await settle(pilot)
            assert screen.session.case.status == "valid"
            target = eval_repo / "evals" / "cases" / f"{screen.session.case.id}.yaml"
            await pilot.press("ctrl+s")  # kind numeric without a figure: an error
            await settle(pilot)
            assert not target.exists() and "not saved" in messages(app)
            assert isinstance(app.screen, ConfirmScreen)  # offered: a draft that says so, or keep editing
            await pilot.press("y")
            await settle(pilot)
            assert app.screen is screen and target.exists()
            assert "status: draft" in target.read_text(encoding="utf-8")
            assert screen.query_one("#basics-status", Select).value == "draft"  # the screen shows it too
            assert "saved as a draft" in messages(app)

    asyncio.run(run())


def test_a_recovery_file_without_a_case_is_said_and_kept(eval_repo, carryover_trace):
    app = make_promote_app(eval_repo, carryover_trace)
    session = app._first_session
    broken = session.recovery().path
    broken.parent.mkdir(parents=True, exist_ok=True)
    body = {"source": session.source, "path": "x.yaml", "case": {"id": "hr.x_001", "status": "bogus-status"}}
    broken.write_text(json.dumps(body), encoding="utf-8")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, PromoteScreen)  # the draft opens
            assert "recovery file not read" in messages(app) and "does not hold a case" in messages(app)
            app.screen.query_one("#basics-title").focus()
            await pilot.press("end", *" (CA)")
            await settle(pilot)

    asyncio.run(run())
    [kept] = broken.parent.glob("*.unreadable")
    assert json.loads(kept.read_text(encoding="utf-8")) == body  # not overwritten by the edits since
