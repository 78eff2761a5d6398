"""The one door for case files: `load_case`, `render_case`, `save_case`.

Every part of promote that writes a case (draft, the UI, pr, a migration) calls `save_case`, which
validates the case (errors refuse a `valid` case; a draft is written with its notes), runs the
residual-PII gate (the NER scan, and the raw values the source trace held when the caller knows them),
merges an edit into the file it was loaded from (only the lines it touches change, comments stay),
adds the `$schema` header, and writes atomically (temp file + rename; an existing file keeps its mode,
a new one gets the umask's). `render_case` returns exactly the text `save_case` would write.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from promote.case.fingerprints import ValueFingerprints
from promote.case.model import Case
from promote.case.problems import Problem, field_path
from promote.case.validate import ResidualScan, _default_scan, locate, validate_case
from promote.case.yaml_io import (SCHEMA_HEADER, case_json, dump_tree, load_tree, merge_case, new_tree,
                                  schema_header_for)
from promote.errors import PromoteError
from promote.fsutil import atomic_write_text

# Short all-scalar collections below the top level are written on one line, as hand-written cases do.
_FLOW_WIDTH = 88
# Problems that refuse any case, draft or not: personal data, and a file name that is not the id.
_ALWAYS_REFUSED = {"residual-pii", "known-value", "id", "schema"}
_MIN_KNOWN_VALUE = 3


class CaseRefused(PromoteError):
    """A case `save_case` will not write (or `load_case` cannot read as a case); `.problems` says why."""

    def __init__(self, what: str, problems: list[Problem], *, where: str | None = None,
                 hint: str | None = None):
        self.problems = problems
        super().__init__(what, where=where, hint=hint)


@dataclass
class LoadedCase:
    """A case file as read: the model, the comment-carrying tree, the text, and where it was."""

    case: Case
    tree: CommentedMap
    text: str
    path: Path


@dataclass
class SavedCase:
    """What `save_case` wrote: the file, its text, and the notes and warnings it was written with."""

    path: Path
    text: str
    case: Case
    problems: list[Problem] = field(default_factory=list)


def load_case(path: str | Path) -> LoadedCase:
    """Read a case file; bad YAML is a `PromoteError` (file:line), a schema error a `CaseRefused`."""
    path = Path(path)
    tree = load_tree(path)
    text = path.read_text(encoding="utf-8")
    try:
        case = Case.model_validate(tree)
    except ValidationError:
        problems = [p for p in validate_case(tree, path=path, residual_scan=None) if p.rule == "schema"]
        first = problems[0]
        raise CaseRefused(
            f"{first.field or 'case'}: {first.message}",
            problems,
            where=first.where,
            hint="fix the file, then load it again (`promote validate` lists every problem)",
        ) from None
    return LoadedCase(case=case, tree=tree, text=text, path=path)


def render_case(case: Case, base: LoadedCase | None = None, *, path: str | Path | None = None) -> str:
    """The text `save_case(case, path, base=base)` writes: `base`'s file with the edit merged in, or a
    new file (header relative to the schema nearest `path`)."""
    if base is not None:
        tree = load_tree(base.path, base.text)  # a fresh tree: rendering never changes `base`
        merge_case(tree, case)
        header = schema_header_for(path or base.path)
    else:
        tree = new_tree(case)
        _compact(tree)
        header = schema_header_for(path) if path is not None else SCHEMA_HEADER
    return dump_tree(tree, header)


def save_case(
    case: Case,
    path: str | Path,
    *,
    base: LoadedCase | None = None,
    known_values: Iterable[str] | ValueFingerprints = (),
    overwrite: bool = False,
    residual_scan: ResidualScan | None = _default_scan,
) -> SavedCase:
    """Validate, gate and write `case` to `path`; the one way promote writes a case file.

    Refused (`CaseRefused`, nothing written) when the text holds personal data (the residual scan, or
    any of `known_values`), the file name is not the id, or the case is not a draft and has an error.
    An existing file is replaced only when it is `base`'s own file or `overwrite` is set.
    `residual_scan=None` skips the NER scan (tests of other parts only).
    """
    path = Path(path)
    if path.exists() and not overwrite and (base is None or base.path.resolve() != path.resolve()):
        raise PromoteError("a case file is already there", where=str(path),
                           hint="edit that case, choose another id, or pass --force to replace it")
    checked = checked_text(case, path, base=base, known_values=known_values, residual_scan=residual_scan)
    _atomic_write(path, checked.text)
    return SavedCase(path=path, text=checked.text, case=case, problems=checked.problems)


@dataclass
class CheckedText:
    """A case's text and what validating it found (nothing that refuses it)."""

    text: str
    problems: list[Problem]


