"""The promote screen: the scrubbed turn on the left, the case being built on the right, in tabs;
the live problems under them; ctrl+s saves through `save_case`.

Tabs are told the case once (attributes down) and post `CaseEdited` for each change (messages up);
this screen is the only place the case changes. Each edit is validated at once (`EditSession.apply`: the
case, or a problem at the field; a field being typed in is never written back from the model); the
problems, the YAML preview, the diff and the recovery write then run once per burst of edits (debounced),
in an exclusive worker, off the keystroke path. Saving writes what the preview shows, or refuses with
the problem in view.

A tab is built when first shown (`LazyPane`, `tui.case_tabs`), from the case as it is then: opening
mounts the first tab only, and a tab not yet built holds nothing the save could differ from.
"""

from __future__ import annotations

import re
from functools import partial

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Select, TabbedContent, TabPane, Tabs
from textual.worker import get_current_worker

from promote.case import suspects
from promote.errors import PromoteError
from tui import seams
from tui.case_tabs import TABS
from tui.edit_session import EditSession, Views, with_field
from tui.messages import CaseEdited, JumpToField, RedactSuspect
from tui.screens.confirm import ConfirmScreen
from tui.widgets.lazy_pane import LazyPane
from tui.widgets.numbers_tab import NumbersTab
from tui.widgets.problems_panel import ProblemsPanel
from tui.widgets.tools_tab import ToolsTab
from tui.widgets.turn_timeline import TurnTimeline
from tui.widgets.yaml_preview import YamlPreview

TAB_ORDER = tuple(TABS)
FIELD_TABS = {
    "expected_output": "output", "expected_tools": "tools", "numeric": "numbers",
    "retrieval_context": "retrieval", "must_cite": "retrieval", "safety": "safety", "entities": "entities",
    "params": "entities", "tenant": "entities",
}
DEBOUNCE_S = 0.15
"""How long typing pauses before the views are worked out again (one run per burst of keys)."""


