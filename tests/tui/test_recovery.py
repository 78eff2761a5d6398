"""Edits survive a crash: the recovery file (scrubbed only, under `.git/promote/`) is offered on restart."""

from __future__ import annotations

import asyncio

from tests.tui.conftest import make_app, settle
from tests.tui.test_flow import open_carryover
from tui.screens.confirm import ConfirmScreen
from tui.screens.promote import PromoteScreen
from tui.widgets.turn_table import TurnTable

EDIT = " Ask HR about exceptions."


def test_recover_after_a_crash(eval_repo, expected_traces):
    asyncio.run(edit_and_crash(eval_repo))
    recovery = list((eval_repo / ".git" / "promote" / "recovery").glob("*.json"))
    assert len(recovery) == 1
    text = recovery[0].read_text(encoding="utf-8")
    assert EDIT.strip() in text
    assert [item["value"] for item in expected_traces["planted_pii"] if item["value"] in text] == []
    asyncio.run(restart_and_recover(eval_repo))
    assert not recovery[0].exists()  # saved: the recovery file has done its job


async def edit_and_crash(eval_repo) -> None:
    app = make_app(eval_repo)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_carryover(pilot)
        await pilot.press("f6")
        output = screen.query_one("#output-text")
        output.focus()
        output.move_cursor(output.document.end)
        await pilot.press(*EDIT)
        await pilot.pause()
    # Leaving run_test without saving or quitting is the crash: nothing asked, nothing saved.


async def restart_and_recover(eval_repo) -> None:
    app = make_app(eval_repo)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(TurnTable)
        [marked] = table.recovering  # offered at start: the turn with unsaved edits is marked
        assert str(table.cells(table.rows_by_key[marked])[0]) == "✎"
        await pilot.press("slash", *"carries into next year", "escape", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PromoteScreen)
        assert screen.session.case.expected_output.endswith(EDIT)
        await pilot.press("ctrl+s")
        await settle(pilot)
        saved = eval_repo / "evals" / "cases" / f"{screen.session.case.id}.yaml"
        assert EDIT.strip() in saved.read_text(encoding="utf-8")
