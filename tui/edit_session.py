"""One case being edited: where it came from, where it saves, what changed, and its recovery file.

No Textual here: the promote screen holds an `EditSession` and asks it to render, diff, save and
autosave. Everything it holds is scrubbed (a scrubbed trace, a draft from it, a case file, or what the
SME typed), so the recovery file holds scrubbed content only.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from promote.case.fingerprints import ValueFingerprints
from promote.case.model import Case
from promote.case.yaml_io import case_json
from promote.draft import DraftOptions, draft_case
from promote.draft.provenance import scrub_info
from promote.fsutil import atomic_write_text
from promote.trace_model import Turn
from tui import seams
from tui.trace_store import ScrubbedTrace


def recovery_folder(repo: seams.EvalRepo | None) -> Path:
    """Under the eval repo's `.git/promote/` (never tracked), else the XDG state folder."""
    if repo is not None and (repo.root / ".git").is_dir():
        return repo.root / ".git" / "promote" / "recovery"
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "promote" / "recovery"


def pending_recoveries(repo: seams.EvalRepo | None) -> set[str]:
    """The sources (`trace:<id>:<turn>`, `case:<path>`) that have unsaved edits from an earlier run."""
    found = set()
    for path in sorted(recovery_folder(repo).glob("*.json")):
        try:
            found.add(str(json.loads(path.read_text(encoding="utf-8"))["source"]))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return found


@dataclass
class EditSession:
    case: Case
    """The case as edited so far."""
    path: Path
    """Where it saves (for a draft: `<cases dir>/<id>.yaml`, following the id)."""
    base: seams.LoadedCase | None = None
    """The file as loaded (`--case`), the base of the minimal diff; None for a new draft."""
    turn: Turn | None = None
    """The scrubbed turn the case was drafted from, when there is one."""
    drafted: Case | None = None
    """The case as first drafted or loaded (resets and the numbers' and chunks' suggestions)."""
    notes: list[seams.Problem] = field(default_factory=list)
    """The draft's review notes (severity note)."""
    repo: seams.EvalRepo | None = None
    source: str = ""
    """What this session edits, for the recovery file's name: `trace:<id>:<turn>` or `case:<path>`."""
    saved_json: dict | None = None
    """`case_json` of what is on disk (None until a new draft is first saved)."""
    known_values: ValueFingerprints | None = None
    """Salted fingerprints of the raw values the source trace held: the write gate refuses a case that
    holds one (`promote draft` passes the raw values; they never reach the UI process)."""

    # construction -----------------------------------------------------------------------------

    @classmethod
    def from_draft(cls, scrubbed: ScrubbedTrace, turn: int, *, repo: seams.EvalRepo | None,
                   by: str | None = None, now: datetime | None = None) -> EditSession:
        options = DraftOptions(by=by, cases_dir=repo.cases_dir if repo else None,
                               repo=repo.root if repo else None, now=now)
        scrub = scrubbed.scrub or scrub_info(seams.engine(), scrubbed.replaced)
        result = draft_case(scrubbed.trace, turn, export_path=scrubbed.export, scrub=scrub, options=options)
        cases_dir = repo.cases_dir if repo else Path.cwd()
        return cls(case=result.case, path=cases_dir / f"{result.case.id}.yaml",
                   turn=scrubbed.trace.turns[turn], drafted=result.case, notes=result.notes, repo=repo,
                   source=f"trace:{scrubbed.trace.trace_id}:{turn}", known_values=scrubbed.fingerprints)

    @classmethod
    def from_file(cls, path: Path, *, repo: seams.EvalRepo | None) -> EditSession:
        loaded = seams.load_case(path)
        return cls(case=loaded.case, path=path, base=loaded, drafted=loaded.case, repo=repo,
                   source=f"case:{path.resolve()}", saved_json=case_json(loaded.case))

    # state ------------------------------------------------------------------------------------

    @property
    def dirty(self) -> bool:
        return self.saved_json is None or case_json(self.case) != self.saved_json

    def to_write(self) -> Case:
        """The case as it will be written: `revision` one up when an existing case's content changed."""
        if self.base is None:
            return self.case
        before = case_json(self.base.case)
        after = case_json(self.case)
        before.pop("revision", None)
        after.pop("revision", None)
        if before == after:
            return self.base.case if case_json(self.case) == case_json(self.base.case) else self.case
        if self.case.revision > self.base.case.revision:
            return self.case
        return self.case.model_copy(update={"revision": self.base.case.revision + 1})

    def target(self) -> Path:
        if self.base is None:
            return self.path.with_name(f"{self.case.id}.yaml")
        return self.path

    def render(self) -> str:
        return seams.render_case(self.to_write(), self.base, path=self.target())

    def diff(self) -> str:
        target = self.target()
        on_disk = target.read_text(encoding="utf-8") if target.is_file() else ""
        lines = difflib.unified_diff(on_disk.splitlines(keepends=True),
                                     self.render().splitlines(keepends=True),
                                     fromfile=f"{target.name} (on disk)" if on_disk else "/dev/null",
                                     tofile=f"{target.name} (edited)")
        return "".join(lines) or "no change from the file on disk\n"

    def problems(self) -> list[seams.Problem]:
        """The case's live problems, then the draft's review notes."""
        return seams.live_problems(self.to_write(), self.target()) + list(self.notes)

    # saving -----------------------------------------------------------------------------------

    def save(self) -> tuple[seams.SavedCase, bool]:
        """Write through `save_case` (and whether the file changed); the file is then the next base."""
        case = self.to_write()
        before = self.base.text if self.base is not None else None
        target = self.target()
        saved = seams.save_case(case, target, base=self.base, known_values=self.known_values or ())
        self.path = target
        self.base = seams.load_case(target)
        self.case = self.base.case
        self.saved_json = case_json(self.case)
        self.drop_recovery()
        return saved, saved.text != before

    # recovery ---------------------------------------------------------------------------------

    def recovery_path(self) -> Path:
        digest = hashlib.sha256(self.source.encode()).hexdigest()[:16]
        return recovery_folder(self.repo) / f"{digest}.json"

    def write_recovery(self) -> None:
        if not self.dirty:
            self.drop_recovery()
            return
        body = {"source": self.source, "path": str(self.target()), "case": case_json(self.case)}
        atomic_write_text(self.recovery_path(), json.dumps(body, ensure_ascii=False, indent=1) + "\n")

    def recovered_case(self) -> Case | None:
        """The case a previous run left unsaved, if its recovery file is there and readable."""
        path = self.recovery_path()
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
            if body.get("source") != self.source:
                return None
            return Case.model_validate(body["case"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def drop_recovery(self) -> None:
        self.recovery_path().unlink(missing_ok=True)
