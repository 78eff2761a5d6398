"""The promote screen: the scrubbed turn on the left, the case being built on the right, in tabs;
the live problems under them; ctrl+s saves through `save_case`.

Tabs are told the case once (attributes down) and post `CaseEdited` for each change (messages up);
this screen is the only place the case changes, and after each change it re-validates, re-renders
the YAML preview and diff, and autosaves the recovery file.
"""

from __future__ import annotations

import re

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, OptionList, TabbedContent, TabPane

from promote.case.model import Case, ExpectedToolCall
from promote.errors import PromoteError
from tui import seams
from tui.edit_session import EditSession
from tui.messages import CaseEdited, JumpToField
from tui.screens.confirm import ConfirmScreen
from tui.widgets.basics_tab import BasicsTab
from tui.widgets.entities_tab import EntitiesTab
from tui.widgets.numbers_tab import NumbersTab
from tui.widgets.output_tab import OutputTab
from tui.widgets.problems_panel import ProblemsPanel
from tui.widgets.retrieval_tab import RetrievalTab
from tui.widgets.safety_tab import SafetyTab
from tui.widgets.tools_tab import ToolsTab
from tui.widgets.turn_timeline import TurnTimeline
from tui.widgets.yaml_preview import YamlPreview

TABS = ("basics", "output", "tools", "numbers", "retrieval", "safety", "entities", "yaml", "diff")
FIELD_TABS = {
    "expected_output": "output", "expected_tools": "tools", "numeric": "numbers",
    "retrieval_context": "retrieval", "must_cite": "retrieval", "safety": "safety", "entities": "entities",
    "params": "entities", "tenant": "entities",
}


