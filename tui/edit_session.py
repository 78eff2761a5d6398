"""One case being edited: where it came from, where it saves, what changed, and its recovery file.

No Textual here: the promote screen holds an `EditSession`, hands it each edit (`apply`: the whole case is
validated again, an edit the model refuses becomes a problem at its field) and asks it, off the UI thread,
for the views (`views`: problems, the YAML `save_case` would write, its diff, the recovery write).
Everything it holds is scrubbed (a scrubbed trace, a draft from it, a case file, or what the SME typed);
the recovery file passes the same raw-value gate as a save.
"""

from __future__ import annotations

import difflib
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_core import to_jsonable_python

from promote.case import suspects
from promote.case.fingerprints import ValueFingerprints
from promote.case.model import Case, Safety, SafetyRule
from promote.case.problems import field_path
from promote.case.rules import PLACEHOLDER_RE
from promote.case.yaml_io import case_json
from promote.draft import DraftOptions, draft_turn
from promote.source.scrub import ScrubbedTrace
from promote.trace_model import Turn
from tui import seams
from tui.recovery import Recovered, RecoveryFile, pending_recoveries, recovery_folder

__all__ = ["EditSession", "Views", "pending_recoveries", "recovery_folder", "top_field", "with_field"]


def suspect_problem(suspect: suspects.Suspect) -> seams.Problem:
    where = f" (and {len(suspect.fields) - 1} more field(s))" if len(suspect.fields) > 1 else ""
    return seams.Problem(severity="warning", rule="suspect", field=suspect.fields[0],
                         message=f"{suspect.text!r} looks like a {suspect.kind} the scrubber kept{where}: "
                                 "x on this line redacts it everywhere")


def top_field(path: str) -> str:
    """`numeric[0].tolerance` → `numeric`."""
    return re.split(r"[.\[]", path, maxsplit=1)[0]


def with_field(case: Case, name: str, value: Any) -> Case:
    """`case` with one top-level field replaced, validated as a whole (`ValidationError` otherwise): an
    edit never bypasses the model the way `model_copy(update=...)` would.

    The new value goes in as plain data, so all of it is validated; the other fields go in as the models
    they already are (validated when they were set), which pydantic takes as they are: a key costs the
    validation of its own field, not of ten tool calls' patterns (benchmarks/tui_typing.py)."""
    data = dict(case)
    data[name] = to_jsonable_python(value)
    return Case.model_validate(data)


PII_LEAK_SCOPE = "other-employee records"
"""The scope of a pii-leak rule drafted without one (the eval repo sets none), as the Safety tab shows it."""


def with_shown_scope(case: Case) -> Case:
    """`case` with the scope the Safety tab shows on a pii-leak rule that has none. Set here, when the
    session opens, not by the tab when it is built: a tab is built only once shown (or never), and what
    is saved is the same either way."""
    safety = case.safety
    if safety is None or all(rule.category != "pii-leak" or rule.scope for rule in safety.must_not):
        return case
    rules = [SafetyRule(category=rule.category, scope=PII_LEAK_SCOPE)
             if rule.category == "pii-leak" and not rule.scope else rule for rule in safety.must_not]
    kept = {name: getattr(safety, name) for name in safety.model_fields_set}
    return with_field(case, "safety", Safety(**{**kept, "must_not": rules}))


@dataclass
class Views:
    """What the screen shows of one state of the case, worked out off the UI thread."""

    case: Case
    problems: list[seams.Problem]
    yaml: str
    diff: str
    dirty: bool
    leaking: list[str]
    """Fields holding a raw value of the source trace (the recovery file was not written with them)."""


