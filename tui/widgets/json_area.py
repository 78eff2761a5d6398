"""A text area for a JSON value, validated as you type; posts `JsonArea.Parsed` with each valid value."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, TextArea


class JsonArea(Vertical):
    """The value's JSON in a text area and one line saying whether it parses."""

    @dataclass
    class Parsed(Message):
        area: JsonArea
        value: Any

        @property
        def control(self) -> JsonArea:
            return self.area

    def __init__(self, value: Any = None, *, expect: type | None = dict, **kwargs) -> None:
        super().__init__(**kwargs)
        self.expect = expect
        self._initial = value

    def compose(self) -> ComposeResult:
        yield TextArea(self._dump(self._initial), soft_wrap=True, show_line_numbers=False,
                       tab_behavior="indent")
        yield Label("", classes="json-status")

    @staticmethod
    def _dump(value: Any) -> str:
        return "" if value in (None, {}) else json.dumps(value, indent=2, ensure_ascii=False)

    def set_value(self, value: Any) -> None:
        area = self.query_one(TextArea)
        with area.prevent(TextArea.Changed):
            area.load_text(self._dump(value))
        self.query_one(Label).update("")

    @on(TextArea.Changed)
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        status = self.query_one(Label)
        text = event.text_area.text.strip()
        try:
            value = json.loads(text) if text else None
        except json.JSONDecodeError as exc:
            status.update(f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
            status.add_class("error")
            return
        if value is not None and self.expect is not None and not isinstance(value, self.expect):
            status.update(f"must be a JSON {'object' if self.expect is dict else self.expect.__name__}")
            status.add_class("error")
            return
        status.update("")
        status.remove_class("error")
        self.post_message(self.Parsed(self, value))
