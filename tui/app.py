"""`PromoteApp`: the trace browser first (or the promote screen with `--case`), themes, help, quit."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from tui.loader import Loader
from tui.screens.browser import BrowserScreen
from tui.screens.confirm import ConfirmScreen
from tui.screens.help import HelpScreen

if TYPE_CHECKING:  # the editor and the eval repo (the case model) load when needed: first rows sooner
    from tui import seams
    from tui.edit_session import EditSession

LIGHT, DARK = "textual-light", "textual-dark"
SHOWN_ELSEWHERE = {"help", "toggle_theme", "quit", "command_palette"}


def binding_commands(screen: Screen) -> Iterable[SystemCommand]:
    """A palette command per binding active on `screen` that has a description: `Save (ctrl+s)`."""
    seen: set[str] = set()
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not binding.description or binding.action in seen or binding.action in SHOWN_ELSEWHERE:
            continue
        seen.add(binding.action)
        node, action = active.node, binding.action

        def run(node=node, action=action) -> None:
            screen.call_later(screen.app.run_action, action, node)

        keys = binding.key_display or key
        yield SystemCommand(f"{binding.description} ({keys})", binding.tooltip or binding.description, run)


class PromoteApp(App[int]):
    """From a trace export to a reviewed case, keyboard first."""

    CSS_PATH = "app.tcss"
    TITLE = "promote"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True, tooltip="Quit (asks first when edits are unsaved)"),
        Binding("f1", "help", "Help", tooltip="Every key and what it does"),
        Binding("f2", "toggle_theme", "Theme", show=False, tooltip="Switch between the light and dark theme"),
    ]

    def __init__(self, exports: list[Path], *, case: Path | None = None, repo_dir: Path | None = None,
                 by: str | None = None, now: datetime | None = None, dark: bool = True,
                 loader: Loader | None = None, session: EditSession | None = None) -> None:
        """`loader`: the loader child for `exports`, when the caller started it before loading the UI;
        `session`: a case to edit at once (instead of `case`)."""
        super().__init__()
        self.loader = loader
        self.exports = exports
        self.case_path = case
        self.repo_dir = repo_dir
        self.by = by
        self.now = now
        self.theme = DARK if dark else LIGHT
        self.repo: seams.EvalRepo | None = None
        """The eval repo of `--case`; with exports only, the browser finds it (after its first rows)."""
        self._first_session: EditSession | None = session
        self._prepared = False

    def _repo_start(self) -> Path:
        return self.repo_dir or (self.case_path.parent if self.case_path else Path.cwd())

    def prepare(self) -> None:
        """Load `--case` and find its eval repo (raises PromoteError for what a user can fix)."""
        self._prepared = True
        if self.case_path is not None:
            from tui import seams
            from tui.edit_session import EditSession

            self.repo = seams.EvalRepo.find(self._repo_start())
            self._first_session = EditSession.from_file(self.case_path, repo=self.repo)

    def on_mount(self) -> None:
        if not self._prepared:
            self.prepare()
        if self.exports:
            self.push_screen(BrowserScreen(self.exports, self._repo_start(), loader=self.loader,
                                           repo=self.repo))
        if self._first_session is not None:
            self.open_session(self._first_session)

    def open_session(self, session: EditSession) -> None:
        """Edit a case; a recovery file left by an earlier run is offered first."""
        from tui.recovery import RecoveryUnreadable
        from tui.screens.promote import PromoteScreen

        try:
            recovered = session.recovered()
        except RecoveryUnreadable as exc:
            self.notify(str(exc), title="recovery file not read", severity="error", timeout=15)
            recovered = None
        if recovered is None:
            self.push_screen(PromoteScreen(session))
            return

        def answered(recover: bool | None) -> None:
            if recover:
                session.restore(recovered)
            else:
                session.drop_recovery()
            self.push_screen(PromoteScreen(session))

        question = "Unsaved edits of this case were found from an earlier run. Recover them?"
        self.push_screen(ConfirmScreen(question, yes="Recover", no="Discard"), answered)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own commands, then every key binding active on `screen` (the footer shows only
        some of them in small terminals: the palette has them all, with what they do)."""
        yield from super().get_system_commands(screen)
        yield SystemCommand("Help", "Every key and what it does", self.action_help)
        yield SystemCommand("Toggle light/dark theme", "Switch the colour theme", self.action_toggle_theme)
        yield from binding_commands(screen)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT if self.theme == DARK else DARK

    async def action_quit(self) -> None:
        from tui.screens.promote import PromoteScreen  # loaded already if a case was ever opened

        editing = [screen for screen in self.screen_stack if isinstance(screen, PromoteScreen)]
        if not any(screen.session.dirty for screen in editing):
            self.exit(0)
            return

        def answered(quit_anyway: bool | None) -> None:
            if quit_anyway:
                self.exit(0)

        self.push_screen(ConfirmScreen("The case has unsaved changes. Quit without saving?",
                                       yes="Quit", no="Keep editing"), answered)
