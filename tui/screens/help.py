"""The help screen: every binding of the screen underneath and of the app, with what it does."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

INTRO = ("Keyboard first: Tab moves between fields, Enter opens or picks, ctrl+p opens the command palette "
         "(every command below is there too). Mouse works as well.")


def _bindings(owner: object) -> list[Binding]:
    found = []
    for item in getattr(owner, "BINDINGS", []):
        if isinstance(item, Binding):
            found.append(item)
    return found


class HelpScreen(ModalScreen[None]):
    CSS_PATH = "help.tcss"
    BINDINGS = [Binding("escape,f1,q", "dismiss_help", "Close help", tooltip="Back to where you were")]

    def compose(self) -> ComposeResult:
        stack = [screen for screen in self.app.screen_stack if screen is not self]
        below = stack[-1] if stack else None
        table = Table(show_header=True, header_style="bold", expand=True, box=None)
        table.add_column("key", no_wrap=True)
        table.add_column("does")
        sources = [below, *self._focused_chain(below), self.app]
        seen: set[str] = set()
        for source in sources:
            for binding in _bindings(source):
                if binding.key in seen or not binding.description:
                    continue
                seen.add(binding.key)
                table.add_row(binding.key_display or binding.key, binding.tooltip or binding.description)
        with VerticalScroll(id="help-body"):
            yield Static(INTRO, id="help-intro")
            yield Static(table, id="help-keys")

    @staticmethod
    def _focused_chain(screen: object) -> list[object]:
        focused = getattr(screen, "focused", None)
        chain = []
        while focused is not None and focused is not screen:
            chain.append(focused)
            focused = focused.parent
        return chain

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
