"""Defects of issue 37 that one widget shows, each in a small app of its own (no promote screen needed):
checked and unchecked boxes render differently without colour, the numbers table shows `0.01` as
`0.01`, and the timeline of an OpenInference turn shows each tool call's args."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from promote.case.model import NumericFigure
from promote.source import read_traces
from tests.conftest import TRACES
from tui.widgets.check_box import CheckBox
from tui.widgets.numbers_tab import NumbersTab
from tui.widgets.turn_timeline import TurnTimeline


class Holding(App):
    def __init__(self, *widgets: Widget) -> None:
        super().__init__()
        self.widgets = widgets

    def compose(self) -> ComposeResult:
        yield from self.widgets


def shown(app: App) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def in_app(*widgets: Widget, size=(100, 30), check) -> None:
    async def run() -> None:
        app = Holding(*widgets)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            check(app)

    asyncio.run(run())


def test_a_checked_box_and_an_unchecked_one_render_differently_without_colour():
    def check(app):
        lines = shown(app).splitlines()
        assert "✓" in lines[0] and "✓" not in lines[1] and "X" not in lines[1]

    in_app(CheckBox("a refusal is expected", True, compact=True),
           CheckBox("a refusal is expected", False, compact=True), size=(40, 4), check=check)


def test_the_numbers_table_shows_a_tolerance_of_0_01_as_written():
    figure = NumericFigure(name="at_risk", value=22.5, unit="h", oracle="ukg-accrual-engine", tolerance=0.01)

    def check(app):
        table = app.query_one(DataTable)
        assert str(table.get_cell("0", "tol")) == "0.01" and str(table.get_cell("0", "value")) == "22.5"
        assert app.query_one("#fig-tolerance", Input).value == "0.01"

    in_app(NumbersTab([figure], []), check=check)


def test_the_timeline_of_an_openinference_turn_shows_each_tool_calls_args():
    [trace, *_] = read_traces([TRACES / "openinference.otlp.jsonl"])
    turn = next(turn for turn in trace.turns if turn.tool_calls)

    def check(app):
        texts = [str(static.content) for static in app.query(".json").results(Static)]
        assert len(texts) >= len(turn.tool_calls)
        for call in turn.tool_calls:
            name, value = next(iter(call.args.items()))
            assert any(f'"{name}": "{value}"' in text for text in texts), (call.name, texts)
        assert not any(text in ("None", "(not recorded in the trace)") for text in texts)

    in_app(TurnTimeline(turn), check=check)
