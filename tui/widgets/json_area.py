"""A text area for a JSON value, checked as you type; posts `JsonArea.Parsed` on every edit, with the value
or what is wrong with the text (the text itself is never rewritten while the SME types)."""

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
        """The parsed value (None when empty or when `error` is set)."""
        error: str | None = None
        """What is wrong with the text, or None."""
        text: str = ""

        @property
        def control(self) -> JsonArea:
            return self.area

    def __init__(self, value: Any = None, *, expect: type | None = dict, text: str | None = None,
                 **kwargs) -> None:
        """`text`: text to show instead of `value`'s JSON (what the SME typed that did not parse)."""
        super().__init__(**kwargs)
        self.expect = expect
        self._initial = value
        self._text = text

    def compose(self) -> ComposeResult:
        # Tab moves on to the next control (a JSON editor must not trap the keyboard); indent with spaces.
        yield TextArea(self._dump(self._initial) if self._text is None else self._text, soft_wrap=True,
                       show_line_numbers=False, tab_behavior="focus")
        yield Label("", classes="json-status")

    def on_mount(self) -> None:
        if self._text is not None:  # shown again as typed: reported again, so its problem stays
            self.post_message(self.Parsed(self, *self._check(self._text), text=self._text))

    @staticmethod
    def _dump(value: Any) -> str:
        return "" if value in (None, {}) else json.dumps(value, indent=2, ensure_ascii=False)

    @on(TextArea.Changed)
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self.post_message(self.Parsed(self, *self._check(event.text_area.text), text=event.text_area.text))

    def _check(self, raw: str) -> tuple[Any, str | None]:
        status = self.query_one(Label)
        text = raw.strip()
        error = None
        value = None
        try:
            value = json.loads(text) if text else None
        except json.JSONDecodeError as exc:
            error = f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        wrong_type = self.expect is not None and value is not None and not isinstance(value, self.expect)
        if error is None and wrong_type:
            error = f"must be a JSON {'object' if self.expect is dict else self.expect.__name__}"
        if str(status.content) != (error or ""):  # an update lays the screen out again: not on every key
            status.update(error or "")
        status.set_class(error is not None, "error")
        return (None, error) if error else (value, None)
