"""The case's errors, warnings and notes, live; selecting one asks the screen to show its field."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.messages import JumpToField, RedactSuspect
from tui.seams import Problem

STYLES = {"error": "bold red", "warning": "bold yellow", "note": "cyan"}


class ProblemsPanel(OptionList):
    """One line per problem: severity, field, message."""

    BINDINGS = [Binding("x", "redact", "Redact suspect",
                        tooltip="Replace the highlighted suspect everywhere in the case with a placeholder")]

    def show(self, problems: list[Problem]) -> None:
        if getattr(self, "problems", None) == problems:
            return  # most bursts of typing change no problem: the list is not built again (~10 ms a run)
        self.problems = list(problems)
        highlighted = self.highlighted
        self.clear_options()
        if not problems:
            self.add_option(Option(Text("no problems", style="green"), disabled=True))
        for index, problem in enumerate(problems):
            line = Text.assemble((f"{problem.severity:<7} ", STYLES[problem.severity]),
                                 (f"{problem.field or '-'}: ", "bold"), problem.message)
            self.add_option(Option(line, id=str(index)))
        if highlighted is not None and problems:
            self.highlighted = min(highlighted, len(problems) - 1)
        errors = sum(p.severity == "error" for p in problems)
        self.border_title = f"problems: {errors} error(s), {len(problems) - errors} other"

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(JumpToField(self.problems[int(event.option.id)].field))

    def action_redact(self) -> None:
        index = self.highlighted
        problems = getattr(self, "problems", [])
        if index is None or index >= len(problems) or problems[index].rule != "suspect":
            self.notify("highlight a suspect (a warning saying 'looks like a ...') to redact it", timeout=4)
            return
        self.post_message(RedactSuspect(problems[index].field, problems[index].message))