def checked_text(
    case: Case,
    path: str | Path | None,
    *,
    base: LoadedCase | None = None,
    known_values: Iterable[str] | ValueFingerprints = (),
    residual_scan: ResidualScan | None = _default_scan,
) -> CheckedText:
    """`render_case`'s text once it passed `save_case`'s checks (for printing a case instead of saving
    it: the same gate); `CaseRefused` otherwise."""
    text = render_case(case, base, path=path)
    tree = load_tree(path or f"{case.id}.yaml", text)
    problems = validate_case(tree, path=path, residual_scan=residual_scan)
    problems += _known_value_problems(tree, known_values, path)
    refusing = [p for p in problems if p.severity == "error"
                and (case.status != "draft" or p.rule in _ALWAYS_REFUSED)]
    if refusing:
        raise CaseRefused(_refusal(case, refusing), refusing, where=str(path) if path is not None else None,
                          hint=_hint(refusing))
    return CheckedText(text=text, problems=problems)


def _refusal(case: Case, problems: list[Problem]) -> str:
    personal = [p for p in problems if p.rule in ("residual-pii", "known-value")]
    if personal:
        listed = ", ".join(dict.fromkeys(f"{p.field or '?'} ({p.message.split(' found')[0]})"
                                         for p in personal))
        return f"refusing to write {case.id}: personal data left in {listed}"
    listed = "; ".join(f"{p.field or '-'}: {p.message}" for p in problems[:3])
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return f"refusing to write {case.id}: {listed}{more}"


def _hint(problems: list[Problem]) -> str:
    if any(p.rule in ("residual-pii", "known-value") for p in problems):
        return "scrub the trace with a stricter policy or edit the field before promoting"
    if any(p.rule == "id" for p in problems):
        return "name the file <id>.yaml or change the id"
    return "fix these, or keep the case as status: draft until they are"


def _known_value_problems(
    tree: CommentedMap, known_values: Iterable[str] | ValueFingerprints, path: str | Path | None
) -> list[Problem]:
    """Every field holding one of the raw values the source trace held (case-insensitive, whole words);
    `known_values` may be the values or their salted fingerprints (`promote.case.fingerprints`)."""
    found = _known_value_finder(known_values)
    if found is None:
        return []
    problems = []
    for location, text in string_locations(tree):
        if found(text):
            line, column = locate(tree, location)
            problems.append(Problem(rule="known-value", field=field_path(location),
                                    message="a value of the source trace found: scrub it or replace it",
                                    file=str(path) if path is not None else None,
                                    line=line if path is not None else None,
                                    column=column if path is not None else None))
    return problems


def raw_value_fields(data: Any, known_values: Iterable[str] | ValueFingerprints) -> list[str]:
    """The field paths (`expected_output`, `numeric[0].name`) of `data` (a case, or its JSON data) that
    hold one of `known_values`: `save_case`'s raw-value gate, for what else is written (a recovery file)."""
    found = _known_value_finder(known_values)
    if found is None:
        return []
    tree = case_json(data) if isinstance(data, Case) else data
    return [field_path(location) for location, text in string_locations(tree) if found(text)]


def _known_value_finder(known_values: Iterable[str] | ValueFingerprints) -> Callable[[str], Any] | None:
    if isinstance(known_values, ValueFingerprints):
        return known_values.found_in if known_values else None
    values = sorted({v.strip() for v in known_values if isinstance(v, str)
                     and len(v.strip()) >= _MIN_KNOWN_VALUE},
                    key=len, reverse=True)
    if not values:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(v) for v in values) + r")(?!\w)",
                      re.IGNORECASE).search


def string_locations(node: Any, location: tuple[Any, ...] = ()) -> Iterable[tuple[tuple[Any, ...], str]]:
    """(location, text) of every string in a case's plain data, locations as key and index paths."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from string_locations(value, (*location, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from string_locations(value, (*location, index))
    elif isinstance(node, str):
        yield location, str(node)


def _atomic_write(path: Path, text: str) -> None:
    """Temp file + rename (`promote.fsutil`): an existing file keeps its mode, a new one gets the umask's."""
    atomic_write_text(path, text)


def _compact(node: Any, top: bool = True) -> None:
    """One-line `{...}` / `[...]` for short all-scalar collections below the top level, as the
    hand-written cases do (`args: {topic: pto_carryover, jurisdiction: CA}`, `kind: [functional]`)."""
    children = node.values() if isinstance(node, CommentedMap) else node
    for child in children:
        if isinstance(child, (CommentedMap, CommentedSeq)):
            _compact(child, top=False)
    if top or not isinstance(node, (CommentedMap, CommentedSeq)) or not node:
        return
    scalars = list(node.values()) if isinstance(node, CommentedMap) else list(node)
    if (
        all(not isinstance(v, (dict, list)) for v in scalars)
        and len(str(scalars)) + 4 * len(scalars) <= _FLOW_WIDTH
    ):
        node.fa.set_flow_style()


__all__ = ["CaseRefused", "LoadedCase", "SavedCase", "checked_text", "load_case", "raw_value_fields",
           "render_case", "save_case"]