@dataclass
class EditSession:
    case: Case
    """The case as edited so far (always a valid model)."""
    path: Path
    """Where it saves (for a draft: `<cases dir>/<id>.yaml`, following the id)."""
    base: seams.LoadedCase | None = None
    """The file as loaded (`--case`), the base of the minimal diff; None for a new draft."""
    turn: Turn | None = None
    """The scrubbed turn the case was drafted from, when there is one."""
    drafted: Case | None = None
    """The case as first drafted or loaded (resets and the numbers' and chunks' suggestions)."""
    notes: list[seams.Problem] = field(default_factory=list)
    """The draft's review notes (severity note); each clears once its field is changed and resolved."""
    repo: seams.EvalRepo | None = None
    source: str = ""
    """What this session edits, for the recovery file's name: `trace:<id>:<turn>` or `case:<path>`."""
    saved_json: dict | None = None
    """`case_json` of what is on disk (None until a new draft is first saved)."""
    known_values: ValueFingerprints | None = None
    """Salted fingerprints of the raw values the source trace held: the write gate refuses a case that
    holds one (`promote draft` passes the raw values; they never reach the UI process)."""
    invalid: dict[str, str] = field(default_factory=dict)
    """What a tab shows but the case could not take (field path → why): saving is refused meanwhile."""
    opened: Case | None = None
    """The case when the session began (a note is resolved once its field differs from here)."""
    drafted_from: str = ""
    """`trace:<id>:<turn>` of a new draft (kept after its first save, when `source` becomes the file)."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.opened is None:
            self.opened = self.case

    # construction -----------------------------------------------------------------------------

    @classmethod
    def from_draft(cls, scrubbed: ScrubbedTrace, turn: int, *, repo: seams.EvalRepo | None,
                   by: str | None = None, now: datetime | None = None) -> EditSession:
        options = DraftOptions(by=by, cases_dir=repo.cases_dir if repo else None,
                               repo=repo.root if repo else None, now=now)
        result = draft_turn(scrubbed, turn, options)
        cases_dir = repo.cases_dir if repo else Path.cwd()
        # A draft's figures are suggestions (kept in `drafted`): the case holds only the accepted ones.
        case = with_shown_scope(with_field(result.case, "numeric", []))
        return cls(case=case, path=cases_dir / f"{result.case.id}.yaml",
                   turn=scrubbed.trace.turns[turn], drafted=result.case, notes=result.notes, repo=repo,
                   source=f"trace:{scrubbed.trace.trace_id}:{turn}", known_values=scrubbed.fingerprints,
                   drafted_from=f"trace:{scrubbed.trace.trace_id}:{turn}")

    @classmethod
    def from_file(cls, path: Path, *, repo: seams.EvalRepo | None, turn: Turn | None = None,
                  known_values: ValueFingerprints | None = None) -> EditSession:
        loaded = seams.load_case(path)
        return cls(case=with_shown_scope(loaded.case), path=path, base=loaded, drafted=loaded.case,
                   repo=repo, turn=turn, source=f"case:{path.resolve()}", saved_json=case_json(loaded.case),
                   known_values=known_values)

    def oracles(self) -> list[str]:
        """The oracles of record the eval repo's cases already name (offered as the SME types one)."""
        found = {figure.oracle for figure in [*self.case.numeric, *(self.drafted or self.case).numeric]}
        folder = self.repo.cases_dir if self.repo else None
        cases = sorted(folder.glob("*.yaml")) if folder is not None and folder.is_dir() else []
        for path in cases[:2000]:
            try:
                found.update(_ORACLE_LINE.findall(path.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError):
                continue
        return sorted(found - {"unassigned"})

    # editing ----------------------------------------------------------------------------------

    def apply(self, name: str, value: Any, invalid: dict[str, str] | None = None) -> bool:
        """Take one tab's edit of field `name`: the case validated with it, or the model's objections
        kept as problems at that field (the case keeps its last valid value). True if the case changed."""
        self.invalid = {path: why for path, why in self.invalid.items() if top_field(path) != name}
        self.invalid.update(invalid or {})
        if name in (invalid or {}):
            return False  # the whole field is unreadable (not JSON): it keeps its last valid value
        if value == getattr(self.case, name):
            return False  # the same value (a key in a field the case could not take): nothing to check
        try:
            case = with_field(self.case, name, value)
        except ValidationError as exc:
            for error in exc.errors():
                location = [part for part in error["loc"] if isinstance(part, int)
                            or ("[" not in part and part not in _TYPE_TAGS)]
                path = field_path(location) or name
                self.invalid.setdefault(path, error["msg"].removeprefix("Value error, "))
            return False
        if getattr(case, name) == getattr(self.case, name):
            return False
        self.case = case
        return True

    def restore(self, recovered: Recovered) -> None:
        self.case = recovered.case
        if recovered.notes:
            self.notes = recovered.notes

    # state ------------------------------------------------------------------------------------

    def is_dirty(self, case: Case | None = None) -> bool:
        return self.saved_json is None or case_json(case or self.case) != self.saved_json

    @property
    def dirty(self) -> bool:
        return self.is_dirty()

    def to_write(self, case: Case | None = None) -> Case:
        """The case as it will be written: `revision` one up when an existing case's content changed."""
        case = case or self.case
        if self.base is None:
            return case
        before = case_json(self.base.case)
        after = case_json(case)
        before.pop("revision", None)
        after.pop("revision", None)
        if before == after:
            return self.base.case if case_json(case) == case_json(self.base.case) else case
        if case.revision > self.base.case.revision:
            return case
        return with_field(case, "revision", self.base.case.revision + 1)

    def target(self, case: Case | None = None) -> Path:
        if self.base is None:
            return self.path.with_name(f"{(case or self.case).id}.yaml")
        return self.path

    def render(self, case: Case | None = None) -> str:
        return seams.render_case(self.to_write(case), self.base, path=self.target(case))

    def diff(self, case: Case | None = None, rendered: str | None = None) -> str:
        target = self.target(case)
        on_disk = target.read_text(encoding="utf-8") if target.is_file() else ""
        lines = difflib.unified_diff(on_disk.splitlines(keepends=True),
                                     (rendered or self.render(case)).splitlines(keepends=True),
                                     fromfile=f"{target.name} (on disk)" if on_disk else "/dev/null",
                                     tofile=f"{target.name} (edited)")
        return "".join(lines) or "no change from the file on disk\n"

    def problems(self, case: Case | None = None) -> list[seams.Problem]:
        """What the tabs could not take, the case's live problems, raw values of the source trace, then
        the draft's review notes that are not resolved yet."""
        case = case or self.case
        shown = [seams.Problem(rule="edit", field=path, message=why) for path, why in self.invalid.items()]
        shown += seams.live_problems(self.to_write(case), self.target(case))
        shown += [seams.Problem(rule="known-value", field=path,
                                message="a value of the source trace: scrub it or replace it")
                  for path in seams.raw_value_fields(case, self.known_values or ())]
        shown += [suspect_problem(suspect) for suspect in suspects.find(case)]
        return shown + [note for note in self.notes if not self._resolved(note, case)]

    def _resolved(self, note: seams.Problem, case: Case) -> bool:
        now, then = _value_at(case_json(case), note.field), _value_at(case_json(self.opened), note.field)
        if now == then:
            return False
        return not (isinstance(now, str) and PLACEHOLDER_RE.search(now))

    def views(self) -> Views:
        """Problems, YAML, diff and the recovery write of the case as it is now (a worker calls this)."""
        with self.lock:
            case = self.case
            rendered = self.render(case)
            dirty = self.is_dirty(case)
            leaking: list[str] = []
            if dirty:
                leaking = self.recovery().write(case, self.target(case), self.notes, self.known_values)
            else:
                self.recovery().drop()
            return Views(case=case, problems=self.problems(case), yaml=rendered,
                         diff=self.diff(case, rendered), dirty=dirty, leaking=leaking)

    # saving -----------------------------------------------------------------------------------

    def save(self) -> tuple[seams.SavedCase, bool]:
        """Write through `save_case` (and whether the file changed); the file is then the next base."""
        with self.lock:
            if self.invalid:
                problems = self.problems()
                listed = "; ".join(f"{path}: {why}" for path, why in self.invalid.items())
                raise seams.CaseRefused(f"not saved: {listed}", [p for p in problems if p.rule == "edit"],
                                        hint="fix the field (the problems panel shows where), then save")
            case = self.to_write()
            before = self.base.text if self.base is not None else None
            target = self.target()
            saved = seams.save_case(case, target, base=self.base, known_values=self.known_values or ())
            self.recovery().drop()
            self.path = target
            self.base = seams.load_case(target)
            self.case = self.base.case
            self.saved_json = case_json(self.case)
            self.source = f"case:{target.resolve()}"  # from now on it edits that file, as a reopen does
            return saved, saved.text != before

    # recovery ---------------------------------------------------------------------------------

    def recovery(self) -> RecoveryFile:
        return RecoveryFile(self.repo, self.source)

    def recovered(self) -> Recovered | None:
        """What a previous run left unsaved (`RecoveryUnreadable` when the file is broken)."""
        return self.recovery().read()

    def drop_recovery(self) -> None:
        self.recovery().drop()


# `oracle: x` in block style and in a flow mapping (`- {name: pto, oracle: x, tolerance: 0}`).
_ORACLE_LINE = re.compile(r"(?:^|[\s{,])oracle:\s*['\"]?([\w./@:-]+)", re.MULTILINE)
# Parts of a pydantic error location that name the type a union tried, not a field.
_TYPE_TAGS = {"str", "int", "float", "bool", "list", "dict", "none", "json-or-python"}


def _value_at(data: Any, path: str) -> Any:
    """The value at `numeric[0].oracle` in JSON data, or None."""
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            index = int(part[1:-1])
            data = data[index] if isinstance(data, list) and index < len(data) else None
        else:
            data = data.get(part) if isinstance(data, dict) else None
    return data
