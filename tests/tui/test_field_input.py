"""The editor's one-line field: a key repaints the field and lays nothing out (Textual's `Input` lays the
whole screen out on every key, ~10 ms a key on the promote screen); the text still scrolls to the cursor;
`-invalid` stays as the tab that reads the field set it (Textual's `Input` clears it on every key)."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.widgets import Input, Label

from tests.tui.conftest import type_fast
from tui.widgets.field_input import FieldInput

TYPED = "ukg-accrual-engine.v2/abcdefghijklmnopqr"


class OneField(App):
    CSS = "#field { width: 16; }"

    def __init__(self, kind: type[Input]) -> None:
        super().__init__()
        self.kind = kind

    def compose(self) -> ComposeResult:
        yield Label("a label above")
        yield self.kind(id="field")


async def type_and_count_layouts(kind: type[Input]) -> tuple[int, str, bool, str]:
    """Layouts of the screen while typing TYPED into a field the tab has marked `-invalid`; what the
    field shows then, whether it is still marked, and its value."""
    app = OneField(kind)
    async with app.run_test(size=(40, 6)) as pilot:
        field = app.query_one("#field", Input)
        field.focus()
        field.set_class(True, "-invalid")  # as a tab marks text the case cannot take
        await pilot.pause()
        layouts = []
        screen = app.screen
        original = screen._refresh_layout
        screen._refresh_layout = lambda *a, **k: (layouts.append(1), original(*a, **k))[1]
        await type_fast(pilot, TYPED, interval=0.002)
        await pilot.pause()
        line = "".join(segment.text for segment in field.render_line(0))
        return len(layouts), line, field.has_class("-invalid"), field.value


def test_a_key_lays_nothing_out_and_the_text_scrolls_to_the_cursor():
    plain_layouts, _, plain_invalid, _ = asyncio.run(type_and_count_layouts(Input))
    assert plain_layouts >= 3 and not plain_invalid  # what the widget is for: Textual's Input does both
    layouts, line, invalid, value = asyncio.run(type_and_count_layouts(FieldInput))
    assert (layouts, value) == (0, TYPED)
    assert "lmnopq" in line and "ukg" not in line  # scrolled: the end of the text is shown, by the cursor
    assert invalid  # the tab's mark stays until the tab clears it
