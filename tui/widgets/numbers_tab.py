"""Numbers: the suggested figures in a table; accept, rename, unit, oracle, tolerance, add, remove.

A draft's figures are suggestions until accepted: only accepted figures are written to the case. The form
under the table edits the highlighted figure; it is filled from the figure only when the highlight moves
to another row, never while the SME types. Text a figure cannot take (`abc` as a tolerance) stays in its
field, is reported up as a problem at that figure, and the figure keeps its last valid value.
"""

from __future__ import annotations

from pydantic import ValidationError
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.suggester import SuggestFromList
from textual.timer import Timer
from textual.widgets import DataTable, Input, Label

from promote.case.model import NumericFigure
from tui.messages import CaseEdited
from tui.widgets.field_input import FieldInput

FORM = ("name", "value", "unit", "oracle", "tolerance")
COLUMNS = {"tolerance": "tol"}


def shown_number(value: float | int) -> str:
    """A figure's number as the case file writes it (`0.01`, `3`, `1e-06`), never rounded."""
    return repr(value) if isinstance(value, float) and not value.is_integer() else f"{value:g}"


def read_field(name: str, text: str) -> tuple[object, str | None]:
    """The form field's text as a figure's value, or what is wrong with it."""
    text = text.strip()
    if name in ("value", "tolerance"):
        try:
            number = float(text)
        except ValueError:
            # The same words on every key (the status line is laid out again when its text changes).
            return None, f"{name} must be a number"
        return (int(number) if number.is_integer() and "." not in text and "e" not in text.lower()
                else number), None
    if name == "unit":
        return text or None, None
    return (text, None) if text else (None, f"{name} cannot be empty")


