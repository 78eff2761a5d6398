"""How far loading is: turns read, traces scrubbed, and a bar while there is work left."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar


class LoadProgress(Horizontal):
    """A line under the table; the bar shows scrubbing progress and goes once everything is done."""

    def compose(self) -> ComposeResult:
        yield Label("reading…", id="load-label")
        yield ProgressBar(total=None, show_eta=False, id="load-bar")

    def show(self, turns: int, traces: int, scrubbed: int, reading_done: bool, scrubbing_done: bool,
             error: str | None = None) -> None:
        stage = "read" if reading_done else "reading…"
        text = f"{turns} turn(s) {stage} · {scrubbed}/{traces} trace(s) scrubbed"
        if error:
            text += f" · {error}"
        self.query_one("#load-label", Label).update(text)
        bar = self.query_one("#load-bar", ProgressBar)
        bar.update(total=max(traces, 1), progress=scrubbed)
        bar.display = not (reading_done and scrubbing_done)
