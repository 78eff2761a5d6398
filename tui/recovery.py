"""The recovery file of a case being edited: the whole case as edited (accepted figures, rules, notes),
written once per edit (debounced, off the UI thread), behind the same raw-value gate as a save.

It lives under the eval repo's `.git/promote/recovery/` (never tracked), else the XDG state folder, and is
named by what the session edits (`trace:<id>:<turn>` or `case:<path>`).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from promote.case.fingerprints import ValueFingerprints
from promote.case.model import Case
from promote.case.problems import Problem
from promote.case.yaml_io import case_json
from promote.fsutil import atomic_write_text
from tui import seams


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


class RecoveryUnreadable(Exception):
    """A recovery file is there but does not hold a case: it is kept, and the user told where."""


@dataclass
class Recovered:
    case: Case
    notes: list[Problem] = field(default_factory=list)


@dataclass
class RecoveryFile:
    repo: seams.EvalRepo | None
    source: str

    @property
    def path(self) -> Path:
        digest = hashlib.sha256(self.source.encode()).hexdigest()[:16]
        return recovery_folder(self.repo) / f"{digest}.json"

    def write(self, case: Case, target: Path, notes: list[Problem],
              known_values: ValueFingerprints | None) -> list[str]:
        """Write the case unless it holds a raw value of its source trace; the fields that do (then the
        file keeps the last clean state, and the save gate shows the same fields)."""
        body = {"source": self.source, "path": str(target), "case": case_json(case),
                "notes": [note.model_dump(mode="json", exclude={"where"}) for note in notes]}
        leaking = seams.raw_value_fields(body, known_values or ())
        if leaking:
            return leaking
        atomic_write_text(self.path, json.dumps(body, ensure_ascii=False, indent=1) + "\n")
        return []

    def read(self) -> Recovered | None:
        """What an earlier run left, or None; `RecoveryUnreadable` when the file is there but broken."""
        path = self.path
        if not path.is_file():
            return None
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
            if body.get("source") != self.source:
                return None
            notes = [Problem.model_validate(note) for note in body.get("notes") or []]
            return Recovered(case=Case.model_validate(body["case"]), notes=notes)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, ValidationError) as exc:
            first = exc.errors()[0] if isinstance(exc, ValidationError) else None
            reason = (f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}" if first
                      else type(exc).__name__)
            # Moved aside: the session's next edit writes a recovery file at this path.
            kept = path.with_name(path.name + ".unreadable")
            try:
                path.replace(kept)
            except OSError:
                kept = path
            raise RecoveryUnreadable(f"the recovery file {kept} does not hold a case ({reason}): it is kept "
                                     "there; open it in an editor to copy what you need") from None

    def drop(self) -> None:
        self.path.unlink(missing_ok=True)
