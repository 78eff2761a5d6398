"""The scrubbed turn as a timeline: user message, model calls, tool calls (collapsible), final reply.

Placeholders (`<PERSON_1>`) are highlighted with their type's colour, so the SME sees what was scrubbed.
"""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Collapsible, Static

from promote.case import suspects
from promote.case.rules import PLACEHOLDER_RE
from promote.trace_model import ModelCall, ToolCall, Turn

TYPE_STYLES = {
    "PERSON": "bold magenta", "EMAIL_ADDRESS": "bold cyan", "PHONE_NUMBER": "bold blue",
    "US_SSN": "bold red", "NATIONAL_ID": "bold red", "CREDIT_CARD": "bold red", "EMPLOYEE_ID": "bold yellow",
}


def highlighted(text: str) -> Text:
    """`text` with every placeholder styled by its entity type, and every suspect (a word that looks
    personal but was kept: `promote.case.suspects`) underlined for review."""
    rich = Text(text)
    for found in PLACEHOLDER_RE.finditer(text):
        kind = found.group(0)[1:-1].rsplit("_", 1)[0]
        rich.stylize(f"{TYPE_STYLES.get(kind, 'bold green')} reverse", found.start(), found.end())
    for start, end, _ in suspects.in_text(text):
        rich.stylize("bold yellow underline", start, end)
    return rich


def pretty(value: Any) -> str:
    if value is None:
        return "(not recorded in the trace)"
    if isinstance(value, (dict, list)):
        return json.dumps(value, indent=2, ensure_ascii=False)
    return str(value)


def _model_line(call: ModelCall) -> Text:
    tokens = f"{call.input_tokens if call.input_tokens is not None else '-'} in / " \
             f"{call.output_tokens if call.output_tokens is not None else '-'} out"
    return Text.assemble(("model ", "bold"), (call.model or "?", "italic"), f"  {tokens}")


class TurnTimeline(VerticalScroll):
    """Read-only view of one scrubbed turn, in the order things happened."""

    def __init__(self, turn: Turn | None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.turn = turn

    def compose(self) -> ComposeResult:
        turn = self.turn
        if turn is None:
            yield Static("No trace loaded: this case is edited from its file.", classes="event")
            return
        yield Static(Text("user", style="bold"), classes="event-title")
        yield Static(highlighted(turn.user_input or "(no content captured)"), classes="event")
        models = list(turn.model_calls)
        for index, call in enumerate(turn.tool_calls):
            if models and index < len(turn.model_calls) - 1:
                yield Static(_model_line(models.pop(0)), classes="event model")
            yield self._tool(index, call)
        for call in models:
            yield Static(_model_line(call), classes="event model")
        yield Static(Text("reply", style="bold"), classes="event-title")
        yield Static(highlighted(turn.final_response or "(no reply recorded)"), classes="event")

    def _tool(self, index: int, call: ToolCall) -> Collapsible:
        title = f"tool {index + 1}: {call.name}" + ("  (failed)" if call.error else "")
        parts = [Static(Text("args", style="bold")), Static(highlighted(pretty(call.args)), classes="json")]
        if call.error:
            parts += [Static(Text("error", style="bold red")),
                      Static(highlighted(call.error), classes="json")]
        if call.result is not None:
            parts += [Static(Text("result", style="bold")),
                      Static(highlighted(pretty(call.result)), classes="json")]
        return Collapsible(*parts, title=title, collapsed=True, classes="tool")
