"""Suspects: a name the scrubber let through is marked for review, and one key on its problem redacts it
everywhere in the case with one placeholder; saving lists the suspects left."""

from __future__ import annotations

import asyncio
import re

from textual.widgets import TextArea

from tests.tui.conftest import make_promote_app, settle, show_tab
from promote.case.suspects import in_text
from tui.widgets.problems_panel import ProblemsPanel


def test_what_looks_personal_is_found_and_what_does_not_is_left():
    def found(text):
        return [(text[start:end], kind) for start, end, kind in in_text(text)]

    assert found("Hi Sasha, up to 40 hours carry over") == [("Sasha", "name")]
    assert found("Hi, I'm <PERSON_1> Whitlock (<EMAIL_ADDRESS_1>)") == [("Whitlock", "name")]
    assert found("Hi <PERSON_1> Whitlock, up to 40 hours") == [("Whitlock", "name")]  # a greeting before it
    assert found("call 555 123 4567 or ping @dana.w") == [("555 123 4567", "number"), ("@dana.w", "handle")]
    assert found("In 2026 the cap is 40 hours; ask HR about PTO-CA-2026 §4.2 before December 31.") == []
    assert found("Hi <PERSON_1>, as of 2026-06-29 you have 52 hours") == []


def notes(app) -> str:
    return " ".join(str(notification.message) for notification in app._notifications)


def test_one_key_redacts_a_suspect_everywhere(eval_repo, carryover_trace):
    async def run() -> None:
        app = make_promote_app(eval_repo, carryover_trace)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            screen = app.screen
            await show_tab(pilot, "output")
            output = screen.query_one("#output-text", TextArea)
            output.focus()
            output.move_cursor(output.document.end)
            await pilot.press(*" Ask Dana about it, Dana knows.")
            screen.query_one("#case-tabs").active = "basics"
            title = screen.query_one("#basics-title")
            title.focus()
            await pilot.press("end", *", ask Dana")
            await settle(pilot)
            panel = screen.query_one(ProblemsPanel)
            [line] = [i for i, p in enumerate(panel.problems)
                      if p.rule == "suspect" and "'Dana'" in p.message]
            assert "1 more field" in panel.problems[line].message
            panel.focus()
            panel.highlighted = line
            await pilot.press("x")
            await settle(pilot)
            screen = app.screen
            case = screen.session.case
            assert "Dana" not in case.expected_output and "Dana" not in case.title
            [placeholder] = re.findall(r"<PERSON_\d+>", case.title)
            assert case.expected_output.endswith(f" Ask {placeholder} about it, {placeholder} knows.")
            await show_tab(pilot, "output")
            assert "Dana" not in screen.query_one("#output-text", TextArea).text  # the tabs show it too
            await pilot.press("ctrl+s")
            await settle(pilot)
            saved = eval_repo / "evals" / "cases" / f"{case.id}.yaml"
            assert "Dana" not in saved.read_text(encoding="utf-8")
            assert "suspect(s) left" not in notes(app)
            # A surname kept beside the scrubbed given name: saved (the scrubber let it through), and the
            # save lists it as a suspect left for review.
            output = screen.query_one("#output-text", TextArea)
            output.focus()
            output.move_cursor((0, len("Hi <PERSON_1>")))
            await pilot.press(*" Whitlock", "ctrl+s")
            await settle(pilot)
            assert "Whitlock" in saved.read_text(encoding="utf-8")
            assert "1 suspect(s) left for review: 'Whitlock'" in notes(app)

    asyncio.run(run())
