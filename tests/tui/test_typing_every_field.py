"""0 lost or reordered keys typing 40 characters at 20 ms a key into every text field of the promote screen
(issue 37's goal): the fields test_edit_loop does not type into. What a field cannot take (letters in a
number, text that is not JSON) stays in the field as typed and is a problem at it; the rest reaches the
case."""

from __future__ import annotations

import asyncio

from textual.widgets import Input

from tests.tui.conftest import make_promote_app, settle, type_fast
from tests.tui.test_edit_loop import TYPED, open_rule_row

# (tab, selector, where the case keeps the text, or the problem's field when the case cannot take it)
FIELDS = [
    ("basics", "#basics-agent", lambda case: case.agent),
    ("basics", "#basics-tier", lambda case: case.tier),
    ("basics", "#basics-datasets", lambda case: ",".join(case.datasets)),
    ("basics", "#basics-metadata TextArea", "metadata"),
    ("tools", "#tool-args TextArea", "expected_tools.calls[1].args"),
    ("numbers", "#fig-value", "numeric[0].value"),
    ("numbers", "#fig-tolerance", "numeric[0].tolerance"),
    ("safety", "#safety-scope", lambda case: case.safety.must_not[0].scope),
    ("entities", "#entity-handle-text", lambda case: case.entities[0].handle),
    ("entities", "#tenant-id", lambda case: case.tenant.id),
    ("entities", "#entity-params TextArea", "params"),
]


def test_every_other_text_field_keeps_every_key(eval_repo, carryover_trace):
    async def run() -> None:
        app = make_promote_app(eval_repo, carryover_trace)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            screen = app.screen
            screen.query_one("#case-tabs").active = "numbers"
            await settle(pilot)
            screen.query_one("#numbers-table").focus()
            await pilot.press("a")  # an accepted figure, so the form edits the case
            wrong = {}
            for tab, selector, kept in FIELDS:
                if tab == "tools":
                    await open_rule_row(pilot, screen)
                else:
                    screen.query_one("#case-tabs").active = tab
                    await settle(pilot)
                widget = screen.query_one(selector)
                widget.focus()
                if isinstance(widget, Input):
                    widget.value = ""
                else:
                    widget.clear()
                await settle(pilot)
                await type_fast(pilot, TYPED)
                await settle(pilot)
                shown = widget.value if isinstance(widget, Input) else widget.text
                if isinstance(kept, str):
                    held = TYPED if kept in screen.session.invalid else screen.session.invalid
                else:
                    held = kept(screen.session.case)
                if (shown, held) != (TYPED, TYPED):
                    wrong[selector] = (shown, held)
            assert wrong == {}

    asyncio.run(run())
