"""Enter on a turn whose trace is still being scrubbed: said at once; the turn opens when its scrub is
ready only if the SME still waits on that row in the table, never taking over what they type elsewhere."""

from __future__ import annotations

import asyncio

from tests.tui.conftest import make_app, settle
from tui.messages import TurnsScrubbed
from tui.screens.browser import BrowserScreen
from tui.screens.promote import PromoteScreen
from tui.widgets.load_progress import LoadProgress
from tui.widgets.turn_table import TurnTable


def test_a_turn_asked_for_before_its_scrub_opens_only_if_still_wanted(eval_repo):
    async def run() -> None:
        app = make_app(eval_repo)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            browser = app.screen
            assert isinstance(browser, BrowserScreen)
            await pilot.press("slash", *"carries into next year", "escape")
            await settle(pilot)
            table = browser.query_one(TurnTable)
            row = browser.rows[table.current_key]
            done = browser.scrubbed.pop(row.trace_id)  # as if its scrub were still under way
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is browser
            assert any(n.title == "scrubbing…" and "opens as soon as it is ready" in str(n.message)
                       for n in app._notifications)
            progress = browser.query_one(LoadProgress)
            assert progress.text.startswith("scrubbing… the turn you opened")  # said until it is ready
            await pilot.press("slash")  # the SME types in the filter meanwhile
            browser.post_message(TurnsScrubbed(updates=[], traces=[done]))
            await settle(pilot)
            assert app.screen is browser  # not taken over
            assert not progress.text.startswith("scrubbing…")
            assert any("Enter opens it" in str(n.message) for n in app._notifications)
            await pilot.press("escape", "enter")
            await settle(pilot)
            assert isinstance(app.screen, PromoteScreen)

    asyncio.run(run())
