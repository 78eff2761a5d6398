"""Tools: each call from the trace, included or not, in order; the order mode; the selected call's editor."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, OptionList, Select
from textual.widgets.option_list import Option

from promote.case.model import ExpectedToolCall, ExpectedTools
from tui.messages import CaseEdited
from tui.widgets.tool_call_editor import EditorTexts, ToolCallEditor

ORDERS = ("in_order", "any_order", "exact")


class ToolsTab(VerticalScroll):
    BINDINGS = [
        Binding("space", "toggle_call", "Include/exclude", tooltip="Include or exclude the highlighted call"),
        Binding("ctrl+up", "move(-1)", "Move up", tooltip="Move the highlighted call earlier"),
        Binding("ctrl+down", "move(1)", "Move down", tooltip="Move the highlighted call later"),
    ]

    def __init__(self, tools: ExpectedTools | None, trace_calls: list[ExpectedToolCall], **kwargs) -> None:
        super().__init__(**kwargs)
        self.order = tools.order if tools else "in_order"
        calls = list(tools.calls) if tools else []
        self.entries: list[list] = [[call, True] for call in calls]
        # Calls of the trace that the case leaves out are offered, excluded.
        for call in trace_calls:
            if not any(entry[0].name == call.name and entry[0].args == call.args for entry in self.entries):
                self.entries.append([call, False])
        self.had_tools = tools is not None
        self.invalid: dict[int, dict[str, str]] = {}
        """entry → (`match.topic` / `args` → why) for what its editor shows but the call could not take."""
        self.texts: dict[int, EditorTexts] = {}

    def compose(self) -> ComposeResult:
        yield Label("order")
        yield Select([(o, o) for o in ORDERS], value=self.order, allow_blank=False, id="tools-order")
        yield Label("calls (space: include/exclude, ctrl+up/down: move)")
        yield OptionList(*self._options(), id="tools-calls")
        yield Vertical(id="tools-editor")

    def _options(self) -> list[Option]:
        return [Option(Text.assemble(("✓ " if included else "· ", "bold green" if included else "dim"),
                                     f"{index + 1}. {call.name}",
                                     ("" if included else "  (excluded)", "dim")),
                       id=str(index))
                for index, (call, included) in enumerate(self.entries)]

    def _refresh_list(self, highlight: int | None) -> None:
        listing = self.query_one("#tools-calls", OptionList)
        listing.clear_options()
        listing.add_options(self._options())
        if highlight is not None and self.entries:
            listing.highlighted = max(0, min(highlight, len(self.entries) - 1))

    def _emit(self) -> None:
        included = [index for index, (_, keep) in enumerate(self.entries) if keep]
        calls = [self.entries[index][0] for index in included]
        value = ExpectedTools(order=self.order, calls=calls) if calls or self.had_tools else None
        invalid = {f"expected_tools.calls[{place}].{key}": why for place, index in enumerate(included)
                   for key, why in self.invalid.get(index, {}).items()}
        self.post_message(CaseEdited("expected_tools", value, invalid))

    @on(Select.Changed, "#tools-order")
    def _order(self, event: Select.Changed) -> None:
        event.stop()
        if event.value != self.order:
            self.order = str(event.value)
            self._emit()

    @on(OptionList.OptionHighlighted, "#tools-calls")
    async def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        await self._show_editor(event.option_index)

    async def _show_editor(self, index: int | None) -> None:
        holder = self.query_one("#tools-editor", Vertical)
        await holder.remove_children()
        if index is not None and 0 <= index < len(self.entries):
            editor = ToolCallEditor(self.entries[index][0], self.texts.get(index), entry=index)
            await holder.mount(editor)

    @on(ToolCallEditor.Changed)
    def _call_changed(self, event: ToolCallEditor.Changed) -> None:
        event.stop()
        index = event.entry
        if index is None or index >= len(self.entries):
            return
        self.entries[index][0] = event.call
        self.invalid[index] = event.invalid
        self.texts[index] = event.texts
        if self.entries[index][1]:
            self._emit()

    def show_call(self, place: int, argument: str | None) -> None:
        """Highlight the case's call `place` (included ones count) and focus `argument`'s rule, if any."""
        included = [index for index, (_, keep) in enumerate(self.entries) if keep]
        listing = self.query_one("#tools-calls", OptionList)
        listing.focus()
        if place < len(included):
            listing.highlighted = included[place]

        def focus_rule() -> None:
            editor = self.query(ToolCallEditor)
            if argument and editor and argument in editor.first().arguments():
                row = editor.first().arguments().index(argument)
                self.query_one(f"#rule-text-{row}").focus()

        self.call_after_refresh(focus_rule)

    def _current(self) -> int | None:
        return self.query_one("#tools-calls", OptionList).highlighted

    def action_toggle_call(self) -> None:
        index = self._current()
        if index is None:
            return
        self.entries[index][1] = not self.entries[index][1]
        self._refresh_list(index)
        self._emit()

    def action_move(self, step: int) -> None:
        index = self._current()
        if index is None or not 0 <= index + step < len(self.entries):
            return
        self.entries[index], self.entries[index + step] = self.entries[index + step], self.entries[index]
        for kept in (self.invalid, self.texts):
            kept[index], kept[index + step] = kept.pop(index + step, None), kept.pop(index, None)
            for key in [key for key, value in kept.items() if value is None]:
                del kept[key]
        self._refresh_list(index + step)
        self._emit()
