"""Retrieval: which golden chunks to keep, and `must_cite` picked from the kept ones."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Label, SelectionList

from promote.case.model import RetrievalChunk
from tui.messages import CaseEdited


def _label(chunk: RetrievalChunk, width: int = 70) -> str:
    text = " ".join(chunk.text.split())
    return f"{chunk.citation}: {text if len(text) <= width else text[: width - 1] + '…'}"


class RetrievalTab(VerticalScroll):
    def __init__(self, kept: list[RetrievalChunk], offered: list[RetrievalChunk], must_cite: list[str],
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.chunks = list(kept) + [chunk for chunk in offered if chunk not in kept]
        self.kept = {index for index, chunk in enumerate(self.chunks) if chunk in kept}
        self.must_cite = list(must_cite)

    def compose(self) -> ComposeResult:
        yield Label("golden chunks to keep (space toggles)")
        yield SelectionList[int](*[(_label(chunk), index, index in self.kept)
                                   for index, chunk in enumerate(self.chunks)], id="chunks-keep")
        yield Label("must_cite (from the kept chunks)")
        yield SelectionList[str](*self._cite_options(), id="chunks-cite")
        if not self.chunks:
            yield Label("The trace retrieved no chunks.", classes="hint")

    def _cite_options(self) -> list[tuple[str, str, bool]]:
        citations = dict.fromkeys(self.chunks[index].citation for index in sorted(self.kept))
        extra = [c for c in self.must_cite if c not in citations]  # keep what a file cites, even if unknown
        return [(c, c, c in self.must_cite) for c in [*citations, *extra]]

    @on(SelectionList.SelectedChanged, "#chunks-keep")
    def _keep(self, event: SelectionList.SelectedChanged) -> None:
        event.stop()
        kept = set(event.selection_list.selected)
        if kept == self.kept:
            return
        self.kept = kept
        chunks = [chunk for index, chunk in enumerate(self.chunks) if index in kept]
        kept_citations = {chunk.citation for chunk in chunks}
        self.must_cite = [c for c in self.must_cite if c in kept_citations]
        cite = self.query_one("#chunks-cite", SelectionList)
        with cite.prevent(SelectionList.SelectedChanged):
            cite.clear_options()
            cite.add_options(self._cite_options())
        self.post_message(CaseEdited("retrieval_context", chunks))
        self.post_message(CaseEdited("must_cite", list(self.must_cite)))

    @on(SelectionList.SelectedChanged, "#chunks-cite")
    def _cite(self, event: SelectionList.SelectedChanged) -> None:
        event.stop()
        chosen = set(event.selection_list.selected)
        order = [option.value for option in event.selection_list.options]
        self.must_cite = [c for c in order if c in chosen]
        self.post_message(CaseEdited("must_cite", list(self.must_cite)))
