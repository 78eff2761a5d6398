"""At 80x24 every control of every tab of the promote screen is reached with Tab and shown when reached,
the tab bar and the footer are whole, and Tab never stays trapped in a text area."""

from __future__ import annotations

import asyncio

from textual.widgets import Footer, TabbedContent, TabPane, Tabs
from textual.widgets._footer import FooterKey

from tests.tui.conftest import make_promote_app, settle, show_tab
from tui.screens.promote import TABS


def shown(screen, widget) -> bool:
    """Whether what is on screen at the widget's first cell is the widget (or a part of it)."""
    region = widget.region
    if not region or region.y >= screen.size.height or region.x >= screen.size.width:
        return False
    try:
        found, _ = screen.get_widget_at(region.x + min(1, region.width - 1), region.y)
    except Exception:  # noqa: BLE001 - nothing there
        return False
    return found is widget or widget in found.ancestors


def test_every_control_is_reached_with_tab_at_80x24(eval_repo, carryover_trace):
    async def run() -> None:
        app = make_promote_app(eval_repo, carryover_trace)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            tabs = screen.query_one(TabbedContent)
            bar = tabs.query_one(Tabs)
            assert bar.region.y < 24 and bar.region.height >= 1
            keys = list(screen.query_one(Footer).query(FooterKey))
            assert keys and all(key.region.right <= 80 for key in keys)
            missed = {}
            for tab in TABS:
                bar.focus()  # out of the last pane first: a focused field would take its pane back
                await pilot.pause()
                await show_tab(pilot, tab)
                if tab == "tools":
                    calls = screen.query_one("#tools-calls")
                    calls.focus()
                    calls.highlighted = 1
                await settle(pilot)
                pane = screen.query_one(f"#{tab}", TabPane)
                controls = [w for w in pane.query("*") if w.focusable and w.display]
                reached, unseen = set(), []
                bar.focus()
                for _ in range(len(screen.focus_chain) + 2):
                    await pilot.press("tab")
                    focused = screen.focused
                    if focused in controls:
                        reached.add(focused)
                        if not shown(screen, focused):
                            await pilot.pause()  # laid out again since? (the scroll to it is then drawn)
                            if not shown(screen, focused):
                                unseen.append(focused.id or type(focused).__name__)
                    if len(reached) == len(controls):
                        break  # the rest of the chain (problems, timeline) is not this tab's
                left = [w.id or type(w).__name__ for w in controls if w not in reached]
                if left or unseen:
                    missed[tab] = {"not reached": left, "reached but not shown": unseen}
            assert missed == {}

    asyncio.run(run())