class PromoteScreen(Screen):
    """Edit one case; the session says where it came from and where it saves."""

    CSS_PATH = "promote.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True,
                tooltip="Validate, check for personal data, write the case"),
        Binding("ctrl+o", "open_pr", "Open PR", tooltip="Commit the saved case on a branch and open a PR"),
        Binding("ctrl+pagedown,f6", "tab(1)", "Next tab", tooltip="Show the next tab of the case"),
        Binding("ctrl+pageup,shift+f6", "tab(-1)", "Prev tab", show=False, tooltip="Show the previous tab"),
        Binding("f3", "toggle_timeline", "Timeline", show=False, tooltip="Hide or show the trace timeline"),
        Binding("f4", "focus_problems", "Problems",
                tooltip="Go to the problems list (Enter jumps to the field)"),
        Binding("escape", "back", "Back", tooltip="Back to the trace browser (or quit)"),
    ]

    def __init__(self, session: EditSession) -> None:
        super().__init__()
        self.session = session
        self.saving = False

    def compose(self) -> ComposeResult:
        session = self.session
        case, drafted = session.case, session.drafted or session.case
        turn = session.turn
        trace_calls = [
            ExpectedToolCall(name=call.name, args=(call.args or None) if isinstance(call.args, dict)
                             else None)
            for call in (turn.tool_calls if turn else [])
        ]
        yield Header(show_clock=False)
        with Horizontal(id="promote-body"):
            yield TurnTimeline(session.turn, id="timeline")
            with Vertical(id="case-side"):
                with TabbedContent(id="case-tabs", initial="basics"):
                    with TabPane("Basics", id="basics"):
                        yield BasicsTab(case)
                    with TabPane("Output", id="output"):
                        yield OutputTab(case.expected_output, turn.final_response if turn else None)
                    with TabPane("Tools", id="tools"):
                        yield ToolsTab(case.expected_tools, trace_calls)
                    with TabPane("Numbers", id="numbers"):
                        yield NumbersTab(case.numeric if session.base else [], drafted.numeric)
                    with TabPane("Retrieval", id="retrieval"):
                        yield RetrievalTab(case.retrieval_context, drafted.retrieval_context, case.must_cite)
                    with TabPane("Safety", id="safety"):
                        yield SafetyTab(case.safety)
                    with TabPane("Entities", id="entities"):
                        catalog = session.repo.catalog.entities if session.repo else []
                        yield EntitiesTab(case.entities, catalog, case.params, case.tenant)
                    with TabPane("YAML", id="yaml"):
                        yield YamlPreview(id="yaml-preview")
                    with TabPane("Diff", id="diff"):
                        yield YamlPreview(id="yaml-diff")
                yield ProblemsPanel(id="problems")
        yield Footer(compact=True)  # every key fits in 80 columns; the palette has them all

    def on_mount(self) -> None:
        self.sub_title = f"{self.session.case.id} · {self.session.target().name}"
        if self.session.base is None and self.session.case.numeric:
            # A draft's figures start as suggestions: the case holds only the ones the SME accepts.
            self._apply("numeric", [])
        self._refresh_views()

    # editing -----------------------------------------------------------------------------------

    def _apply(self, field: str, value) -> bool:
        case = self.session.case
        if getattr(case, field) == value:
            return False
        self.session.case = case.model_copy(update={field: value})
        return True

    @on(CaseEdited)
    def _edited(self, message: CaseEdited) -> None:
        message.stop()
        if self._apply(message.field, message.value):
            self._refresh_views()
            self.session.write_recovery()

    def _refresh_views(self) -> None:
        session = self.session
        try:
            problems = session.problems()
            self.query_one("#yaml-preview", YamlPreview).show(session.render())
            self.query_one("#yaml-diff", YamlPreview).show(session.diff())
        except (PromoteError, ValueError) as exc:
            problems = [seams.Problem(severity="error", rule="render", field="", message=str(exc))]
        self.query_one(ProblemsPanel).show(problems)
        mark = " ●" if session.dirty else ""
        self.sub_title = f"{session.case.id} · {session.target().name}{mark}"

    # saving ------------------------------------------------------------------------------------

    def action_save(self) -> None:
        if not self.saving:
            self.saving = True
            self.notify("saving…", timeout=2)
            self._save()

    @work(thread=True, exclusive=True, group="save", name="save case")
    def _save(self) -> None:
        try:
            saved, changed = self.session.save()
        except seams.CaseRefused as exc:
            self.app.call_from_thread(self._refused, exc)
            return
        except PromoteError as exc:
            self.app.call_from_thread(self._refused, exc)
            return
        self.app.call_from_thread(self._saved, saved, changed)

    def _saved(self, saved: seams.SavedCase, changed: bool) -> None:
        self.saving = False
        self._refresh_views()
        self.notify(f"saved {saved.path}" if changed else f"no change: {saved.path} left as it was",
                    title="saved")

    def _refused(self, exc: PromoteError) -> None:
        self.saving = False
        problems = getattr(exc, "problems", None)
        if problems:
            self.query_one(ProblemsPanel).show(problems)
        self.notify(str(exc), title="not saved", severity="error", timeout=8)

    def action_open_pr(self) -> None:
        if self.session.dirty:
            self.notify("save the case first (ctrl+s): the pull request holds the file as saved",
                        severity="warning")
            return
        if self.session.repo is None:
            self.notify("no eval repo: start with --repo DIR", severity="error")
            return
        self.notify("opening the pull request…", timeout=3)
        self._open_pr()

    @work(thread=True, exclusive=True, group="pr", name="open pull request")
    def _open_pr(self) -> None:
        from promote.repo.git import Git
        from promote.repo.pr import PrOptions, open_pull_request

        root = self.session.repo.root
        try:
            # With a remote: push and open it; without one the branch is committed locally and the
            # PR text is shown for opening by hand.
            has_remote = Git(root).remote_url() is not None
            result = open_pull_request([self.session.path], root, PrOptions(open=has_remote))
        except PromoteError as exc:
            self.app.call_from_thread(self.notify, str(exc), title="no pull request", severity="error",
                                      timeout=10)
            return
        self.app.call_from_thread(self._pr_opened, result)

    def _pr_opened(self, result) -> None:
        from tui.screens.pr_result import PrResultScreen

        self.app.push_screen(PrResultScreen(result))

    # navigation --------------------------------------------------------------------------------

    def action_tab(self, step: int) -> None:
        tabs = self.query_one(TabbedContent)
        index = TABS.index(tabs.active) if tabs.active in TABS else 0
        tabs.active = TABS[(index + step) % len(TABS)]

    def action_toggle_timeline(self) -> None:
        timeline = self.query_one(TurnTimeline)
        timeline.display = not timeline.display

    def action_focus_problems(self) -> None:
        self.query_one(ProblemsPanel).focus()

    @on(JumpToField)
    def _jump(self, message: JumpToField) -> None:
        message.stop()
        top = re.split(r"[.\[]", message.field, maxsplit=1)[0]
        tab = FIELD_TABS.get(top, "basics")
        self.query_one(TabbedContent).active = tab
        index = re.match(r"^\w+\[(\d+)\]", message.field)
        pane = self.query_one(f"#{tab}", TabPane)
        if tab == "numbers":
            table = pane.query_one(DataTable)
            table.focus()
            if index:
                table.move_cursor(row=int(index.group(1)))
            return
        if tab == "tools" and message.field.startswith("expected_tools.calls["):
            listing = pane.query_one("#tools-calls", OptionList)
            listing.focus()
            listing.highlighted = int(re.search(r"calls\[(\d+)\]", message.field).group(1))
            return
        fields = pane.query(f"#basics-{top}") if tab == "basics" else None
        if fields:
            fields.first().focus()
        else:
            self._focus_first(pane)

    def _focus_first(self, pane: TabPane) -> None:
        for widget in pane.query("*"):
            if widget.focusable:
                widget.focus()
                return

    def action_back(self) -> None:
        below = self.app.screen_stack[:-1]
        from tui.screens.browser import BrowserScreen

        if not any(isinstance(screen, BrowserScreen) for screen in below):
            self.app.action_quit()  # type: ignore[unused-coroutine]
            return
        if not self.session.dirty:
            self.app.pop_screen()
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.app.pop_screen()

        self.app.push_screen(ConfirmScreen("Leave this case? Unsaved edits stay in its recovery file.",
                                           yes="Leave", no="Stay"), answered)
