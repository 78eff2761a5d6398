"""The one edit loop: every key typed is kept, a value the case cannot take is a problem at its field and
is never saved as something else, and ctrl+s writes exactly what the YAML preview shows or refuses."""

from __future__ import annotations

import asyncio

from textual.widgets import Input, TextArea

from tests.tui.conftest import make_promote_app, settle, show_tab, type_fast
from tui.messages import CaseEdited
from tui.screens.confirm import ConfirmScreen
from tui.screens.promote import PromoteScreen
from tui.widgets.basics_tab import BasicsTab
from tui.widgets.problems_panel import ProblemsPanel

TYPED = "ukg-accrual-engine.v2/abcdefghijklmnopqr"  # 40 characters


def run(eval_repo, carryover_trace, scenario, size=(120, 40)):
    async def main():
        app = make_promote_app(eval_repo, carryover_trace)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await scenario(pilot, app.screen)

    asyncio.run(main())


def target(eval_repo, screen: PromoteScreen):
    return eval_repo / "evals" / "cases" / f"{screen.session.case.id}.yaml"


def shown_problems(screen: PromoteScreen) -> dict[str, str]:
    return {p.field: p.message for p in screen.query_one(ProblemsPanel).problems if p.severity == "error"}


async def accept_first_figure(pilot, screen) -> None:
    await pilot.press("f6", "f6", "f6")
    assert screen.query_one("#case-tabs").active == "numbers"
    screen.query_one("#numbers-table").focus()
    await pilot.press("a")
    await settle(pilot)


async def open_rule_row(pilot, screen, call: int = 1) -> None:
    await show_tab(pilot, "tools")
    calls = screen.query_one("#tools-calls")
    calls.focus()
    calls.highlighted = call
    await settle(pilot)


def test_fast_typing_keeps_every_key_in_every_field(eval_repo, carryover_trace):
    async def scenario(pilot, screen):
        await accept_first_figure(pilot, screen)
        for name in ("name", "oracle", "unit"):
            field = screen.query_one(f"#fig-{name}", Input)
            field.focus()
            await pilot.press("ctrl+u")
            await type_fast(pilot, TYPED)
            await settle(pilot)
            assert field.value == TYPED
            assert getattr(screen.session.case.numeric[0], name) == TYPED
        await open_rule_row(pilot, screen)
        kind = screen.query_one("#rule-kind-0")
        kind.focus()
        await pilot.press("enter", "down", "down", "enter", "tab")  # exact -> regex, then its pattern
        rule = screen.query_one("#rule-text-0", Input)
        assert screen.focused is rule
        await type_fast(pilot, TYPED)
        await settle(pilot)
        assert rule.value == TYPED
        assert screen.session.case.expected_tools.calls[1].match["topic"].pattern == TYPED
        for selector, field in (("#basics-title", "title"), ("#output-text", "expected_output"),
                                ("#basics-input", "input")):
            widget = screen.query_one(selector)
            screen.query_one("#case-tabs").active = "basics" if selector != "#output-text" else "output"
            await settle(pilot)
            widget.focus()
            await pilot.press("ctrl+u" if isinstance(widget, Input) else "ctrl+a")
            if isinstance(widget, TextArea):
                widget.clear()
            await type_fast(pilot, TYPED)
            await settle(pilot)
            assert getattr(screen.session.case, field) == TYPED
        assert f"title: {TYPED}" in screen.views_shown.yaml

    run(eval_repo, carryover_trace, scenario)


def test_an_invalid_tolerance_is_a_problem_and_is_never_saved(eval_repo, carryover_trace):
    async def scenario(pilot, screen):
        await accept_first_figure(pilot, screen)
        before = screen.session.case.numeric[0].tolerance
        screen.query_one("#fig-tolerance", Input).focus()
        await pilot.press("ctrl+u", *"abc")
        await settle(pilot)
        assert "must be a number" in shown_problems(screen)["numeric[0].tolerance"]
        assert screen.session.case.numeric[0].tolerance == before
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not target(eval_repo, screen).exists()
        assert any(n.severity == "error" and "numeric[0].tolerance" in str(n.message)
                   for n in pilot.app._notifications)
        assert screen.query_one("#fig-tolerance", Input).value == "abc"  # the text stays to be fixed
        await pilot.press("ctrl+u", *"0.01", "ctrl+s")
        await settle(pilot)
        assert target(eval_repo, screen).exists(), [str(n.message) for n in pilot.app._notifications]
        written = target(eval_repo, screen).read_text(encoding="utf-8")
        assert "tolerance: 0.01" in written
        assert written == screen.views_shown.yaml  # what the preview shows is what was written

    run(eval_repo, carryover_trace, scenario)


