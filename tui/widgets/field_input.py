"""A one-line text field of the case editor: Textual's `Input`, without the work per key it does not need.

- Textual's `Input` sets its virtual size to the text's width on every key, and its virtual size is a
  layout reactive: each key then lays out the whole screen again (the promote screen has hundreds of
  widgets: ~10 ms a key on a case with 10 tool calls and 10 figures, benchmarks/tui_typing.py). An
  input's own size never follows its text (its width and height come from the stylesheet), and it scrolls
  its text to the cursor from its virtual size directly, so a repaint of the field is all a key needs.
- Without validators, `Input.validate` clears the `-invalid` class on every key; the tab that reads the
  field sets it again when the text is still wrong: two style updates of the field a key. Here `-invalid`
  belongs to the tab that reads the field (the text is checked against the case's model there).
"""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.validation import ValidationResult
from textual.widgets import Input


class FieldInput(Input):
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), repaint=True, layout=False)
    """The text's width (for scrolling to the cursor): repaints the field, lays nothing out."""

    def validate(self, value: str) -> ValidationResult | None:
        if not self.validators:
            return None  # `-invalid` is set by the tab that reads the field, not cleared on each key
        return super().validate(value)
