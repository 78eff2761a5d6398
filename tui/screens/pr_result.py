"""What opening the pull request did: the PR link, or the branch, the compare URL and the PR text."""

from __future__ import annotations

import html

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea


class PrResultScreen(ModalScreen[None]):
    CSS_PATH = "pr_result.tcss"
    BINDINGS = [Binding("escape,enter", "close", "Close", tooltip="Back to the case")]

    def __init__(self, result) -> None:
        super().__init__()
        self.result = result

    def compose(self) -> ComposeResult:
        result = self.result
        with Vertical(id="pr-dialog"):
            if result.pr_url:
                yield Label(f"Pull request opened: {result.pr_url}", id="pr-headline", markup=False)
            else:
                yield Label(f"Committed on branch {result.branch} (base {result.base})", id="pr-headline",
                            markup=False)
                if result.compare_url:
                    yield Label(f"Open the PR at {result.compare_url}", id="pr-compare", markup=False)
            for note in result.notes:
                yield Label(note, classes="pr-note", markup=False)
            yield Label(f"title: {result.title}", id="pr-title", markup=False)
            # The body is GitHub markdown, where `<PERSON_1>` is `&lt;PERSON_1&gt;`: shown as it reads.
            yield TextArea(html.unescape(result.body), read_only=True, soft_wrap=True, id="pr-body")
            yield Label("esc / enter: back to the case", id="pr-close-hint")

    def action_close(self) -> None:
        self.dismiss(None)
