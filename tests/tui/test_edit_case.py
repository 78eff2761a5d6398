"""`promote tui --case`: an unchanged save is byte-identical; an edit keeps comments and bumps revision."""

from __future__ import annotations

import asyncio
import difflib
import shutil

from tests.conftest import GOLDEN_CASES
from tests.tui.conftest import make_app, settle
from tui.screens.confirm import ConfirmScreen
from tui.screens.promote import PromoteScreen


def test_edit_an_existing_case(eval_repo):
    path = eval_repo / "evals" / "cases" / "hr.policy_carryover_004.yaml"
    shutil.copy(GOLDEN_CASES / path.name, path)
    before = path.read_bytes()
    asyncio.run(edit_title(eval_repo, path, before))


async def edit_title(eval_repo, path, before: bytes) -> None:
    app = make_app(eval_repo, exports=[], case=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PromoteScreen)
        assert not screen.session.dirty
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert path.read_bytes() == before  # saving without a change leaves the file as it was

        title = screen.query_one("#basics-title")
        title.focus()
        await pilot.press("end", *" (CA)")
        assert screen.session.dirty
        assert "+title: PTO carryover policy with at-risk balance (CA)" in screen.session.diff()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not screen.session.dirty

        # Quitting with nothing unsaved does not ask.
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)

    after = path.read_text(encoding="utf-8")
    changed = [line for line in difflib.unified_diff(before.decode().splitlines(), after.splitlines(), n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == [
        ("-revision: 7                          # bumped whenever the case's content changes "
         "(\"v7\" in the seeds)"),
        ("+revision: 8                          # bumped whenever the case's content changes "
         "(\"v7\" in the seeds)"),
        "-title: PTO carryover policy with at-risk balance",
        "+title: PTO carryover policy with at-risk balance (CA)",
    ]


def test_quitting_with_unsaved_changes_asks_first(eval_repo):
    path = eval_repo / "evals" / "cases" / "hr.policy_carryover_004.yaml"
    shutil.copy(GOLDEN_CASES / path.name, path)
    asyncio.run(quit_unsaved(eval_repo, path))


async def quit_unsaved(eval_repo, path) -> None:
    app = make_app(eval_repo, exports=[], case=path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.screen.query_one("#basics-tier").focus()
        await pilot.press("backspace")
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, PromoteScreen) and app.is_running
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
