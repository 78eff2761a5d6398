"""The browser's filters: text, agent, tool, errors only. Posts `FilterBar.Changed` to its screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Checkbox, Input, Select


@dataclass(frozen=True)
class TurnFilter:
    text: str = ""
    agent: str | None = None
    tool: str | None = None
    errors_only: bool = False


class FilterBar(Horizontal):
    """Filter inputs in one row; the screen gives it the agents and tools seen so far."""

    @dataclass
    class Changed(Message):
        filter: TurnFilter

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._agents: tuple[str, ...] = ()
        self._tools: tuple[str, ...] = ()
        self._offered: tuple[list[str], list[str]] | None = None

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter text (/)", id="filter-text")
        yield Select[str]([], prompt="any agent", id="filter-agent")
        yield Select[str]([], prompt="any tool", id="filter-tool")
        yield Checkbox("errors only", id="filter-errors")

    def set_choices(self, agents: list[str], tools: list[str]) -> None:
        """Offer these agents and tools (called as turns stream in; a chosen value is kept).

        A Select's options are rebuilt only when one of them is focused (or at once when one is):
        rebuilding them lays the screen out again, a frame lost each time while turns stream in."""
        self._offered = (agents, tools)
        if isinstance(self.screen.focused, Select):
            self._apply_choices()

    def on_descendant_focus(self, event) -> None:
        if isinstance(event.widget, Select) and self._offered is not None:
            self._apply_choices()

    def _apply_choices(self) -> None:
        agents, tools = self._offered or ((), ())
        for select, known, new in ((self.query_one("#filter-agent", Select), "_agents", agents),
                                   (self.query_one("#filter-tool", Select), "_tools", tools)):
            choices = tuple(sorted(new))
            if choices == getattr(self, known):
                continue
            setattr(self, known, choices)
            value = select.value
            with select.prevent(Select.Changed):
                select.set_options([(choice, choice) for choice in choices])
                if value in choices:
                    select.value = value

    @property
    def filter(self) -> TurnFilter:
        agent = self.query_one("#filter-agent", Select).value
        tool = self.query_one("#filter-tool", Select).value
        return TurnFilter(
            text=self.query_one("#filter-text", Input).value.strip(),
            agent=agent if isinstance(agent, str) else None,
            tool=tool if isinstance(tool, str) else None,
            errors_only=self.query_one("#filter-errors", Checkbox).value,
        )

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _changed(self, event: Message) -> None:
        event.stop()
        self.post_message(self.Changed(self.filter))
