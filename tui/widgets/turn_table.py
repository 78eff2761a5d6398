"""The table of turns: metadata at once, the scrubbed input snippet when it is ready; sortable.

A virtual table (Textual's line API): only the lines on screen are drawn, each row's line is cached
until that row changes, and adding rows appends to a list. Textual's DataTable measures and re-renders
every visible cell on each change, which blocked frames for hundreds of milliseconds while tens of
thousands of turns streamed in. The header line stays put; the input column takes the spare width.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.turn_rows import TurnRow

COLUMNS = (("mark", "✓"), ("time", "time (UTC)"), ("agent", "agent"), ("input", "input"), ("tools", "tools"),
           ("tokens", "tokens"), ("duration", "ms"), ("errors", "err"))
# Widths of every column but `input`, which takes what is left (at least MIN_INPUT); narrow terminals
# get shorter times, agents and tool lists so that the input snippet stays readable.
WIDE = {"mark": 1, "time": 19, "agent": 18, "tools": 34, "tokens": 6, "duration": 6, "errors": 3}
NARROW = {"mark": 1, "time": 11, "agent": 12, "tools": 16, "tokens": 6, "duration": 6, "errors": 3}
MIN_INPUT = 16
NUMERIC = {"tokens", "duration", "errors"}
PENDING = "scrubbing…"


def _cut(text: str, width: int) -> str:
    return text.ljust(width) if len(text) <= width else text[: width - 1] + "…"


def sort_value(row: TurnRow, column: str) -> Any:
    """What a column sorts by (numbers as numbers; a missing one first)."""
    if column == "mark":
        return bool(row.promoted)
    if column == "time":
        return row.started
    if column == "agent":
        return row.agent.lower()
    if column == "input":
        return (row.snippet or "").lower()
    if column == "tools":
        return ", ".join(row.tools).lower()
    if column == "tokens":
        return row.tokens if row.tokens is not None else -1
    if column == "duration":
        return row.duration_ms if row.duration_ms is not None else -1.0
    return row.errors


class TurnTable(ScrollView, can_focus=True):
    """One row per turn, keyed by `trace_id:turn`; the screen decides which rows are shown."""

    DEFAULT_CSS = """
    TurnTable { background: $surface; }
    TurnTable > .turn-table--header { text-style: bold; background: $panel; }
    TurnTable > .turn-table--cursor { background: $block-cursor-background; color: $block-cursor-foreground;
        text-style: bold; }
    TurnTable:blur > .turn-table--cursor { background: $block-cursor-blurred-background; text-style: none; }
    TurnTable > .turn-table--even { background: $surface-lighten-1; }
    TurnTable > .turn-table--pending { color: $text-muted; text-style: italic; }
    """
    COMPONENT_CLASSES = {"turn-table--header", "turn-table--cursor", "turn-table--even",
                         "turn-table--pending"}
    BINDINGS = [
        Binding("enter", "open", "Open", tooltip="Open the highlighted turn to promote it"),
        Binding("up", "move(-1)", "Up", show=False, tooltip="Previous turn"),
        Binding("down", "move(1)", "Down", show=False, tooltip="Next turn"),
        Binding("pageup", "page(-1)", "Page up", show=False, tooltip="A screen of turns up"),
        Binding("pagedown", "page(1)", "Page down", show=False, tooltip="A screen of turns down"),
        Binding("home", "jump(0)", "First", show=False, tooltip="The first turn"),
        Binding("end", "jump(-1)", "Last", show=False, tooltip="The last turn"),
    ]

    cursor_row: reactive[int] = reactive(0, always_update=True, repaint=False)

    @dataclass
    class Opened(Message):
        """Enter (or a click on the highlighted row) on a turn."""

        key: str

    @dataclass
    class HeaderClicked(Message):
        column: str

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.rows_by_key: dict[str, TurnRow] = {}
        self.order: list[str] = []
        """The keys shown, in display order."""
        self.sort_column: str | None = None
        self.sort_reverse = False
        self.recovering: set[str] = set()
        """Keys of rows with unsaved edits from an earlier run (marked ✎)."""
        self._lines: dict[tuple[str, int, int], Strip] = {}

    # what is shown ------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.order)

    @property
    def current_key(self) -> str | None:
        return self.order[self.cursor_row] if self.order else None

    def cells(self, row: TurnRow) -> list[Text]:
        mark = (Text("✎", style="bold yellow") if row.key in self.recovering else
                Text("●", style="bold green") if row.promoted else Text(""))
        started = row.started if self.size.width >= 120 or len(row.started) < 19 else row.started[5:16]
        return [
            mark, Text(started), Text(row.agent),
            Text(row.snippet) if row.snippet is not None else Text(PENDING, style="dim italic"),
            Text(", ".join(row.tools) or "-"), Text(str(row.tokens) if row.tokens is not None else "-"),
            Text(f"{row.duration_ms:.0f}" if row.duration_ms is not None else "-"),
            Text(str(row.errors), style="bold red") if row.errors else Text(""),
        ]

    def show_rows(self, rows: list[TurnRow]) -> None:
        """Show exactly these rows (after a filter change), keeping the sort and the cursor's row."""
        current = self.current_key
        self.rows_by_key = {row.key: row for row in rows}
        self.order = [row.key for row in rows]
        self._sort()
        self._changed(keep=current)

    def add_turns(self, rows: list[TurnRow]) -> None:
        if not rows:
            return
        current = self.current_key
        for row in rows:
            if row.key not in self.rows_by_key:
                self.order.append(row.key)
            self.rows_by_key[row.key] = row
        if self.sort_column:
            self._sort()
        self._changed(keep=current)

    def update_turn(self, row: TurnRow) -> None:
        if row.key not in self.rows_by_key:
            return
        self.rows_by_key[row.key] = row
        self._forget(row.key)
        self.refresh()  # only this row's line is drawn anew: the others are cached

    def move_cursor(self, row: int) -> None:
        self.cursor_row = row

    def sort_by(self, column: str) -> None:
        """Sort by a column; sorting by it again reverses the order."""
        self.sort_reverse = not self.sort_reverse if self.sort_column == column else False
        self.sort_column = column
        current = self.current_key
        self._sort()
        self._changed(keep=current)

    def _sort(self) -> None:
        if self.sort_column:
            column, rows = self.sort_column, self.rows_by_key
            self.order.sort(key=lambda key: sort_value(rows[key], column), reverse=self.sort_reverse)

    def _changed(self, keep: str | None) -> None:
        self._set_height(len(self.order) + 1)
        self._lines.clear() if len(self._lines) > 4000 else None
        index = self.order.index(keep) if keep in self.rows_by_key and keep is not None else self.cursor_row
        self.cursor_row = index
        self.refresh()

    def _set_height(self, lines: int) -> None:
        """A new virtual height without a layout of the whole screen (`virtual_size` is a layout
        reactive: each batch of rows would cost a frame); the scrollbar is updated directly."""
        size = Size(self.size.width, lines)
        if size != self.virtual_size:
            self.set_reactive(TurnTable.virtual_size, size)
            self._scroll_update(size)
        self.refresh()

    def _forget(self, key: str) -> None:
        for cached in [k for k in self._lines if k[0] == key]:
            del self._lines[cached]

    # the cursor ---------------------------------------------------------------------------------

    def validate_cursor_row(self, row: int) -> int:
        return max(0, min(row, len(self.order) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        for index in (old, new):
            if 0 <= index < len(self.order):
                self._forget(self.order[index])
        visible = max(self.size.height - 1, 1)
        top = int(self.scroll_y)
        if new < top:
            self.scroll_to(y=new, animate=False)
        elif new >= top + visible:
            self.scroll_to(y=new - visible + 1, animate=False)
        self.refresh()

    def action_move(self, step: int) -> None:
        self.cursor_row += step

    def action_page(self, step: int) -> None:
        self.cursor_row += step * max(self.size.height - 2, 1)

    def action_jump(self, row: int) -> None:
        self.cursor_row = row if row >= 0 else len(self.order) - 1

    def action_open(self) -> None:
        if self.order:
            self.post_message(self.Opened(self.order[self.cursor_row]))

    def on_click(self, event: events.Click) -> None:
        if event.y == 0:
            column = self._column_at(event.x + int(self.scroll_x))
            if column is not None:
                self.post_message(self.HeaderClicked(column))
            return
        index = int(self.scroll_y) + event.y - 1
        if 0 <= index < len(self.order):
            if index == self.cursor_row and event.chain >= 2:
                self.action_open()
            self.cursor_row = index

    def on_resize(self, event: events.Resize) -> None:
        self._lines.clear()
        self._set_height(len(self.order) + 1)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()  # a theme change

    # drawing ------------------------------------------------------------------------------------

    def _widths(self) -> dict[str, int]:
        fixed = WIDE if self.size.width >= 120 else NARROW
        spare = self.size.width - sum(fixed.values()) - len(COLUMNS)
        return {**fixed, "input": max(MIN_INPUT, spare)}

    def _column_at(self, x: int) -> str | None:
        left = 0
        widths = self._widths()
        for key, _ in COLUMNS:
            if left <= x < left + widths[key] + 1:
                return key
            left += widths[key] + 1
        return None

    def _line(self, texts: list[Text], base: Style) -> Strip:
        widths = self._widths()
        segments = []
        for (key, _), text in zip(COLUMNS, texts):
            style = Style.parse(text.style) if isinstance(text.style, str) and text.style else text.style
            cell = _cut(text.plain, widths[key])
            segments.append(Segment(cell if key == "mark" else " " + cell, base + style if style else base))
        return Strip(segments).adjust_cell_length(self.size.width, base)

    def render_line(self, y: int) -> Strip:
        scroll_x = int(self.scroll_x)
        width = self.size.width
        if y == 0:
            header = self.get_component_rich_style("turn-table--header")
            line = self._line([Text(label) for _, label in COLUMNS], header)
            return line.crop(scroll_x, scroll_x + width)
        index = int(self.scroll_y) + y - 1
        if index >= len(self.order):
            return Strip.blank(width, self.rich_style)
        key = self.order[index]
        state = 2 if index == self.cursor_row else index % 2
        cached = self._lines.get((key, state, width))
        if cached is None:
            if state == 2:
                base = self.get_component_rich_style("turn-table--cursor")
            elif state == 1:
                base = self.get_component_rich_style("turn-table--even")
            else:
                base = self.rich_style
            cached = self._lines[(key, state, width)] = self._line(self.cells(self.rows_by_key[key]), base)
        return cached.crop(scroll_x, scroll_x + width)
