"""Output: the expected reply in a text area, with a reset to the trace's reply."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, TextArea

from tui.messages import CaseEdited


class OutputTab(Vertical):
    BINDINGS = [Binding("ctrl+r", "reset", "Reset reply",
                        tooltip="Put back the reply the agent gave in the trace")]

    def __init__(self, text: str | None, trace_reply: str | None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = text
        self.trace_reply = trace_reply

    def compose(self) -> ComposeResult:
        yield TextArea(self.text or "", soft_wrap=True, id="output-text")
        with Horizontal(classes="buttons"):
            yield Button("Reset to the trace's reply (ctrl+r)", id="output-reset",
                         disabled=self.trace_reply is None)

    @on(TextArea.Changed, "#output-text")
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        text = event.text_area.text
        self.post_message(CaseEdited("expected_output", text if text.strip() else None))

    @on(Button.Pressed, "#output-reset")
    def action_reset(self) -> None:
        if self.trace_reply is not None:
            self.query_one("#output-text", TextArea).load_text(self.trace_reply)
