"""A checkbox whose mark says its state without colour (Textual's draws `X` either way, told apart only
by colour: the same in a monochrome terminal, a screenshot or a screen reader's text)."""

from __future__ import annotations

from textual.widgets import Checkbox


class CheckBox(Checkbox):
    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802 - Textual's name
        return "✓" if self.value else " "
