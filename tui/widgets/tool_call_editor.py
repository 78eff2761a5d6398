"""One expected tool call: its args as JSON (validated as you type) and a match rule per argument."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Label, Select

from promote.case.model import ExpectedToolCall
from tui.arg_rules import KINDS, join_rule, split_rule
from tui.widgets.field_input import FieldInput
from tui.widgets.json_area import JsonArea


@dataclass
class EditorTexts:
    """What the editor shows that the call could not take, so a re-opened editor shows it again."""

    rules: dict[str, tuple[str, str]] = field(default_factory=dict)
    """argument → (kind, text) of a rule row holding an invalid rule."""
    args: str | None = None
    """The args text when it is not a JSON object."""


class ToolCallEditor(Vertical):
    """Posts `ToolCallEditor.Changed` with the call as far as it is valid and what is not (`invalid`:
    `match.topic` / `args` → why), on every edit; a field is never rewritten while the SME types in it."""

    @dataclass
    class Changed(Message):
        call: ExpectedToolCall
        invalid: dict[str, str]
        texts: EditorTexts
        entry: int | None
        """Which of the tools tab's calls this editor edits."""

    def __init__(self, call: ExpectedToolCall, texts: EditorTexts | None = None, entry: int | None = None,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.call = call
        self.entry = entry
        self.texts = texts or EditorTexts()
        self.invalid: dict[str, str] = {}

    def arguments(self) -> list[str]:
        names = list((self.call.args or {}).keys())
        return names + [name for name in (self.call.match or {}) if name not in names]

    def compose(self) -> ComposeResult:
        yield Label(f"args of {self.call.name} (JSON object)", classes="section")
        yield JsonArea(self.call.args, id="tool-args", text=self.texts.args)
        yield Label("match rule per argument (exact unless set)", classes="section")
        for index, name in enumerate(self.arguments()):
            kind, text = self.texts.rules.get(name) or split_rule((self.call.match or {}).get(name))
            with Horizontal(classes="rule-row"):
                yield Label(name, classes="rule-name")
                yield Select([(k, k) for k in KINDS], value=kind, allow_blank=False, id=f"rule-kind-{index}",
                             classes="rule-kind", compact=True)
                yield FieldInput(text, placeholder="pattern / number / values", id=f"rule-text-{index}",
                            classes="rule-text", compact=True)
        yield Label("", id="rule-status")

    def on_mount(self) -> None:
        if self.texts.rules:
            self._rule(None)

    @on(JsonArea.Parsed, "#tool-args")
    def _args(self, event: JsonArea.Parsed) -> None:
        event.stop()
        self.texts.args = None if event.error is None else event.text
        self.invalid.pop("args", None)
        if event.error is not None:
            self.invalid["args"] = event.error
        else:
            try:
                data = {**self.call.model_dump(), "args": event.value or None}
                self.call = ExpectedToolCall.model_validate(data)
            except ValidationError as exc:
                self.invalid["args"] = exc.errors()[0]["msg"]
        self.post_message(self.Changed(self.call, dict(self.invalid), self.texts, self.entry))

    @on(Select.Changed)
    @on(Input.Changed)
    def _rule(self, event: Message | None) -> None:
        if event is not None:
            event.stop()
        match: dict[str, Any] = dict(self.call.match or {})
        self.invalid = {key: why for key, why in self.invalid.items() if not key.startswith("match.")}
        self.texts.rules = {}
        for index, name in enumerate(self.arguments()):
            kind = str(self.query_one(f"#rule-kind-{index}", Select).value)
            field_input = self.query_one(f"#rule-text-{index}", Input)
            rule, error = join_rule(kind, field_input.value)
            field_input.set_class(error is not None, "-invalid")
            if error:
                # The call keeps its last valid rule here; the row keeps the text; saving is refused.
                self.invalid[f"match.{name}"] = error
                self.texts.rules[name] = (kind, field_input.value)
            elif kind != "exact" or name in match:
                match[name] = rule
        status = self.query_one("#rule-status", Label)
        wrong = "; ".join(f"{key.removeprefix('match.')}: {why}" for key, why in self.invalid.items()
                          if key.startswith("match."))
        if str(status.content) != wrong:  # an update lays the screen out again: not on every key
            status.update(wrong)
        try:
            self.call = ExpectedToolCall.model_validate({**self.call.model_dump(), "match": match or None})
        except ValidationError as exc:
            self.invalid["match"] = exc.errors()[0]["msg"]
        self.post_message(self.Changed(self.call, dict(self.invalid), self.texts, self.entry))
