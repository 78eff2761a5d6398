"""The trace browser: every turn of the exports in a table that fills while the files stream in.

A loader process (`tui.loader`) reads and scrubs through `promote.source`; a thread worker relays what
it sends (`tui.pipe` messages): each trace's rows as soon as it is read, then each trace scrubbed, with
its rows' input snippets (and whether the eval repo already holds the turn). Raw text stays in the loader
process: this screen only transports and shows.
Enter opens a turn: its trace is scrubbed first if it is not yet, then drafted, then edited.

Only what the first rows need loads in this process before them; the eval repo (and with it the case
model) only when a turn opens. The loader says which turns have unsaved edits from an earlier run (✎).
"""

from __future__ import annotations

import gc
import threading
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, Input

from promote.errors import PromoteError
from tui.loader import Loader
from tui.messages import LoadProgressed, RecoveriesPending, TurnsRead, TurnsScrubbed
from tui.pipe import LoadFailed, ReadDone, RecoveriesFound, RowsRead, TracesScrubbed
from tui.turn_rows import TurnRow
from tui.widgets.filter_bar import FilterBar, TurnFilter
from tui.widgets.load_progress import LoadProgress
from tui.widgets.turn_table import COLUMNS, TurnTable

if TYPE_CHECKING:
    from promote.source.scrub import ScrubbedTrace
    from tui import seams

