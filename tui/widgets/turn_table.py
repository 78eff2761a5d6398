"""The table of turns: metadata at once, the scrubbed input snippet when it is ready; sortable."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable

from tui.trace_store import TurnRow

COLUMNS = (("mark", "✓"), ("time", "time (UTC)"), ("agent", "agent"), ("input", "input"), ("tools", "tools"),
           ("tokens", "tokens"), ("duration", "ms"), ("errors", "err"))
# Every column has a width: the table then never measures cells, and long text is cut once, here.
WIDTHS = {"mark": 1, "time": 19, "agent": 18, "input": 44, "tools": 34, "tokens": 6, "duration": 6, "errors": 3}
PENDING = Text("scrubbing…", style="dim italic")


def _cut(text: str, width: int) -> Text:
    """Plain text cut to the column (a `str` cell would be read as Rich markup)."""
    return Text(text if len(text) <= width else text[: width - 1] + "…", no_wrap=True)


def _plain(cell: Any) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


def _number(cell: Any) -> float:
    try:
        return float(_plain(cell))
    except ValueError:
        return -1.0


NUMERIC = {"tokens", "duration", "errors"}


class TurnTable(DataTable):
    """One row per turn, keyed by `trace_id:turn`; the screen decides which rows are shown."""

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.rows_by_key: dict[str, TurnRow] = {}
        self.sort_column: str | None = None
        self.sort_reverse = False
        self.recovering: set[str] = set()
        """Keys of rows with unsaved edits from an earlier run (marked ✎)."""

    def on_mount(self) -> None:
        for key, label in COLUMNS:
            self.add_column(label, key=key, width=WIDTHS.get(key))

    def cells(self, row: TurnRow) -> list[Any]:
        mark = (Text("✎", style="bold yellow") if row.key in self.recovering else
                Text("●", style="bold green") if row.promoted else "")
        tools = _cut(", ".join(row.tools) or "-", WIDTHS["tools"])
        return [
            mark, row.started, _cut(row.agent, WIDTHS["agent"]),
            _cut(row.snippet, WIDTHS["input"]) if row.snippet is not None else PENDING,
            tools, str(row.tokens) if row.tokens is not None else "-",
            f"{row.duration_ms:.0f}" if row.duration_ms is not None else "-",
            Text(str(row.errors), style="bold red") if row.errors else "",
        ]

    def show_rows(self, rows: list[TurnRow]) -> None:
        """Show exactly these rows (after a filter change), keeping the sort and the cursor's row."""
        current = self.current_key
        self.clear()
        self.rows_by_key = {}
        self.add_turns(rows)
        if current in self.rows_by_key:
            self.move_cursor(row=self.get_row_index(current))

    def add_turns(self, rows: list[TurnRow]) -> None:
        for row in rows:
            self.rows_by_key[row.key] = row
            self.add_row(*self.cells(row), key=row.key)
        if rows and self.sort_column:
            self._apply_sort()

    def update_turn(self, row: TurnRow) -> None:
        if row.key not in self.rows_by_key:
            return
        self.rows_by_key[row.key] = row
        cells = self.cells(row)
        self.update_cell(row.key, "input", cells[3])
        self.update_cell(row.key, "mark", cells[0])

    @property
    def current_key(self) -> str | None:
        if not self.row_count:
            return None
        key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return key.value

    def sort_by(self, column: str) -> None:
        """Sort by a column; sorting by it again reverses the order."""
        self.sort_reverse = not self.sort_reverse if self.sort_column == column else False
        self.sort_column = column
        self._apply_sort()

    def _apply_sort(self) -> None:
        column = self.sort_column
        convert = _number if column in NUMERIC else _plain
        self.sort(column, key=convert, reverse=self.sort_reverse)
