"""`promote validate`: schema, the portable-v1 rules, and (through a hook) residual PII.

Each problem names the file, line and column, the field path, the rule and what to do. Drafts get the
same checks, but what a reviewer still has to fill in (unresolved entities, unassigned oracles,
placeholders in tool args) is a note on a draft and an error on a valid case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedMap

from promote.case.model import ID_PATTERN, Case
from promote.case.pii_texts import ANCHOR, COMMENT, KEY, TAG, AtLine
from promote.case.problems import Problem, field_path
from promote.case.rules import case_rule_problems
from promote.case.yaml_io import load_tree, new_tree
from promote.errors import PromoteError
from promote.models import Model

ResidualScan = Callable[[CommentedMap], list[tuple[tuple[Any, ...], str]]]
"""Takes a case tree, returns (field location, entity type) pairs: never the values."""

__all__ = ["FileResult", "Problem", "ValidationReport", "field_path", "locate", "validate_case",
           "validate_file", "validate_paths"]


class FileResult(Model):
    """The verdict on one case file."""

    path: str
    """The file."""
    id: str | None = None
    """The case id, when it could be read."""
    status: str | None = None
    """draft | valid | retired, when it could be read."""
    ok: bool
    """True when there is no error (notes allowed)."""
    bad_input: bool = False
    """True when the file could not be read as a case at all (not YAML, empty, ...)."""
    problems: list[Problem]
    """Errors and notes, in file order."""


class ValidationReport(Model):
    """The verdict on every case validated."""

    files: list[FileResult]
    """One result per file."""

    @property
    def ok(self) -> bool:
        return all(result.ok for result in self.files)

    @property
    def bad_input(self) -> bool:
        return any(result.bad_input for result in self.files)


def find_case_files(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given, folders searched recursively for `*.yaml` / `*.yml`, in sorted order."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(case_files_under(path))
        elif path.exists():
            found.append(path)
        elif path.is_symlink():
            raise PromoteError("a symlink to nothing (dangling)", where=str(path),
                               hint="point it at the case file, or remove it")
        else:
            raise PromoteError("no such file or folder", where=str(path))
    return found


def case_files_under(folder: Path | None) -> list[Path]:
    """Every `*.yaml` / `*.yml` file under `folder` (recursive), sorted; none when it is not a folder.
    A symlink to nothing is listed too (reading it says so): a case must not vanish in silence."""
    if folder is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in {".yaml", ".yml"}
                  and (p.is_file() or (p.is_symlink() and not p.exists())))


def validate_paths(
    paths: Iterable[str | Path], *, residual_scan: ResidualScan | None = None
) -> ValidationReport:
    """Validate every case under `paths`; ids must be unique across all of them. No case file at all
    is bad input (a folder with none was most likely the wrong folder)."""
    paths = list(paths)
    files = find_case_files(paths)
    if not files:
        raise PromoteError("no case file (*.yaml, *.yml) found", where=", ".join(map(str, paths)),
                           hint="pass case files or the folder holding them")
    results = [validate_file(path, residual_scan=residual_scan) for path in files]
    _check_unique_ids(results)
    return ValidationReport(files=results)


def _default_scan(tree: CommentedMap) -> list[tuple[tuple[Any, ...], str]]:
    from promote.case.pii import residual_scan_for_validate

    return residual_scan_for_validate(tree)


def validate_case(
    subject: Case | CommentedMap | str | Path,
    *,
    path: str | Path | None = None,
    residual_scan: ResidualScan | None = _default_scan,
) -> list[Problem]:
    """Every problem of a case given as a model, a loaded tree or a file, in file order.

    A file that cannot be read as a case gives one `bad-input` problem. `path` names the file a model or
    tree is (or will be) saved as: problems then carry it, and the id must match its name. Problems of
    a model without a file carry no line. `residual_scan=None` skips the residual-PII scan (slow: NER).
    """
    if isinstance(subject, (str, Path)):
        path = Path(subject)
        try:
            tree = load_tree(path)
        except PromoteError as exc:
            message = f"{exc.what} ({exc.hint})" if exc.hint else exc.what
            return [_bad_input(exc.where or str(path), message)]
        return _tree_problems(tree, path, residual_scan, located=True)
    if isinstance(subject, Case):
        tree = new_tree(subject)
        return _tree_problems(tree, Path(path) if path is not None else None, residual_scan, located=False)
    return _tree_problems(subject, Path(path) if path is not None else None, residual_scan, located=True)


def _bad_input(where: str, message: str) -> Problem:
    file, line, column = _split_where(where)
    return Problem(rule="bad-input", message=message, file=file, line=line, column=column)


def _split_where(where: str) -> tuple[str, int | None, int | None]:
    parts = where.split(":")
    numbers: list[int] = []
    while len(parts) > 1 and parts[-1].isdigit() and len(numbers) < 2:
        numbers.insert(0, int(parts.pop()))
    return ":".join(parts), (numbers[0] if numbers else None), (numbers[1] if len(numbers) > 1 else None)


def _tree_problems(
    tree: CommentedMap, path: Path | None, residual_scan: ResidualScan | None, *, located: bool
) -> list[Problem]:
    found: list[tuple[tuple[Any, ...], str, str, str]] = []  # (location, rule, message, severity)
    try:
        case = Case.model_validate(tree)
    except ValidationError as exc:
        found.extend((tuple(error["loc"]), "schema", _schema_message(error), "error")
                     for error in exc.errors())
        case = None
    if case is not None:
        found.extend(case_rule_problems(case, path.stem if path is not None else None))
    flagged: set[tuple[Any, ...]] = set()
    if residual_scan is not None:
        for location, entity_type in residual_scan(tree):
            part = _MARKED_PARTS.get(location[-1], "") if location and isinstance(location[-1], str) else ""
            if part == " in a key":
                flagged.add(tuple(location[:-1]))
            message = f"{entity_type} found{part}: scrub it or replace it with a sandbox value"
            found.append((location, "residual-pii", message, "error"))
    # In file order: each problem is located once, and sorted by that position (a stable sort).
    located_found = sorted(((_position(tree, item[0]), item) for item in found), key=lambda pair: pair[0])
    file = str(path) if path is not None else None
    return [
        Problem(file=file, line=line if located else None, column=column if located else None,
                field=shown_field(location, flagged), rule=rule, message=message, severity=severity)
        for (line, column), (location, rule, message, severity) in located_found
    ]


_MARKED_PARTS = {KEY: " in a key", ANCHOR: " in an anchor", TAG: " in a tag", COMMENT: " in a comment"}


def _position(tree: Any, location: tuple[Any, ...]) -> tuple[int, int]:
    if location and isinstance(location[-1], AtLine):  # a comment: its own line
        return int(location[-1]) + 1, 1
    return locate(tree, location)


def shown_field(location: tuple[Any, ...], flagged: set[tuple[Any, ...]]) -> str:
    """The field path a problem is shown with; a key the residual scan flagged is shown as `<key>`
    (its line and column say where it is), so no message repeats what the scan found."""
    parts: list[Any] = []
    for index, part in enumerate(location):
        if isinstance(part, AtLine):
            continue
        parts.append("<key>" if isinstance(part, str) and tuple(location[: index + 1]) in flagged else part)
    return field_path(parts)


def validate_file(path: Path, *, residual_scan: ResidualScan | None = None) -> FileResult:
    """Validate one case file."""
    path = Path(path)
    try:
        tree = load_tree(path)
    except PromoteError as exc:
        message = f"{exc.what} ({exc.hint})" if exc.hint else exc.what
        return FileResult(path=str(path), ok=False, bad_input=True,
                          problems=[_bad_input(exc.where or str(path), message)])
    problems = _tree_problems(tree, path, residual_scan, located=True)
    # An id the residual scan flagged is not repeated in the report (it names the case nowhere).
    id_flagged = any(p.rule == "residual-pii" and p.field == "id" for p in problems)
    return FileResult(
        path=str(path),
        id=str(tree.get("id")) if tree.get("id") is not None and not id_flagged else None,
        status=str(tree.get("status")) if tree.get("status") is not None else None,
        ok=not any(p.severity == "error" for p in problems),
        problems=problems,
    )


def _schema_message(error: dict[str, Any]) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        return "unknown key (a typo? portable-v1 does not define it)"
    if kind == "missing":
        return "required key is missing"
    if kind == "string_pattern_mismatch" and error["loc"] == ("id",):
        return f"id must look like <pillar>.<topic>_<NNN> ({ID_PATTERN})"
    return error["msg"]


def locate(tree: Any, location: Iterable[Any]) -> tuple[int, int]:
    """1-based line and column of the deepest part of `location` that exists in the tree."""
    line, column = 1, 1
    node = tree
    for part in location:
        try:
            if isinstance(node, CommentedMap) and part in node:
                line, column = node.lc.key(part)
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                line, column = node.lc.item(part)
            else:
                break
            line, column = line + 1, column + 1
            node = node[part]
        except (AttributeError, KeyError, TypeError):
            break
    return line, column


def _check_unique_ids(results: list[FileResult]) -> None:
    seen: dict[str, str] = {}
    for result in results:
        if result.id is None or result.bad_input:
            continue
        if result.id in seen:
            result.problems.append(
                Problem(
                    file=result.path,
                    line=1,
                    field="id",
                    rule="unique-id",
                    message=f"this id is also used by {seen[result.id]}: ids must be unique",
                )
            )
            result.ok = False
        else:
            seen[result.id] = result.path


def render_report(report: ValidationReport) -> str:
    """Human-readable lines: one per problem, then a summary."""
    lines = []
    for result in report.files:
        if not result.problems:
            lines.append(f"ok      {result.path}")
            continue
        verdict = "ok" if result.ok else "FAIL"
        lines.append(f"{verdict:<7} {result.path}")
        for problem in result.problems:
            lines.append(f"  {problem.where}: {problem.severity}: {problem.field or '-'}: "
                         f"{problem.message} [{problem.rule}]")
    failed = sum(not r.ok for r in report.files)
    notes = sum(p.severity == "note" for r in report.files for p in r.problems)
    lines.append(
        f"{len(report.files)} case(s): {len(report.files) - failed} valid, {failed} failed"
        + (f", {notes} note(s) on drafts" if notes else "")
    )
    return "\n".join(lines)