def test_an_invalid_regex_is_a_problem_and_is_never_saved(eval_repo, carryover_trace):
    async def scenario(pilot, screen):
        await open_rule_row(pilot, screen)
        screen.query_one("#rule-kind-0").focus()
        await pilot.press("enter", "down", "down", "enter", "tab", *"pto_(carryover")
        await settle(pilot)
        assert "bad pattern" in shown_problems(screen)["expected_tools.calls[1].match.topic"]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not target(eval_repo, screen).exists()
        await pilot.press("ctrl+u")  # an empty pattern would match anything: a problem too
        await settle(pilot)
        assert "expected_tools.calls[1].match.topic" in shown_problems(screen)
        await pilot.press(*"pto_carryover", "ctrl+s")
        await settle(pilot)
        assert "topic: regex:pto_carryover" in target(eval_repo, screen).read_text(encoding="utf-8")

    run(eval_repo, carryover_trace, scenario)


def test_an_invalid_enum_never_reaches_the_case(eval_repo, carryover_trace):
    async def scenario(pilot, screen):
        basics = screen.query_one(BasicsTab)
        basics.post_message(CaseEdited("status", "bogus-status"))
        basics.post_message(CaseEdited("kind", "not-a-list"))
        await settle(pilot)
        problems = shown_problems(screen)
        assert "status" in problems and "kind" in problems
        assert screen.session.case.status == "draft"
        assert "bogus" not in screen.views_shown.yaml and "not-a-list" not in screen.views_shown.yaml
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not target(eval_repo, screen).exists()

    run(eval_repo, carryover_trace, scenario)


def test_escape_leaves_the_field_then_the_case_and_f6_leaves_a_text_area(eval_repo, carryover_trace):
    async def scenario(pilot, screen):
        await pilot.press("f6")
        output = screen.query_one("#output-text", TextArea)
        assert screen.focused is output  # f6 goes into the tab, not the tab bar
        await pilot.press("x", "f6")
        assert screen.query_one("#case-tabs").active == "tools"
        assert screen.focused is not output
        screen.query_one("#basics-title").focus()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, ConfirmScreen)
        assert pilot.app.screen is screen

    run(eval_repo, carryover_trace, scenario)


def test_a_draft_note_leaves_the_panel_once_resolved(eval_repo, carryover_trace):
    async def scenario(pilot, screen):
        def notes():
            return [p.field for p in screen.query_one(ProblemsPanel).problems if p.rule == "draft"]

        assert "numeric" in notes()  # "N figure(s) suggested: check each name and assign its oracle"
        await accept_first_figure(pilot, screen)
        assert "numeric" not in notes()
        await pilot.press("a")  # un-accepted again: the suggestion is pending once more
        await settle(pilot)
        assert "numeric" in notes()

    run(eval_repo, carryover_trace, scenario)


def test_invalid_args_stay_a_problem_after_moving_to_another_call_and_back(eval_repo, carryover_trace):
    async def scenario(pilot, screen):
        await open_rule_row(pilot, screen)
        area = screen.query_one("#tool-args TextArea", TextArea)
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.press(*",,")
        await settle(pilot)
        assert "not JSON" in shown_problems(screen)["expected_tools.calls[1].args"]
        calls = screen.query_one("#tools-calls")
        calls.highlighted = 0
        await settle(pilot)
        calls.highlighted = 1
        await settle(pilot)
        assert screen.query_one("#tool-args TextArea", TextArea).text.endswith(",,")  # shown as typed
        assert "expected_tools.calls[1].args" in shown_problems(screen)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not target(eval_repo, screen).exists()

    run(eval_repo, carryover_trace, scenario)