class PromoteScreen(Screen):
    """Edit one case; the session says where it came from and where it saves."""

    CSS_PATH = "promote.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True,
                tooltip="Validate, check for personal data, write the case"),
        Binding("ctrl+o", "open_pr", "Open PR", tooltip="Commit the saved case on a branch and open a PR"),
        # Priority: a text area's own f6 (select line) must not keep the SME inside it.
        Binding("f6,ctrl+pagedown", "tab(1)", "Next tab", priority=True, key_display="f6",
                tooltip="Show the next tab of the case"),
        Binding("shift+f6,ctrl+pageup", "tab(-1)", "Prev tab", show=False, priority=True,
                tooltip="Show the previous tab"),
        Binding("f3", "toggle_timeline", "Timeline", show=False, tooltip="Hide or show the trace timeline"),
        Binding("f4", "focus_problems", "Problems",
                tooltip="Go to the problems list (Enter jumps to the field)"),
        Binding("escape", "back", "Back",
                tooltip="Leave the field being edited; from the tab bar, back to the browser (or quit)"),
    ]

    def __init__(self, session: EditSession) -> None:
        super().__init__()
        self.session = session
        self.saving = False
        self._debounce: Timer | None = None
        self.views_shown: Views | None = None
        self.opened_pr = None
        """The pull request ctrl+o opened (`tui.pull_request.OpenedPr`), shown again if nothing changed."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="promote-body"):
            yield TurnTimeline(self.session.turn, id="timeline")
            with Vertical(id="case-side"):
                with TabbedContent(id="case-tabs", initial=TAB_ORDER[0]):
                    for tab, (title, make) in TABS.items():
                        yield LazyPane(title, partial(make, self.session), id=tab)
                yield ProblemsPanel(id="problems")
        yield Footer(compact=True)  # every key fits in 80 columns; the palette has them all

    def on_mount(self) -> None:
        self.sub_title = f"{self.session.case.id} · {self.session.target().name}"
        self.call_after_refresh(self._fill_in)

    # Opening fills in over a few frames, none as long as all at once (each widget costs ~3 ms to style,
    # lay out and draw on a slow machine): the first frame has the timeline, the tab bar, the problems
    # and the keys; the next one the first tab. Then the views start, as after an edit: in a thread at
    # once, they would share the GIL with those frames (each ~2x longer).

    async def _fill_in(self) -> None:
        if not self._gone():
            await self.query_one(f"#{TAB_ORDER[0]}", LazyPane).build()
            self.call_after_refresh(self._first_views)

    def _first_views(self) -> None:
        if not self._gone() and self._debounce is None and self.views_shown is None:
            self._debounce = self.set_timer(DEBOUNCE_S, self.refresh_views, name="first views")

    def on_unmount(self) -> None:
        # Leaving (quit, a closed terminal): the edits of the last debounce window reach the recovery file.
        if self._debounce is not None:
            self._debounce.stop()
            try:
                self.session.views()
            except (PromoteError, ValueError, OSError):
                pass

    # editing -----------------------------------------------------------------------------------

    @on(CaseEdited)
    def _edited(self, message: CaseEdited) -> None:
        message.stop()
        self.session.apply(message.field, message.value, message.invalid)
        if self._debounce is not None:
            self._debounce.stop()
        self._debounce = self.set_timer(DEBOUNCE_S, self.refresh_views, name="views after an edit")

    def refresh_views(self) -> None:
        """Work out the views now (the debounce timer calls this; so do saving and the tests)."""
        if self._debounce is not None:
            self._debounce.stop()
            self._debounce = None
        self._compute_views()

    @work(thread=True, exclusive=True, group="views", name="problems, preview, diff, recovery")
    def _compute_views(self) -> None:
        try:
            views = self.session.views()
        except (PromoteError, ValueError) as exc:
            problem = seams.Problem(severity="error", rule="render", field="", message=str(exc))
            self.app.call_from_thread(self._show_problems, [problem])
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_views, views)

    def _gone(self) -> bool:
        """The screen was closed (or the app is tearing it down: its widgets go before it does)."""
        return not self.is_attached or not self.query(ProblemsPanel)

    def _show_problems(self, problems: list[seams.Problem]) -> None:
        if not self._gone():
            self.query_one(ProblemsPanel).show(problems)

    def _show_views(self, views: Views) -> None:
        if views.case is not self.session.case or self._gone():
            return  # an edit came in meanwhile (its own run shows it), or the screen is gone
        self.views_shown = views
        self._show_text(self.query_one(TabbedContent).active)
        self.query_one(ProblemsPanel).show(views.problems)
        mark = " ●" if views.dirty else ""
        self.sub_title = f"{views.case.id} · {self.session.target(views.case).name}{mark}"

    def _show_text(self, tab: str) -> None:
        """The YAML or diff into its text area when its tab is shown (loading a text area that is not
        on screen would cost the UI thread after every burst of typing for nothing)."""
        if self.views_shown is not None and tab in ("yaml", "diff"):
            text = self.views_shown.yaml if tab == "yaml" else self.views_shown.diff
            for preview in self.query(f"#yaml-{'preview' if tab == 'yaml' else 'diff'}").results(YamlPreview):
                preview.show(text)  # none yet while the tab is being built: shown once it is

    async def _show_tab(self, tab: str) -> LazyPane:
        """Show `tab`, built first if it never was; the pane once its content is mounted."""
        self.query_one(TabbedContent).active = tab
        pane = self.query_one(f"#{tab}", LazyPane)
        await pane.build()
        return pane

    @on(TabbedContent.TabActivated, "#case-tabs")
    async def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        if isinstance(event.pane, LazyPane):
            await event.pane.build()  # shown by a click or a key of the tab bar: built here
        self._show_text(event.pane.id or "")

    # saving ------------------------------------------------------------------------------------

    def action_save(self) -> None:
        # ctrl+s is a priority key: it can arrive before the edits of the keys typed just before it have
        # travelled up from their field. Saving starts once those messages are handled.
        self.call_after_refresh(self._start_save)

    def _start_save(self) -> None:
        if self.saving:
            return
        if self.session.invalid:
            # Refused before anything is written: the case holds something else than the field shows.
            self.refresh_views()
            path, why = next(iter(self.session.invalid.items()))
            self.notify(f"{path}: {why}", title="not saved: fix this field first", severity="error",
                        timeout=8)
            self.post_message(JumpToField(path))
            return
        self.saving = True
        self.notify("saving…", timeout=2)
        self._save()

    @work(thread=True, exclusive=True, group="save", name="save case")
    def _save(self) -> None:
        try:
            saved, changed = self.session.save()
        except PromoteError as exc:
            self.app.call_from_thread(self._refused, exc)
            return
        self.app.call_from_thread(self._saved, saved, changed)

    def _saved(self, saved: seams.SavedCase, changed: bool) -> None:
        from tui.screens.browser import BrowserScreen

        self.saving = False
        self.refresh_views()
        for screen in self.app.screen_stack:
            if isinstance(screen, BrowserScreen) and self.session.drafted_from:
                screen.mark_saved(self.session.drafted_from, saved.path)
        left = [s.text for s in suspects.find(self.session.case)]
        if left:
            self.notify(f"{len(left)} suspect(s) left for review: " + ", ".join(map(repr, left[:5])),
                        title="suspects", severity="warning", timeout=8)
        errors = [p for p in saved.problems if p.severity == "error"]
        if errors:
            self.notify(f"saved {saved.path} as a draft with {len(errors)} error(s): it stays "
                        "status: draft until the problems panel is clear", title="saved as a draft",
                        severity="warning", timeout=8)
            return
        self.notify(f"saved {saved.path}" if changed else f"no change: {saved.path} left as it was",
                    title="saved")

    def _refused(self, exc: PromoteError) -> None:
        self.saving = False
        problems = getattr(exc, "problems", None) or []
        if problems:
            self.query_one(ProblemsPanel).show(problems)
        self.notify(str(exc), title="not saved", severity="error", timeout=8)
        personal = {"residual-pii", "known-value", "id", "schema", "edit"}
        if problems and self.session.case.status != "draft" and not {p.rule for p in problems} & personal:
            self._offer_draft(len(problems))

    def _offer_draft(self, count: int) -> None:
        def answered(as_draft: bool | None) -> None:
            if as_draft:
                self.session.case = with_field(self.session.case, "status", "draft")
                self.query_one("#basics-status", Select).value = "draft"
                self.action_save()

        self.app.push_screen(ConfirmScreen(f"The case has {count} error(s): it can be saved only as a draft. "
                                           "Save it with status: draft?", yes="Save draft",
                                           no="Keep editing"),
                             answered)

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
        from tui.pull_request import open_pr

        try:
            opened = open_pr(self.session, self.opened_pr)
        except PromoteError as exc:
            self.app.call_from_thread(self.notify, str(exc), title="no pull request", severity="error",
                                      timeout=10)
            return
        self.app.call_from_thread(self._pr_opened, opened)

    def _pr_opened(self, opened) -> None:
        from tui.screens.pr_result import PrResultScreen

        self.opened_pr = opened
        if opened.again:
            self.notify("nothing saved since: this is the pull request opened before", timeout=5)
        self.app.push_screen(PrResultScreen(opened.result))

    # suspects ----------------------------------------------------------------------------------

    @on(RedactSuspect)
    def _redact(self, message: RedactSuspect) -> None:
        from tui.edit_session import suspect_problem

        message.stop()
        if self.session.invalid:
            self.notify("fix the fields marked as problems first: redacting rebuilds every tab",
                        severity="warning")
            return
        found = [s for s in suspects.find(self.session.case) if suspect_problem(s).message == message.message]
        if not found:
            return
        self.session.case, placeholder = suspects.redact(self.session.case, found[0])
        self.notify(f"{found[0].text!r} is now {placeholder} in {len(found[0].fields)} field(s)", timeout=5)
        # Every tab shows the redacted case: the screen is built again on the same session.
        self.app.switch_screen(PromoteScreen(self.session))

    # navigation --------------------------------------------------------------------------------

    async def action_tab(self, step: int) -> None:
        active = self.query_one(TabbedContent).active
        index = TAB_ORDER.index(active) if active in TAB_ORDER else 0
        pane = await self._show_tab(TAB_ORDER[(index + step) % len(TAB_ORDER)])
        # Into the tab's first control, not left on the tab bar (or in the field of the tab just left).
        self.call_after_refresh(self._focus_first, pane)

    def action_toggle_timeline(self) -> None:
        timeline = self.query_one(TurnTimeline)
        timeline.display = not timeline.display

    def action_focus_problems(self) -> None:
        self.query_one(ProblemsPanel).focus()

    @on(JumpToField)
    async def _jump(self, message: JumpToField) -> None:
        message.stop()
        top = re.split(r"[.\[]", message.field, maxsplit=1)[0]
        tab = FIELD_TABS.get(top, "basics")
        pane = await self._show_tab(tab)
        index = re.match(r"^\w+\[(\d+)\]", message.field)
        if tab == "numbers":
            numbers = pane.query_one(NumbersTab)
            numbers.show_figure(int(index.group(1)) if index else None, message.field.rpartition(".")[2])
            return
        if tab == "tools" and message.field.startswith("expected_tools.calls["):
            place = int(re.search(r"calls\[(\d+)\]", message.field).group(1))
            argument = re.search(r"\.match\.(\w+)", message.field)
            pane.query_one(ToolsTab).show_call(place, argument.group(1) if argument else None)
            return
        fields = pane.query(f"#basics-{top}") if tab == "basics" else None
        if top == "entities":
            fields = pane.query("#entity-handle-text")  # the handle, typed or picked
        if fields:
            fields.first().focus()
        else:
            self._focus_first(pane)

    def _focus_first(self, pane: TabPane) -> None:
        for widget in pane.query("*"):
            if widget.focusable:
                widget.focus()
                return
        self.query_one(TabbedContent).query_one(Tabs).focus()

    def action_back(self) -> None:
        focused = self.focused
        tabs = self.query_one(TabbedContent)
        if focused is not None and focused in tabs.query("*") and not isinstance(focused, Tabs):
            tabs.query_one(Tabs).focus()  # out of the field: a second escape leaves the case
            return
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