class NumbersTab(VerticalScroll):
    BINDINGS = [
        Binding("a", "accept", "Accept figure", tooltip="Accept (or un-accept) the highlighted figure"),
        Binding("plus,n", "add", "Add figure", tooltip="Add a figure by hand"),
        Binding("delete", "remove", "Remove figure", tooltip="Remove the highlighted figure"),
    ]

    def __init__(self, accepted: list[NumericFigure], suggested: list[NumericFigure],
                 oracles: list[str] | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.entries: list[list] = [[figure, True] for figure in accepted]
        self.entries += [[figure, False] for figure in suggested if figure not in accepted]
        self.oracles = sorted(set(oracles or []))
        self.texts: dict[tuple[int, str], tuple[str, str]] = {}
        """(entry, form field) → (text, what is wrong) for text the figure could not take."""
        self._form_row: int | None = None
        self._stale_rows: set[int] = set()
        self._table_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Label("a: accept · n: add · delete: remove · edit the highlighted figure below")
        yield DataTable(cursor_type="row", id="numbers-table")
        with Horizontal(id="numbers-form"):
            for name in FORM:
                suggester = SuggestFromList(self.oracles, case_sensitive=False) \
                    if name == "oracle" and self.oracles else None
                yield FieldInput(placeholder=name, id=f"fig-{name}", classes="fig-input", suggester=suggester,
                            tooltip="the oracle of record (right arrow takes the suggestion)"
                            if name == "oracle" else None)
        yield Label("", id="fig-status")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key in ("ok", "name", "value", "unit", "oracle", "tol", "found in"):
            table.add_column(key, key=key)
        self._refresh_table(0)

    def _refresh_table(self, cursor: int | None) -> None:
        self._stale_rows.clear()
        table = self.query_one(DataTable)
        table.clear()
        for index, (figure, accepted) in enumerate(self.entries):
            source = figure.source
            found = "-" if source is None else ("reply (derived)" if source.derived else
                                                f"{source.tool or '?'} {source.path or ''}".strip())
            table.add_row("✓" if accepted else "·", figure.name, shown_number(figure.value),
                          figure.unit or "", figure.oracle, shown_number(figure.tolerance), found,
                          key=str(index))
        if cursor is not None and self.entries:
            table.move_cursor(row=max(0, min(cursor, len(self.entries) - 1)))
        self._fill_form(force=True)

    def _current(self) -> int | None:
        table = self.query_one(DataTable)
        return table.cursor_row if self.entries else None

    def _fill_form(self, force: bool = False) -> None:
        """Show the highlighted figure in the form: only when the highlight moved to another row."""
        index = self._current()
        if index == self._form_row and not force:
            return
        self._form_row = index
        figure = self.entries[index][0] if index is not None else None
        for name in FORM:
            field = self.query_one(f"#fig-{name}", Input)
            value = getattr(figure, name) if figure is not None else None
            text = "" if value is None else (shown_number(value) if name in ("value", "tolerance")
                                             else str(value))
            kept = self.texts.get((index, name)) if index is not None else None
            with field.prevent(Input.Changed):
                field.value = kept[0] if kept else text
            field.set_class(kept is not None, "-invalid")
        self._show_status()

    def _show_status(self) -> None:
        index = self._current()
        wrong = "; ".join(why for (row, _), (_, why) in self.texts.items() if row == index)
        status = self.query_one("#fig-status", Label)
        if str(status.content) != wrong:  # an update lays the screen out again: not on every key
            status.update(wrong)

    def _emit(self) -> None:
        accepted = [index for index, (_, ok) in enumerate(self.entries) if ok]
        position = {index: place for place, index in enumerate(accepted)}
        invalid = {f"numeric[{position[row]}].{name}": why
                   for (row, name), (_, why) in self.texts.items() if row in position}
        self.post_message(CaseEdited("numeric", [self.entries[index][0] for index in accepted], invalid))

    @on(DataTable.RowHighlighted, "#numbers-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._fill_form()

    @on(Input.Changed, ".fig-input")
    def _edited(self, event: Input.Changed) -> None:
        event.stop()
        index = self._current()
        if index is None or index != self._form_row:
            return
        name = (event.input.id or "").removeprefix("fig-")
        value, why = read_field(name, event.value)
        figure, accepted = self.entries[index]
        if why is None:
            try:
                figure = NumericFigure.model_validate({**figure.model_dump(), name: value})
            except ValidationError as exc:
                why = exc.errors()[0]["msg"].removeprefix("Value error, ")
        event.input.set_class(why is not None, "-invalid")
        if why is not None:
            self.texts[(index, name)] = (event.value, why)
        else:
            self.texts.pop((index, name), None)
            self.entries[index][0] = figure
            self._stale_rows.add(index)
            if self._table_timer is not None:
                self._table_timer.stop()
            # The table row follows once typing pauses: a cell update re-measures the whole table.
            self._table_timer = self.set_timer(0.15, self._update_rows, name="figure rows after typing")
        self._show_status()
        if accepted:
            self._emit()

    def show_figure(self, place: int | None, field: str) -> None:
        """Highlight the case's figure `place` (accepted ones count) and focus its `field` in the form."""
        accepted = [index for index, (_, ok) in enumerate(self.entries) if ok]
        table = self.query_one(DataTable)
        if place is not None and place < len(accepted):
            table.move_cursor(row=accepted[place])
            self._fill_form()
        target = self.query(f"#fig-{field}") if field in FORM else None
        (target.first() if target else table).focus()

    def _update_rows(self) -> None:
        table = self.query_one(DataTable)
        for index in sorted(self._stale_rows):
            if index < len(self.entries):
                figure = self.entries[index][0]
                for name in FORM:
                    value = getattr(figure, name)
                    text = shown_number(value) if name in ("value", "tolerance") else (value or "")
                    table.update_cell(str(index), COLUMNS.get(name, name), text)
        self._stale_rows.clear()

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
        self.texts = {(row if row < index else row - 1, name): kept
                      for (row, name), kept in self.texts.items() if row != index}
        self._refresh_table(index)
        self._emit()
