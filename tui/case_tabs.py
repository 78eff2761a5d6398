"""The promote screen's tabs: their order, titles, and how each one's content is made from the session.

Each tab's content is made when the tab is first shown (`tui.widgets.lazy_pane`), from the case as it is
then: opening a case mounts only the first tab (a frame of the screen costs ~2 ms a widget to style, and
all the tabs hold ~170 widgets).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widget import Widget

from promote.case.model import ExpectedToolCall
from promote.trace_model import Turn
from tui.edit_session import EditSession
from tui.widgets.basics_tab import BasicsTab
from tui.widgets.entities_tab import EntitiesTab
from tui.widgets.numbers_tab import NumbersTab
from tui.widgets.output_tab import OutputTab
from tui.widgets.retrieval_tab import RetrievalTab
from tui.widgets.safety_tab import SafetyTab
from tui.widgets.tools_tab import ToolsTab
from tui.widgets.yaml_preview import YamlPreview


def trace_calls(turn: Turn | None) -> list[ExpectedToolCall]:
    """The turn's tool calls as the Tools tab offers them (the trace's own arguments)."""
    return [ExpectedToolCall(name=call.name,
                             args=(call.args or None) if isinstance(call.args, dict) else None)
            for call in (turn.tool_calls if turn else [])]


def _output(session: EditSession) -> Widget:
    return OutputTab(session.case.expected_output, session.turn.final_response if session.turn else None)


def _numbers(session: EditSession) -> Widget:
    drafted = session.drafted or session.case
    return NumbersTab(session.case.numeric, drafted.numeric, oracles=session.oracles())


def _retrieval(session: EditSession) -> Widget:
    case, drafted = session.case, session.drafted or session.case
    return RetrievalTab(case.retrieval_context, drafted.retrieval_context, case.must_cite)


def _entities(session: EditSession) -> Widget:
    case = session.case
    catalog = session.repo.catalog.entities if session.repo else []
    return EntitiesTab(case.entities, catalog, case.params, case.tenant)


TABS: dict[str, tuple[str, Callable[[EditSession], Widget]]] = {
    "basics": ("Basics", lambda session: BasicsTab(session.case)),
    "output": ("Output", _output),
    "tools": ("Tools", lambda session: ToolsTab(session.case.expected_tools, trace_calls(session.turn))),
    "numbers": ("Numbers", _numbers),
    "retrieval": ("Retrieval", _retrieval),
    "safety": ("Safety", lambda session: SafetyTab(session.case.safety)),
    "entities": ("Entities", _entities),
    "yaml": ("YAML", lambda session: YamlPreview(id="yaml-preview")),
    "diff": ("Diff", lambda session: YamlPreview(id="yaml-diff")),
}
"""Tab id → (title, its content made from the session), in the order the tabs are shown."""
