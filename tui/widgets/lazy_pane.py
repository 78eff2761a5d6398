"""A tab pane whose content is made and mounted the first time the tab is shown, not when its screen opens.

Opening a case then mounts only what is on screen (the first tab), in one short frame; each other tab is
built from the case as it is when first shown (its `make` reads the session then), so a tab not yet built
holds nothing the save could differ from: the case, not the widgets, is what is saved.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.widget import Widget
from textual.widgets import TabPane


class LazyPane(TabPane):
    def __init__(self, title: str, make: Callable[[], Widget], *, id: str, built: bool = False) -> None:
        """`make`: the content, called once; `built`: made with the pane (the tab shown first)."""
        super().__init__(title, id=id)
        self._make = make
        self.built = built
        self._mounting: AwaitComplete | None = None

    def compose(self) -> ComposeResult:
        if self.built:
            yield self._make()

    async def build(self) -> None:
        """Make and mount the content unless it is already; return once it is mounted."""
        if not self.built:
            self.built = True
            self._mounting = AwaitComplete(self.mount(self._make()))
        if self._mounting is not None:
            await self._mounting
