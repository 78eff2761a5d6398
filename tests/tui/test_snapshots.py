"""SVG snapshots of each screen at 80x24 and 160x48 (fixed clock, fixed SME, no cursor blink).

Update after looking at the report: `.venv/bin/python -m pytest tests/tui/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest

from tests.tui.conftest import make_app, settle
from tests.tui.test_flow import open_carryover

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]


@pytest.mark.parametrize("size", SIZES)
def test_browser(snap_compare, eval_repo, size):
    async def loaded(pilot):
        await settle(pilot)

    assert snap_compare(make_app(eval_repo), terminal_size=size, run_before=loaded)


@pytest.mark.parametrize("size", SIZES)
def test_promote_screen(snap_compare, eval_repo, size):
    async def opened(pilot):
        await open_carryover(pilot)

    assert snap_compare(make_app(eval_repo), terminal_size=size, run_before=opened)


def test_promote_tools_tab_light(snap_compare, eval_repo):
    async def tools(pilot):
        screen = await open_carryover(pilot)
        await pilot.press("f6", "f6")
        calls = screen.query_one("#tools-calls")
        calls.focus()
        calls.highlighted = 1
        await settle(pilot)

    app = make_app(eval_repo, dark=False)
    assert snap_compare(app, terminal_size=(160, 48), run_before=tools)


def test_help_screen(snap_compare, eval_repo):
    async def helped(pilot):
        await open_carryover(pilot)
        await pilot.press("f1")
        await pilot.pause()

    assert snap_compare(make_app(eval_repo), terminal_size=(80, 24), run_before=helped)
