"""Recovery loses nothing and leaks nothing: a promoted turn, saved with an accepted figure, then edited in
many fields and left without saving (the app is torn down mid-edit, nothing asked, nothing saved), comes
back through the browser as its existing case with every field; a raw value typed in never reaches the
recovery file."""

from __future__ import annotations

import asyncio
import json

from textual.widgets import Input, TextArea

from tests.tui.conftest import make_app, make_promote_app, settle, show_tab
from tests.tui.test_edit_loop import accept_first_figure, open_rule_row
from tui.screens.confirm import ConfirmScreen
from tui.screens.promote import PromoteScreen
from tui.widgets.turn_table import TurnTable

ORACLE = "ukg-accrual-engine"
TITLE = "PTO carryover, California, above the cap"
REPLY_END = " Plan ahead."


def recovery_files(eval_repo):
    return list((eval_repo / ".git" / "promote" / "recovery").glob("*.json"))


def test_recovery_after_a_crash_keeps_every_field_and_reopens_the_promoted_case(
    eval_repo, carryover_trace
):
    case_id = asyncio.run(save_then_edit_and_crash(eval_repo, carryover_trace))
    saved = eval_repo / "evals" / "cases" / f"{case_id}.yaml"
    [left] = recovery_files(eval_repo)
    body = json.loads(left.read_text(encoding="utf-8"))
    assert body["source"] == f"case:{saved.resolve()}"  # the saved case, not the turn, is being edited
    assert body["case"]["numeric"][0]["oracle"] == ORACLE
    asyncio.run(reopen_and_recover(eval_repo, saved))
    assert sorted(p.name for p in saved.parent.glob("*.yaml")) == [saved.name]  # no `_002` draft


async def save_then_edit_and_crash(eval_repo, carryover_trace) -> str:
    app = make_promote_app(eval_repo, carryover_trace)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await accept_first_figure(pilot, screen)
        screen.query_one("#fig-oracle", Input).focus()
        await pilot.press("ctrl+u", *ORACLE, "ctrl+s")
        await settle(pilot)
        assert not screen.session.dirty
        # Edits after the save, in every kind of control, then the crash.
        screen.query_one("#fig-tolerance", Input).focus()
        await pilot.press("ctrl+u", *"0.5")
        await open_rule_row(pilot, screen)
        screen.query_one("#rule-kind-0").focus()
        await pilot.press("enter", "down", "enter")  # exact -> ignore
        screen.query_one("#case-tabs").active = "basics"
        title = screen.query_one("#basics-title", Input)
        title.focus()
        await pilot.press("ctrl+u", *TITLE)
        screen.query_one("#case-tabs").active = "output"
        output = screen.query_one("#output-text", TextArea)
        output.focus()
        output.move_cursor(output.document.end)
        await pilot.press(*REPLY_END)
        await settle(pilot)
        return screen.session.case.id


async def reopen_and_recover(eval_repo, saved) -> None:
    app = make_app(eval_repo)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"carries into next year", "escape")
        await settle(pilot)
        table = app.screen.query_one(TurnTable)
        [key] = table.order
        for _ in range(100):  # the row is marked once its trace is scrubbed and its case found
            if key in table.recovering:
                break
            await pilot.pause(0.1)
        assert str(table.cells(table.rows_by_key[key])[0]) == "✎"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PromoteScreen)
        assert screen.session.path == saved and screen.session.base is not None
        case = screen.session.case
        assert case.title == TITLE
        assert case.expected_output.endswith(REPLY_END)
        [figure] = case.numeric
        assert (figure.oracle, figure.tolerance) == (ORACLE, 0.5)
        assert str(case.expected_tools.calls[1].match["topic"]) == "ignore"
        assert "-numeric:" not in screen.views_shown.diff
        await show_tab(pilot, "numbers")
        assert screen.query_one("#fig-oracle", Input).value == ORACLE  # shown as accepted, not suggested
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not recovery_files(eval_repo)
        text = saved.read_text(encoding="utf-8")
        assert TITLE in text and ORACLE in text and "tolerance: 0.5" in text


def test_a_raw_value_typed_in_never_reaches_the_recovery_file(eval_repo, carryover_trace, expected_traces):
    done, _ = carryover_trace
    held = [item["value"] for item in expected_traces["planted_pii"]
            if done.fingerprints.found_in(item["value"])]

    async def run() -> None:
        app = make_promote_app(eval_repo, carryover_trace)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            screen = app.screen
            await show_tab(pilot, "output")
            output = screen.query_one("#output-text", TextArea)
            output.focus()
            output.move_cursor(output.document.end)
            await pilot.press(*" Ask HR.")
            await settle(pilot)
            [clean] = recovery_files(eval_repo)
            await pilot.press(*f" Or ask {held[0]}.")
            await settle(pilot)
            text = clean.read_text(encoding="utf-8")
            assert held[0].lower() not in text.lower() and "Ask HR." in text  # the last clean state
            flagged = {p.field for p in screen.views_shown.problems if p.rule == "known-value"}
            assert "expected_output" in flagged
            screen.query_one("#case-tabs").active = "basics"
            area = screen.query_one("#basics-input", TextArea)
            area.focus()
            await pilot.press(*f" {held[0]}")
            await settle(pilot)
            assert "input" in {p.field for p in screen.views_shown.problems if p.rule == "known-value"}
            for path in recovery_files(eval_repo):
                assert held[0].lower() not in path.read_text(encoding="utf-8").lower()

    asyncio.run(run())
