"""ctrl+o on a repo without a remote: the branch is committed locally and the branch and PR text are shown.

(With a remote, a stub `gh` and a bare origin, the PR is opened at the end of the whole flow: test_flow.)
"""

from __future__ import annotations

import html

import asyncio

from textual.widgets import Label, TextArea

from tests.pr_helpers import git
from tests.tui.conftest import CATALOG, make_promote_app, settle, show_tab
from tui.screens.pr_result import PrResultScreen


def test_without_a_remote_the_branch_and_the_pr_text_are_shown(tmp_path, carryover_trace):
    root = tmp_path / "people-evals"
    git(tmp_path, "init", "--quiet", "-b", "main", str(root))
    git(root, "config", "user.name", "Eval Bot")
    git(root, "config", "user.email", "bot@example.invalid")
    (root / "evals" / "cases").mkdir(parents=True)
    (root / "evals" / "entities.yaml").write_text(CATALOG, encoding="utf-8")
    git(root, "add", ".")
    git(root, "commit", "--quiet", "-m", "Eval repo with a catalog")
    assert git(root, "remote") == ""
    case_id = asyncio.run(save_and_open_pr(root, carryover_trace))

    branch = f"promote/{case_id}"
    assert branch in git(root, "branch", "--list", branch)
    assert f"evals/cases/{case_id}.yaml" in git(root, "show", "--name-only", "--format=", branch)
    assert git(root, "rev-parse", "--abbrev-ref", "HEAD") == "main"  # the SME's checkout is left alone


async def save_and_open_pr(root, carryover_trace) -> str:
    app = make_promote_app(root, carryover_trace)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("ctrl+o")  # unsaved: refused with a note, nothing committed
        await pilot.pause()
        assert not isinstance(app.screen, PrResultScreen)
        assert "save the case first" in " ".join(str(n.message) for n in app._notifications)
        await show_tab(pilot, "numbers")
        screen.query_one("#numbers-table").focus()
        await pilot.press("a", "ctrl+s")  # a numeric case needs a figure to go to review
        await settle(pilot)
        assert not screen.session.dirty
        await pilot.press("ctrl+o")
        await settle(pilot)
        shown = app.screen
        assert isinstance(shown, PrResultScreen), [str(n.message) for n in app._notifications]
        case_id = screen.session.case.id
        assert shown.result.pr_url is None and not shown.result.pushed
        headline = str(shown.query_one("#pr-headline", Label).content)
        assert f"branch promote/{case_id}" in headline
        body = shown.query_one("#pr-body", TextArea).text
        assert body == html.unescape(shown.result.body) and case_id in body
        assert "<PERSON_1>" in body and "&lt;" not in body  # shown as it reads, not as markdown escapes it
        assert case_id in str(shown.query_one("#pr-title", Label).content)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        # Again with nothing saved since: the same pull request, no command-line advice.
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, PrResultScreen) and app.screen.result.branch == f"promote/{case_id}"
        await pilot.press("escape")
        # A new revision saved: it goes on a branch of its own.
        screen.query_one("#basics-title").focus()
        await pilot.press("end", *" (CA)", "ctrl+s")
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        messages = " ".join(str(n.message) for n in app._notifications)
        assert "--branch" not in messages
        assert isinstance(app.screen, PrResultScreen), messages
        assert app.screen.result.branch == f"promote/{case_id}-r2"
    return case_id
