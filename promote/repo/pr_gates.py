"""The gates in front of a promotion: what each case is, where it goes, and why it may not go.

All of them run before anything is committed: the `validate` rules and the residual-PII scan, the
values the source trace held (when the caller knows them), a record of scrubbing on a promoted case,
and id uniqueness in the eval repo at the base commit (an existing id is allowed only as an edit of
that case with a higher revision). Problems come back all at once, so one run shows every fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from promote.case.model import Case
from promote.case.store import load_case
from promote.case.validate import validate_case
from promote.case.yaml_io import load_tree
from promote.errors import PromoteError
from promote.eval_repo import EvalRepo

# The id-matches-file-name rule: `promote pr` names the committed file after the id, whatever the
# source file is called.
_FILE_NAME_RULE = "id"
MIN_KNOWN_VALUE = 3  # as the case writer's known-value gate


@dataclass
class PlannedCase:
    """One case on its way into the repo."""

    source: Path
    data: bytes
    """The file's bytes, committed exactly as they are."""
    case: Case
    target: Path
    """Where it goes, relative to the repository root."""
    edit_of: int | None = None
    """The revision it replaces when it is an edit of a case already in the repo."""
    notes: list[str] = field(default_factory=list)
    """What the SME must still confirm: the draft notes of `validate`, then the case's review notes."""


class CasesRefused(PromoteError):
    """The gates refused one or more cases; `problems` holds one line per reason."""

    exit_code = 1

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"refused, nothing committed: {problems[0]}{more}")


def read_sources(paths: Sequence[Path]) -> list[tuple[Path, bytes, Case | None]]:
    """Each case file's bytes and model, read once, before the repository is touched."""
    if not paths:
        raise PromoteError("no case given", hint="promote pr CASE.yaml... --repo DIR")
    return [(path, *_read_case(path)) for path in paths]


def _read_case(path: Path) -> tuple[bytes, Case | None]:
    """The file's bytes and its case (None when it is not a schema-valid case: the gates say why)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PromoteError("no such file", where=str(path)) from None
    except OSError as exc:
        raise PromoteError(f"cannot read: {exc.strerror}", where=str(path)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PromoteError(f"not UTF-8 text (byte {exc.start})", where=str(path)) from None
    tree = load_tree(path, text)  # bad YAML: PromoteError with file and line
    try:
        return data, Case.model_validate(tree)
    except ValueError:
        return data, None


def plan_cases(
    sources: Sequence[tuple[Path, bytes, Case | None]], worktree: Path, *, known_values: Sequence[str] = ()
) -> list[PlannedCase]:
    """Run every gate; the plan when all pass, else CasesRefused listing every reason."""
    problems: list[str] = []
    planned: list[PlannedCase] = []
    eval_repo = EvalRepo.find(worktree)
    seen: dict[str, Path] = {}
    for path, data, case in sources:
        found, notes = _case_problems(path, data, case, known_values)
        if case is not None:
            if case.id in seen:
                found.append(f"{path}: its id is also the id of {seen[case.id]}: "
                             "give one of them a new id [unique-id]")
            seen.setdefault(case.id, path)
        if case is None or found:
            problems += found or [f"{path}: not a portable-v1 case"]
            continue
        target = (eval_repo.cases_dir / f"{case.id}.yaml").relative_to(eval_repo.root)
        item = PlannedCase(source=path, data=data, case=case, target=target, notes=notes)
        problem = _place(item, eval_repo)
        if problem:
            problems.append(problem)
        else:
            planned.append(item)
    if problems:
        raise CasesRefused(problems)
    return planned


def _case_problems(
    path: Path, data: bytes, case: Case | None, known_values: Sequence[str]
) -> tuple[list[str], list[str]]:
    """(errors, notes): errors refuse the case, notes are what the SME must still confirm."""
    problems = validate_case(path)
    found = [f"{problem.where}: {problem.field or '-'}: {problem.message} [{problem.rule}]"
             for problem in problems if problem.severity == "error" and problem.rule != _FILE_NAME_RULE]
    notes = [f"{problem.field}: {problem.message}" if problem.field else problem.message
             for problem in problems if problem.severity == "note"]
    text = data.decode("utf-8")
    # The raw values are never shown: how many there were is enough to act on.
    leaked = sum(1 for value in significant(known_values) if value in text)
    if leaked:
        found.append(f"{path}: {leaked} value(s) of the source trace are still in the case: scrub them "
                     "[known-value]")
    unscrubbed = case is not None and (case.provenance is None or case.provenance.scrubbed is None)
    if case is not None and case.origin == "trace" and unscrubbed:
        found.append(f"{path}: provenance.scrubbed: a case promoted from a trace must record how it was "
                     "scrubbed (draft it with promote draft) [scrubbed]")
    return found, notes + _review_notes(case)


def significant(known_values: Sequence[str]) -> list[str]:
    """The raw values worth looking for: shorter ones ("Li", "CA") would match ordinary text."""
    return [value for value in dict.fromkeys(known_values) if len(value.strip()) >= MIN_KNOWN_VALUE]


def _review_notes(case: Case | None) -> list[str]:
    """Notes the SME left in the case's metadata for the reviewer (`metadata.notes`, a text or a list)."""
    if case is None:
        return []
    notes = case.metadata.get("notes") or case.metadata.get("review_notes") or []
    return [notes] if isinstance(notes, str) else [str(note) for note in notes if note]


def _place(item: PlannedCase, eval_repo: EvalRepo) -> str | None:
    """Where the case goes: a new file, or over the file of the case it edits. A problem, or None."""
    existing = _existing(item.case.id, eval_repo)
    if existing is None:
        return None
    relative = existing.relative_to(eval_repo.root)
    try:
        old_revision: int | None = load_case(existing).case.revision
    except PromoteError:
        old_revision = None
    if old_revision is None or item.case.revision <= old_revision:
        shown = f"revision {old_revision}" if old_revision is not None else "not a readable case"
        return (f"{item.source}: id {item.case.id} already exists in the repo ({relative}, {shown}): "
                f"to edit that case raise its revision above {old_revision or 1}, else choose a new id")
    item.target, item.edit_of = relative, old_revision
    return None


def _existing(case_id: str, eval_repo: EvalRepo) -> Path | None:
    """The repo's file for `case_id`: named after it, or holding it as its `id:`."""
    files = eval_repo.case_files()
    for path in files:
        if path.stem == case_id:
            return path
    id_line = re.compile(rf"^id:\s*['\"]?{re.escape(case_id)}['\"]?\s*$", re.MULTILINE)
    for path in files:
        try:
            if id_line.search(path.read_text(encoding="utf-8", errors="replace")):
                return path
        except OSError:
            continue
    return None


def scrubbed_by(case: Case) -> str | None:
    """`presidio <version> policy <sha256>` for the Scrubbed-by trailer."""
    scrubbed = case.provenance.scrubbed if case.provenance else None
    if scrubbed is None:
        return None
    policy = scrubbed.policy.split("@sha256:", 1)[1] if "@sha256:" in scrubbed.policy else scrubbed.policy
    return f"{scrubbed.engine} {scrubbed.version} policy {policy}"
