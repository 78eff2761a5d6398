"""ctrl+o opens the pull request through `promote pr`'s library call (real git, a bare origin, stub gh)."""

from __future__ import annotations

import asyncio

from tests.pr_helpers import PR_URL, git, make_eval_repo
from tests.tui.conftest import make_app, settle
from tests.tui.test_flow import open_carryover
from tui.screens.pr_result import PrResultScreen


def test_open_the_pull_request_from_the_promote_screen(tmp_path, monkeypatch):
    repo = make_eval_repo(tmp_path, monkeypatch)
    asyncio.run(save_and_open_pr(repo.root))
    assert ["pr", "create"] == repo.gh_calls()[-1][:2]
    assert "hr.policy_carryover_001" in repo.gh_body()
    assert "promote/hr.policy_carryover_001" in git(repo.origin, "branch", "--list")


async def save_and_open_pr(root) -> None:
    app = make_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_carryover(pilot)
        await pilot.press("ctrl+o")  # unsaved: refused with a note, nothing committed
        await pilot.pause()
        assert not isinstance(app.screen, PrResultScreen)
        screen.query_one("#numbers-table").focus()
        await pilot.press("a", "ctrl+s")
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, PrResultScreen)
        assert app.screen.result.pr_url == PR_URL
