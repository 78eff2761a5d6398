"""Keyboard first: every key is in the footer or the command palette with a description, and the footer
fits an 80x24 terminal."""

from __future__ import annotations

import asyncio

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from tests.tui.conftest import make_promote_app, settle
from tui.app import SHOWN_ELSEWHERE, binding_commands


def test_every_key_of_the_promote_screen_fits_or_is_in_the_palette(eval_repo, carryover_trace):
    asyncio.run(keys_at_80x24(eval_repo, carryover_trace))


async def keys_at_80x24(eval_repo, carryover_trace) -> None:
    app = make_promote_app(eval_repo, carryover_trace)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        footer = screen.query_one(Footer)
        shown = list(footer.query(FooterKey))
        assert shown and all(key.region.right <= 80 for key in shown), [
            (key.description, key.region) for key in shown]
        commands = {command.title: command.help for command in binding_commands(screen)}
        for binding in type(screen).BINDINGS:
            if binding.action in SHOWN_ELSEWHERE:
                continue
            assert binding.description and binding.tooltip
            assert any(title.startswith(binding.description + " (") for title in commands), binding
        # A palette command runs its binding: "Next tab" moves from Basics to Output.
        [next_tab] = [command for command in binding_commands(screen) if command.title.startswith("Next tab")]
        next_tab.callback()
        await settle(pilot)
        assert screen.query_one("#case-tabs").active == "output"


def test_the_browser_footer_fits_80_columns(eval_repo):
    from tests.tui.conftest import make_app

    async def run() -> None:
        app = make_app(eval_repo)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(50):
                await pilot.pause(0.05)
                keys = list(app.screen.query_one(Footer).query(FooterKey))
                if keys:
                    break
            assert keys and all(key.region.right <= 80 for key in keys), [
                (key.description, key.region) for key in keys]
            app.screen._stop.set()

    asyncio.run(run())
