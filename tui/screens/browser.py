"""The trace browser: every turn of the exports in a table that fills while the files stream in.

Two thread workers feed it: the reader posts each trace's metadata as soon as it is rebuilt, the
scrubber posts each trace's scrubbed input snippet (and whether the eval repo already holds the turn).
Enter opens a turn: its trace is scrubbed first if it is not yet, then drafted, then edited.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input

from promote.errors import PromoteError
from tui import seams
from tui.edit_session import EditSession
from tui.messages import LoadProgressed, TurnsRead, TurnsScrubbed
from tui.trace_store import ScrubbedTrace, TraceStore, TurnRow, snippet_updates
from tui.widgets.filter_bar import FilterBar, TurnFilter
from tui.widgets.load_progress import LoadProgress
from tui.widgets.turn_table import COLUMNS, TurnTable

BATCH_SECONDS = 0.05


class BrowserScreen(Screen):
    """Pick the turn to promote."""

    CSS_PATH = "browser.tcss"
    BINDINGS = [
        Binding("slash", "focus_filter", "Filter", tooltip="Type to filter turns by text, agent or tool"),
        Binding("e", "toggle_errors", "Errors only", tooltip="Show only turns with a failed tool call"),
        Binding("s", "sort_next", "Sort", tooltip="Sort by the next column; again to cycle"),
        Binding("r", "sort_reverse", "Reverse", tooltip="Reverse the sort order"),
        Binding("escape", "focus_table", "Table", show=False, tooltip="Back to the table of turns"),
    ]

    def __init__(self, exports: list[Path], repo: seams.EvalRepo | None) -> None:
        super().__init__()
        self.exports = exports
        self.repo = repo
        self.store = TraceStore()
        self.rows: dict[str, TurnRow] = {}
        self.filter = TurnFilter()
        self.traces_read = 0
        self.traces_scrubbed = 0
        self.reading_done = False
        self.scrubbing_done = False
        self.load_error: str | None = None
        self._pending_open: str | None = None
        self._stop = threading.Event()

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield FilterBar(id="filters")
        yield TurnTable(id="turns")
        yield LoadProgress(id="progress")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = ", ".join(path.name for path in self.exports)
        self.query_one(TurnTable).focus()
        self._read()
        self._scrub()

    def on_unmount(self) -> None:
        self._stop.set()

    # workers -------------------------------------------------------------------------------------

    @work(thread=True, group="load", name="read exports")
    def _read(self) -> None:
        batch: list[TurnRow] = []
        sent = time.monotonic()
        try:
            for rows in self.store.read_rows(self.exports):
                if self._stop.is_set():
                    return
                batch += rows
                if not self.rows and not self.traces_read or time.monotonic() - sent > BATCH_SECONDS:
                    self.post_message(TurnsRead(batch))
                    batch, sent = [], time.monotonic()
        except PromoteError as exc:
            self.load_error = str(exc)
            self.store.reading_done = True
        self.post_message(TurnsRead(batch))
        self.reading_done = True
        self._post_progress()

    @work(thread=True, group="load", name="scrub traces")
    def _scrub(self) -> None:
        engine = seams.engine()
        duplicate = self._duplicate_finder()
        done: list[ScrubbedTrace] = []
        sent = time.monotonic()
        while (scrubbed := self.store.scrub_next(engine, self._stop)) is not None:
            done.append(scrubbed)
            wanted = self._pending_open is not None and self._pending_open.startswith(scrubbed.trace.trace_id)
            if wanted or time.monotonic() - sent > BATCH_SECONDS:
                self._post_scrubbed(done, duplicate)
                done, sent = [], time.monotonic()
        self._post_scrubbed(done, duplicate)
        self.scrubbing_done = True
        self._post_progress()

    def _post_scrubbed(self, done: list[ScrubbedTrace], duplicate) -> None:
        updates = [update for item in done for update in snippet_updates(item, duplicate)]
        self.post_message(TurnsScrubbed(updates, done))

    def _duplicate_finder(self):
        if self.repo is None or not self.repo.case_files():
            return None
        memo: dict[tuple[str, tuple[str, ...]], Path | None] = {}

        def find(user_input: str, tools: list[str]) -> Path | None:
            key = (" ".join(user_input.split()), tuple(tools))
            if key not in memo:
                memo[key] = self.repo.find_duplicate(user_input, tools)
            return memo[key]

        return find

    def _post_progress(self) -> None:
        self.post_message(LoadProgressed(len(self.rows), self.traces_read, self.traces_scrubbed,
                                         self.reading_done, self.scrubbing_done, self.load_error))

    # messages from the workers -----------------------------------------------------------------

    def on_turns_read(self, message: TurnsRead) -> None:
        table = self.query_one(TurnTable)
        self.traces_read += len({row.trace_id for row in message.rows})
        for row in message.rows:
            self.rows[row.key] = row
        table.add_turns([row for row in message.rows if self._shown(row)])
        self._offer_choices()
        self._show_progress()

    def on_turns_scrubbed(self, message: TurnsScrubbed) -> None:
        table = self.query_one(TurnTable)
        self.traces_scrubbed += len(message.traces)
        for key, snippet, promoted in message.updates:
            row = self.rows.get(key)
            if row is None:
                continue
            from dataclasses import replace

            row = self.rows[key] = replace(row, snippet=snippet, promoted=promoted)
            if self.filter.text and not self._shown(row):
                continue
            table.update_turn(row)
        if self.filter.text:
            self._refilter()
        self._show_progress()
        if self._pending_open is not None:
            trace_id = self.rows[self._pending_open].trace_id
            if self.store.scrubbed(trace_id) is not None:
                key, self._pending_open = self._pending_open, None
                self._draft(key)

    def on_load_progressed(self, message: LoadProgressed) -> None:
        self.query_one(LoadProgress).show(message.turns, message.traces, message.scrubbed,
                                          message.reading_done, message.scrubbing_done, message.error)
        if message.error:
            self.notify(message.error, title="cannot read", severity="error")

    def _show_progress(self) -> None:
        self.query_one(LoadProgress).show(len(self.rows), self.traces_read, self.traces_scrubbed,
                                          self.reading_done, self.scrubbing_done, self.load_error)

    # filtering and sorting ---------------------------------------------------------------------

    def _shown(self, row: TurnRow) -> bool:
        f = self.filter
        return row.matches(f.text, f.agent, f.tool, f.errors_only)

    def _offer_choices(self) -> None:
        agents = {row.agent for row in self.rows.values()}
        tools = {tool for row in self.rows.values() for tool in row.tools}
        self.query_one(FilterBar).set_choices(sorted(agents), sorted(tools))

    def _refilter(self) -> None:
        self.query_one(TurnTable).show_rows([row for row in self.rows.values() if self._shown(row)])

    @on(FilterBar.Changed)
    def _filter_changed(self, event: FilterBar.Changed) -> None:
        self.filter = event.filter
        self._refilter()

    @on(DataTable.HeaderSelected)
    def _header_selected(self, event: DataTable.HeaderSelected) -> None:
        self.query_one(TurnTable).sort_by(str(event.column_key.value))

    def action_focus_filter(self) -> None:
        self.query_one("#filter-text", Input).focus()

    def action_focus_table(self) -> None:
        self.query_one(TurnTable).focus()

    def action_toggle_errors(self) -> None:
        box = self.query_one("#filter-errors")
        box.value = not box.value

    def action_sort_next(self) -> None:
        table = self.query_one(TurnTable)
        keys = [key for key, _ in COLUMNS]
        following = keys[(keys.index(table.sort_column) + 1) % len(keys)] if table.sort_column else "time"
        table.sort_by(following)
        self.notify(f"sorted by {dict(COLUMNS)[following]}", timeout=2)

    def action_sort_reverse(self) -> None:
        table = self.query_one(TurnTable)
        table.sort_by(table.sort_column or "time") if table.sort_column else table.sort_by("time")

    # opening a turn ----------------------------------------------------------------------------

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        key = str(event.row_key.value)
        row = self.rows[key]
        if not row.has_input:
            self.notify("this turn was exported without message content: nothing to draft from",
                        severity="warning")
            return
        if self.store.scrubbed(row.trace_id) is None:
            self._pending_open = key
            self.store.want(row.trace_id)
            self.notify("scrubbing this trace first…", timeout=3)
            return
        self._draft(key)

    @work(thread=True, group="draft", exclusive=True, name="draft turn")
    def _draft(self, key: str) -> None:
        row = self.rows[key]
        scrubbed = self.store.scrubbed(row.trace_id)
        assert scrubbed is not None
        try:
            session = EditSession.from_draft(scrubbed, row.turn, repo=self.repo, by=self.app.by,
                                             now=self.app.now)
        except PromoteError as exc:
            self.app.call_from_thread(self.notify, str(exc), title="cannot draft", severity="error")
            return
        self.app.call_from_thread(self.app.open_session, session)
