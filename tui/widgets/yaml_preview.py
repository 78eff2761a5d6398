"""Read-only YAML text: exactly what `save_case` will write, or its diff against the file on disk."""

from __future__ import annotations

from textual.widgets import TextArea


class YamlPreview(TextArea):
    def __init__(self, **kwargs) -> None:
        super().__init__("", read_only=True, soft_wrap=False, show_line_numbers=True, **kwargs)

    def show(self, text: str) -> None:
        if text != self.text:
            scroll = self.scroll_offset
            self.load_text(text)
            self.scroll_to(scroll.x, scroll.y, animate=False)
