"""How far loading is: turns read, traces scrubbed, and a bar while there is work left.

One line drawn by `render` alone: a change repaints this line and never asks the screen for a new
layout (a `Label.update` does, and on a screen with a big table that costs a frame each time).
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

BAR = 20


class LoadProgress(Widget):
    """A line under the table; the bar shows scrubbing progress and goes once everything is done."""

    DEFAULT_CSS = "LoadProgress { height: 1; }"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = "reading…"
        self.fraction: float | None = 0.0

    def show(self, turns: int, traces: int, scrubbed: int, reading_done: bool, scrubbing_done: bool,
             error: str | None = None, waiting: bool = False) -> None:
        """`waiting`: a turn was opened before its trace was scrubbed (said until it is)."""
        stage = "read" if reading_done else "reading…"
        text = f"{turns} turn(s) {stage} · {scrubbed}/{traces} trace(s) scrubbed"
        if waiting:
            text = f"scrubbing… the turn you opened opens when its trace is ready · {text}"
        if error:
            text += f" · {error}"
        fraction = None if reading_done and scrubbing_done else scrubbed / max(traces, 1)
        if (text, fraction) != (self.text, self.fraction):
            self.text, self.fraction = text, fraction
            self.refresh()

    def render(self) -> Text:
        line = Text(self.text, style="dim" if self.fraction is None else "", no_wrap=True,
                    overflow="ellipsis")
        if self.fraction is not None:
            done = round(self.fraction * BAR)
            line.append("  ")
            line.append("━" * done, style="bold green")
            line.append("━" * (BAR - done), style="grey37")
        return line
