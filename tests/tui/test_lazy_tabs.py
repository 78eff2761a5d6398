"""Opening a case builds its first tab only; each other tab is built when first shown, from the case as it
is then, and building one changes nothing (issue 37: opening the editor blocks no frame > 100 ms)."""

from __future__ import annotations

import asyncio

from textual.widgets import TabbedContent, TextArea

from tests.tui.conftest import make_promote_app, settle
from tui.case_tabs import TABS
from tui.widgets.lazy_pane import LazyPane

SHOWN_BY = {
    "output": "#output-text", "tools": "#tools-calls", "numbers": "#numbers-table",
    "retrieval": "#chunks-cite", "safety": "#safety-must-not", "entities": "#entity-handle",
    "yaml": "#yaml-preview", "diff": "#yaml-diff",
}
"""Each tab after the first, in order, and a control only that tab's content has."""
REPLY = "Your 2026 carryover is capped: plan to use the rest before December 31."


def test_each_tab_is_built_when_first_shown_from_the_case_as_it_is_then(eval_repo, carryover_trace):
    async def run() -> None:
        app = make_promote_app(eval_repo, carryover_trace)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            screen = app.screen
            panes = {pane.id: pane for pane in screen.query(LazyPane)}
            assert list(panes) == list(TABS)
            assert [tab for tab, pane in panes.items() if pane.children] == ["basics"]
            assert screen.query("#basics-title")
            assert [tab for tab, selector in SHOWN_BY.items() if screen.query(selector)] == []
            # An edit the Output tab has not seen: it shows it when it is built.
            screen.session.apply("expected_output", REPLY)
            case = screen.session.case
            for tab, selector in SHOWN_BY.items():
                await pilot.press("f6")
                assert screen.query_one(TabbedContent).active == tab
                assert screen.query_one(selector).display, tab
            assert all(pane.children for pane in panes.values())
            assert screen.query_one("#output-text", TextArea).text == REPLY
            await settle(pilot)
            assert screen.session.case == case  # building a tab is no edit
            assert screen.views_shown.case == case
            assert screen.query_one("#yaml-preview", TextArea).text == screen.views_shown.yaml

    asyncio.run(run())
