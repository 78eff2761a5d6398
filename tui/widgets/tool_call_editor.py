"""One expected tool call: its args as JSON (validated as you type) and a match rule per argument."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Label, Select

from promote.case.model import ExpectedToolCall
from tui.arg_rules import KINDS, join_rule, split_rule
from tui.widgets.json_area import JsonArea


class ToolCallEditor(Vertical):
    """Posts `ToolCallEditor.Changed` with the edited call whenever args or a rule change validly."""

    @dataclass
    class Changed(Message):
        call: ExpectedToolCall

    def __init__(self, call: ExpectedToolCall, **kwargs) -> None:
        super().__init__(**kwargs)
        self.call = call

    def _arguments(self) -> list[str]:
        names = list((self.call.args or {}).keys())
        return names + [name for name in (self.call.match or {}) if name not in names]

    def compose(self) -> ComposeResult:
        yield Label(f"args of {self.call.name} (JSON object)", classes="section")
        yield JsonArea(self.call.args, id="tool-args")
        yield Label("match rule per argument (exact unless set)", classes="section")
        for index, name in enumerate(self._arguments()):
            kind, text = split_rule((self.call.match or {}).get(name))
            with Horizontal(classes="rule-row"):
                yield Label(name, classes="rule-name")
                yield Select([(k, k) for k in KINDS], value=kind, allow_blank=False, id=f"rule-kind-{index}",
                             classes="rule-kind")
                yield Input(text, placeholder="pattern / number / values", id=f"rule-text-{index}",
                            classes="rule-text")
        yield Label("", id="rule-status")

    @on(JsonArea.Parsed, "#tool-args")
    def _args(self, event: JsonArea.Parsed) -> None:
        event.stop()
        self.call = self.call.model_copy(update={"args": event.value or None})
        self.post_message(self.Changed(self.call))

    @on(Select.Changed)
    @on(Input.Changed)
    def _rule(self, event: Message) -> None:
        event.stop()
        match: dict[str, Any] = {}
        errors = []
        for index, name in enumerate(self._arguments()):
            kind = self.query_one(f"#rule-kind-{index}", Select).value
            text = self.query_one(f"#rule-text-{index}", Input).value
            rule, error = join_rule(str(kind), text)
            if error:
                errors.append(f"{name}: {error}")
            if kind != "exact" or name in (self.call.match or {}):
                match[name] = rule
        self.query_one("#rule-status", Label).update("; ".join(errors))
        if errors:
            return
        if match == (self.call.match or {}):
            return
        self.call = self.call.model_copy(update={"match": match or None})  # typed rules: no re-validation
        self.post_message(self.Changed(self.call))