FLUSH_SECONDS = 0.5


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

    def __init__(self, exports: list[Path], repo_start: Path, loader: Loader | None = None,
                 repo: seams.EvalRepo | None = None) -> None:
        """`repo_start`: where the eval repo is looked for; `repo`: the eval repo, when already found."""
        super().__init__()
        self.exports = exports
        self.repo_start = repo_start
        self.repo = repo
        self._repo_lock = threading.Lock()
        self.loader: Loader | None = loader
        self.scrubbed: dict[str, ScrubbedTrace] = {}
        self.saved: dict[str, str] = {}
        """Row key → the case file a session of this run saved for it (the row is then promoted)."""
        self._new_rows: list[TurnRow] = []
        self._changed_keys: set[str] = set()
        self.agents: set[str] = set()
        self.tools: set[str] = set()
        self.rows: dict[str, TurnRow] = {}
        self.filter = TurnFilter()
        self.traces_read = 0
        self.traces_scrubbed = 0
        self.reading_done = False
        self.scrubbing_done = False
        self.load_error: str | None = None
        self._pending_open: str | None = None
        self.pending: set[str] = set()
        """Sources with a recovery file (`trace:<id>:<turn>`, `case:<path>`)."""
        self._announced: set[str] = set()
        self._stop = threading.Event()

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield FilterBar(id="filters")
        yield TurnTable(id="turns")
        yield LoadProgress(id="progress")
        yield Footer(compact=True)  # every key fits in 80 columns; the palette has them all

    def on_mount(self) -> None:
        self.sub_title = ", ".join(path.name for path in self.exports)
        self.query_one(TurnTable).focus()
        self.set_interval(FLUSH_SECONDS, self._flush, name="flush loaded turns")
        self._load()

    def on_unmount(self) -> None:
        self._stop.set()
        if self.loader is not None:
            self.loader.stop()

    # the loader ------------------------------------------------------------------------------

    @work(thread=True, group="load", name="load exports")
    def _load(self) -> None:
        """Relay the loader process's messages to this screen (the thread mostly waits on a pipe)."""
        if self.loader is None:
            self.loader = Loader(self.exports, self.repo_start)
        for message in self.loader.messages():
            if self._stop.is_set():
                break
            if isinstance(message, RowsRead):
                self.post_message(TurnsRead(message.rows))
            elif isinstance(message, TracesScrubbed):
                self.post_message(TurnsScrubbed(message.updates, message.traces))
            elif isinstance(message, RecoveriesFound):
                self.post_message(RecoveriesPending(message.sources))
            elif isinstance(message, LoadFailed):
                self.load_error = message.error
                self._post_progress()
            elif isinstance(message, ReadDone):
                self.reading_done = True
                self._post_progress()
        self.scrubbing_done = True
        self._post_progress()
        self.loader.stop()

    def eval_repo(self) -> seams.EvalRepo:
        """The eval repo, found on first use (in the worker opening a turn: it imports the case model)."""
        with self._repo_lock:
            if self.repo is None:
                from tui import seams

                self.repo = seams.EvalRepo.find(self.repo_start)
            return self.repo

    def on_recoveries_pending(self, message: RecoveriesPending) -> None:
        self.pending = pending = set(message.sources)
        table = self.query_one(TurnTable)
        table.recovering |= {source.removeprefix("trace:") for source in pending
                             if source.startswith("trace:")}
        # Rows promoted before this arrived: their case may be the one with unsaved edits.
        table.recovering |= {key for key, row in self.rows.items()
                             if row.promoted and f"case:{Path(row.promoted).resolve()}" in pending}
        self._changed_keys |= table.recovering & self.rows.keys()
        self._flush()

    def _post_progress(self) -> None:
        self.post_message(LoadProgressed(len(self.rows), self.traces_read, self.traces_scrubbed,
                                         self.reading_done, self.scrubbing_done, self.load_error))

    # messages from the workers -----------------------------------------------------------------

    # Every change to the table costs a re-render of its visible rows (its render caches are all
    # dropped), so what the loader sends is applied at most every FLUSH_SECONDS, the first rows at once.

    def on_turns_read(self, message: TurnsRead) -> None:
        self.traces_read += len({row.trace_id for row in message.rows})
        for row in message.rows:
            self.rows[row.key] = row
        self._new_rows += message.rows
        if not self.query_one(TurnTable).row_count:
            self._flush()

    def on_turns_scrubbed(self, message: TurnsScrubbed) -> None:
        self.traces_scrubbed += len(message.traces)
        for done in message.traces:
            self.scrubbed[done.trace.trace_id] = done
        for update in message.updates:
            key = update.key
            row = self.rows.get(key)
            if row is not None:
                promoted = self.saved.get(key, update.promoted)
                self.rows[key] = replace(row, snippet=update.snippet, promoted=promoted)
                self._changed_keys.add(key)
                if promoted and f"case:{Path(promoted).resolve()}" in self.pending:
                    self.query_one(TurnTable).recovering.add(key)
        if self._pending_open is not None:
            trace_id = self.rows[self._pending_open].trace_id
            if trace_id in self.scrubbed:
                key, self._pending_open = self._pending_open, None
                self._show_progress()
                self._open_when_ready(key)

    def _flush(self) -> None:
        if not self._new_rows and not self._changed_keys:
            return
        # What was loaded lives until the app ends: moved out of the collector's sight, so that its
        # full collections (hundreds of ms with tens of thousands of rows and traces) stop blocking frames.
        gc.freeze()
        table = self.query_one(TurnTable)
        new, self._new_rows = self._new_rows, []
        changed, self._changed_keys = self._changed_keys, set()
        table.add_turns([self.rows[row.key] for row in new if self._shown(self.rows[row.key])])
        marked = {key for key in table.recovering if key in self.rows} - self._announced
        if marked:
            # Said only for rows that are listed and marked (a recovery of another export's turn is not).
            self._announced |= marked
            self.notify(f"unsaved edits of {len(marked)} turn(s) from an earlier run: marked ✎, "
                        "open one to recover them", timeout=8)
        self._offer_choices(new)
        if self.filter.text:
            self._refilter()  # a snippet that arrived may match the filter now
        else:
            for key in changed:
                table.update_turn(self.rows[key])
        self._show_progress()

    def on_load_progressed(self, message: LoadProgressed) -> None:
        # The counts are this screen's own (kept on this thread as the messages before it were handled),
        # not the message's: those were read on the relay thread, possibly behind.
        self._flush()
        self._show_progress()
        if message.error:
            self.notify(message.error, title="cannot read", severity="error")

    def _show_progress(self) -> None:
        self.query_one(LoadProgress).show(len(self.rows), self.traces_read, self.traces_scrubbed,
                                          self.reading_done, self.scrubbing_done, self.load_error,
                                          waiting=self._pending_open is not None)

    # filtering and sorting ---------------------------------------------------------------------

    def _shown(self, row: TurnRow) -> bool:
        f = self.filter
        return row.matches(f.text, f.agent, f.tool, f.errors_only)

    def _offer_choices(self, rows: list[TurnRow]) -> None:
        before = (len(self.agents), len(self.tools))
        self.agents.update(row.agent for row in rows)
        self.tools.update(tool for row in rows for tool in row.tools)
        if (len(self.agents), len(self.tools)) != before:
            self.query_one(FilterBar).set_choices(sorted(self.agents), sorted(self.tools))

    def _refilter(self) -> None:
        self.query_one(TurnTable).show_rows([row for row in self.rows.values() if self._shown(row)])

    @on(FilterBar.Changed)
    def _filter_changed(self, event: FilterBar.Changed) -> None:
        self.filter = event.filter
        self._refilter()

    @on(TurnTable.HeaderClicked)
    def _header_selected(self, event: TurnTable.HeaderClicked) -> None:
        self.query_one(TurnTable).sort_by(event.column)

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

    @on(TurnTable.Opened)
    def _row_selected(self, event: TurnTable.Opened) -> None:
        key = event.key
        row = self.rows[key]
        if not row.has_input:
            self.notify("this turn was exported without message content: nothing to draft from",
                        severity="warning")
            return
        if row.trace_id not in self.scrubbed:
            self._pending_open = key
            if self.loader is not None:
                self.loader.want(row.trace_id)
            self.notify("this trace is scrubbed first: the turn opens as soon as it is ready "
                        "(move to another row to cancel)", title="scrubbing…", timeout=4)
            self._show_progress()  # and says so under the table until it is
            return
        self._open(key)

    def _open_when_ready(self, key: str) -> None:
        """A turn asked for before its trace was scrubbed: opened only if the SME still waits on it."""
        table = self.query_one(TurnTable)
        # Still on that row, in the table: typing elsewhere meanwhile (the filter) is never taken over.
        waiting = self.app.screen is self and self.focused is table and table.current_key == key
        if waiting:
            self._open(key)
        else:
            self.notify("the turn you asked for is scrubbed: Enter opens it", timeout=5)

    def mark_saved(self, source: str, path: Path) -> None:
        """A session saved the case of a turn: its row is promoted (Enter opens that case from now on)."""
        key = source.removeprefix("trace:")
        if source.startswith("trace:") and key in self.rows:
            self.saved[key] = str(path)
            self.rows[key] = replace(self.rows[key], promoted=str(path))
            self._changed_keys.add(key)

    @work(thread=True, group="draft", exclusive=True, name="open turn")
    def _open(self, key: str) -> None:
        # the editor loads with the first turn opened, here off the UI thread, not at start
        import tui.screens.promote  # noqa: F401
        from tui.edit_session import EditSession

        row = self.rows[key]
        scrubbed = self.scrubbed[row.trace_id]
        try:
            if row.promoted and Path(row.promoted).is_file():
                # Already promoted: edit that case (as `promote draft` keeps it unless --force), never
                # a second draft of the same turn.
                session = EditSession.from_file(Path(row.promoted), repo=self.eval_repo(),
                                                turn=scrubbed.trace.turns[row.turn],
                                                known_values=scrubbed.fingerprints)
            else:
                session = EditSession.from_draft(scrubbed, row.turn, repo=self.eval_repo(), by=self.app.by,
                                                 now=self.app.now)
        except PromoteError as exc:
            self.app.call_from_thread(self.notify, str(exc), title="cannot open the turn", severity="error")
            return
        self.app.call_from_thread(self.app.open_session, session)
