"""SVG snapshots of every screen, tab and modal at 80x24 and 160x48 (fixed clock, fixed SME, no cursor blink).

The browser runs on the real loader child; the promote screen and its modals open straight on the
carryover draft (scrubbed once per run, `carryover_trace`), so no test waits for a child to load spaCy.
Update after looking at the report:

    .venv/bin/python -m pytest tests/tui/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

import pytest
from textual.widgets import TabbedContent

from promote.repo.pr import PrResult
from tests.tui.conftest import make_app, make_promote_app, settle, show_tab
from tui.screens.promote import TABS

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]
PR_BODY = """\
## hr.policy_carryover_001

How much PTO carries into next year (California).

- [ ] the expected output reads right
- [ ] the tools and their match rules
"""


@pytest.mark.parametrize("size", SIZES)
def test_browser(snap_compare, eval_repo, size):
    async def loaded(pilot):
        await settle(pilot)

    assert snap_compare(make_app(eval_repo), terminal_size=size, run_before=loaded)


@pytest.mark.parametrize("tab", TABS)
@pytest.mark.parametrize("size", SIZES)
def test_promote_tab(snap_compare, eval_repo, carryover_trace, size, tab):
    async def show(pilot):
        await settle(pilot)
        pilot.app.screen.query_one(TabbedContent).active = tab
        await settle(pilot)

    assert snap_compare(make_promote_app(eval_repo, carryover_trace), terminal_size=size, run_before=show)


def test_promote_tools_tab_light(snap_compare, eval_repo, carryover_trace):
    async def tools(pilot):
        await settle(pilot)
        screen = pilot.app.screen
        await show_tab(pilot, "tools")
        calls = screen.query_one("#tools-calls")
        calls.focus()
        calls.highlighted = 1
        await settle(pilot)

    app = make_promote_app(eval_repo, carryover_trace, dark=False)
    assert snap_compare(app, terminal_size=(160, 48), run_before=tools)


@pytest.mark.parametrize("size", SIZES)
def test_help_screen(snap_compare, eval_repo, carryover_trace, size):
    async def helped(pilot):
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)

    assert snap_compare(make_promote_app(eval_repo, carryover_trace), terminal_size=size, run_before=helped)


@pytest.mark.parametrize("size", SIZES)
def test_confirm_quit(snap_compare, eval_repo, carryover_trace, size):
    async def quitting(pilot):
        await settle(pilot)
        await pilot.press("ctrl+q")  # a new draft is unsaved: asked first
        await settle(pilot)

    assert snap_compare(make_promote_app(eval_repo, carryover_trace), terminal_size=size, run_before=quitting)


@pytest.mark.parametrize("size", SIZES)
def test_recovery_offer(snap_compare, eval_repo, carryover_trace, size):
    app = make_promote_app(eval_repo, carryover_trace)
    session = app._first_session
    session.apply("expected_output", session.case.expected_output + " Plan ahead.")
    session.views()  # what an earlier run left behind: its recovery file

    async def offered(pilot):
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=offered)


@pytest.mark.parametrize("size", SIZES)
def test_pr_result(snap_compare, eval_repo, carryover_trace, size):
    from tui.screens.pr_result import PrResultScreen

    result = PrResult(branch="promote/hr.policy_carryover_001", base="main",
                      files=["evals/cases/hr.policy_carryover_001.yaml"],
                      title="Promote hr.policy_carryover_001", body=PR_BODY,
                      commit_message="Promote hr.policy_carryover_001",
                      notes=["no remote: the branch is committed locally; open the PR by hand"])

    async def shown(pilot):
        await settle(pilot)
        pilot.app.push_screen(PrResultScreen(result))
        await settle(pilot)

    assert snap_compare(make_promote_app(eval_repo, carryover_trace), terminal_size=size, run_before=shown)
