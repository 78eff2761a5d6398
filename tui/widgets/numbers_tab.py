"""Numbers: the suggested figures in a table; accept, rename, unit, oracle, tolerance, add, remove.

A draft's figures are suggestions until accepted: only accepted figures are written to the case.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Input, Label

from promote.case.model import NumericFigure
from tui.messages import CaseEdited

FORM = ("name", "value", "unit", "oracle", "tolerance")


class NumbersTab(VerticalScroll):
    BINDINGS = [
        Binding("a", "accept", "Accept figure", tooltip="Accept (or un-accept) the highlighted figure"),
        Binding("plus,n", "add", "Add figure", tooltip="Add a figure by hand"),
        Binding("delete", "remove", "Remove figure", tooltip="Remove the highlighted figure"),
    ]

    def __init__(self, accepted: list[NumericFigure], suggested: list[NumericFigure], **kwargs) -> None:
        super().__init__(**kwargs)
        self.entries: list[list] = [[figure, True] for figure in accepted]
        self.entries += [[figure, False] for figure in suggested if figure not in accepted]

    def compose(self) -> ComposeResult:
        yield Label("a: accept · n: add · delete: remove · edit the highlighted figure below")
        yield DataTable(cursor_type="row", id="numbers-table")
        with Horizontal(id="numbers-form"):
            for name in FORM:
                yield Input(placeholder=name, id=f"fig-{name}", classes="fig-input")
        yield Label("", id="fig-status")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key in ("ok", "name", "value", "unit", "oracle", "tol", "found in"):
            table.add_column(key, key=key)
        self._refresh_table(0)

    def _refresh_table(self, cursor: int | None) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for index, (figure, accepted) in enumerate(self.entries):
            source = figure.source
            found = "-" if source is None else ("reply (derived)" if source.derived else
                                                f"{source.tool or '?'} {source.path or ''}".strip())
            table.add_row("✓" if accepted else "·", figure.name, f"{figure.value:g}", figure.unit or "",
                          figure.oracle, f"{figure.tolerance:g}", found, key=str(index))
        if cursor is not None and self.entries:
            table.move_cursor(row=max(0, min(cursor, len(self.entries) - 1)))
        self._fill_form()

    def _current(self) -> int | None:
        table = self.query_one(DataTable)
        return table.cursor_row if self.entries else None

    def _fill_form(self) -> None:
        index = self._current()
        figure = self.entries[index][0] if index is not None else None
        for name in FORM:
            field = self.query_one(f"#fig-{name}", Input)
            value = getattr(figure, name) if figure is not None else None
            with field.prevent(Input.Changed):
                field.value = "" if value is None else (
                    f"{value:g}" if isinstance(value, float) else str(value))

    def _emit(self) -> None:
        self.post_message(CaseEdited("numeric", [figure for figure, accepted in self.entries if accepted]))

    @on(DataTable.RowHighlighted, "#numbers-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._fill_form()

    @on(Input.Changed, ".fig-input")
    def _edited(self, event: Input.Changed) -> None:
        event.stop()
        index = self._current()
        if index is None:
            return
        name = (event.input.id or "").removeprefix("fig-")
        text = event.value.strip()
        status = self.query_one("#fig-status", Label)
        update: dict = {}
        if name in ("value", "tolerance"):
            try:
                number = float(text)
            except ValueError:
                status.update(f"{name} must be a number")
                return
            update[name] = int(number) if number.is_integer() and "." not in text else number
        elif name == "unit":
            update[name] = text or None
        elif text:
            update[name] = text
        else:
            status.update(f"{name} cannot be empty")
            return
        status.update("")
        figure, accepted = self.entries[index]
        self.entries[index][0] = figure.model_copy(update=update)
        table = self.query_one(DataTable)
        column = {"tolerance": "tol"}.get(name, name)
        shown = update[name]
        table.update_cell(str(index), column, f"{shown:g}" if isinstance(shown, float) else (shown or ""))
        if accepted:
            self._emit()

    def action_accept(self) -> None:
        index = self._current()
        if index is None:
            return
        self.entries[index][1] = not self.entries[index][1]
        self.query_one(DataTable).update_cell(str(index), "ok", "✓" if self.entries[index][1] else "·")
        self._emit()

    def action_add(self) -> None:
        number = len(self.entries) + 1
        self.entries.append([NumericFigure(name=f"figure_{number}", value=0, oracle="unassigned",
                                           tolerance=0),
                             True])
        self._refresh_table(len(self.entries) - 1)
        self._emit()
        self.query_one("#fig-name", Input).focus()

    def action_remove(self) -> None:
        index = self._current()
        if index is None:
            return
        del self.entries[index]
        self._refresh_table(index)
        self._emit()
