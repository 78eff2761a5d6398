"""Basics: id, title, agent, tier, status, kind, the user's input, datasets, metadata.

Each control reports what it shows (`CaseEdited`); the screen validates it with the whole case, so a value
the model refuses is a problem at that field, never written as something else.
"""

from __future__ import annotations

from typing import get_args

from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Input, Label, Select, SelectionList, TextArea

from promote.case.model import Case, Kind
from tui.messages import CaseEdited
from tui.widgets.field_input import FieldInput
from tui.widgets.json_area import JsonArea

TEXT_FIELDS = ("id", "title", "agent", "tier")


class BasicsTab(VerticalScroll):
    def __init__(self, case: Case, **kwargs) -> None:
        super().__init__(**kwargs)
        self.case = case

    def compose(self) -> ComposeResult:
        case = self.case
        for name in TEXT_FIELDS:
            yield Label(name)
            yield FieldInput(str(getattr(case, name) or ""), id=f"basics-{name}")
        yield Label("status")
        yield Select([(s, s) for s in ("draft", "valid", "retired")], value=case.status, allow_blank=False,
                     id="basics-status")
        yield Label("kind")
        yield SelectionList[str](*[(k, k, k in case.kind) for k in get_args(Kind)], id="basics-kind")
        yield Label("input: the user's words (scrubbed; rewrite placeholders for the sandbox entity)")
        yield TextArea(case.input, soft_wrap=True, id="basics-input", classes="basics-input")
        yield Label("datasets (comma-separated)")
        yield FieldInput(", ".join(case.datasets), id="basics-datasets")
        yield Label("metadata (JSON object)")
        yield JsonArea(dict(case.metadata), id="basics-metadata")

    @on(Input.Changed)
    def _text(self, event: Input.Changed) -> None:
        event.stop()
        name = (event.input.id or "").removeprefix("basics-")
        if name == "datasets":
            value = [part.strip() for part in event.value.split(",") if part.strip()]
            self.post_message(CaseEdited("datasets", value))
        elif name in TEXT_FIELDS:
            text = event.value.strip()
            self.post_message(CaseEdited(name, text or None if name == "agent" else text))

    @on(TextArea.Changed, "#basics-input")
    def _input(self, event: TextArea.Changed) -> None:
        event.stop()
        self.post_message(CaseEdited("input", event.text_area.text))

    @on(Select.Changed, "#basics-status")
    def _status(self, event: Select.Changed) -> None:
        event.stop()
        self.post_message(CaseEdited("status", event.value))

    @on(SelectionList.SelectedChanged, "#basics-kind")
    def _kind(self, event: SelectionList.SelectedChanged) -> None:
        event.stop()
        chosen = set(event.selection_list.selected)
        self.post_message(CaseEdited("kind", [k for k in get_args(Kind) if k in chosen]))

    @on(JsonArea.Parsed, "#basics-metadata")
    def _metadata(self, event: JsonArea.Parsed) -> None:
        event.stop()
        invalid = {"metadata": event.error} if event.error else {}
        self.post_message(CaseEdited("metadata", event.value or {}, invalid))
