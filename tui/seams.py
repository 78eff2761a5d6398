"""The seams the UI codes against, in one place: case store, validation, eval repo, scrub engine.

Until `promote.case.store`, `promote.case.validate.validate_case`, `promote.repo.eval_repo.EvalRepo`
and `promote.scrubbing.engine` are on main, these are thin adapters over today's functions with the
same names and shapes; switching to the real ones is an edit of this file alone.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from ruamel.yaml.comments import CommentedMap

from promote.case.model import Case
from promote.case.rules import case_rule_problems
from promote.case.validate import field_path
from promote.case.yaml_io import case_json, dump_tree, load_tree, merge_case, new_tree, schema_header_for
from promote.draft import entities as catalog_io
from promote.draft.export import _compact
from promote.errors import PromoteError
from promote.fsutil import atomic_write_text
from promote.repo import eval_repo as repo_io


class Problem(BaseModel):
    """One typed problem of a case (the shape of `promote.case.problems.Problem`)."""

    model_config = ConfigDict(extra="forbid")

    severity: Literal["error", "warning", "note"]
    rule: str
    field: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None


class CaseRefused(PromoteError):
    """save_case refused the case; `.problems` says why."""

    def __init__(self, what: str, problems: list[Problem]) -> None:
        super().__init__(what)
        self.problems = problems


@dataclass
class LoadedCase:
    """A case file as loaded: the model, its comment-carrying tree, its text and path."""

    case: Case
    tree: CommentedMap
    text: str
    path: Path


@dataclass
class SavedCase:
    path: Path
    text: str
    changed: bool


def validate_case(case: Case) -> list[Problem]:
    """The portable-v1 rules on a model (schema errors cannot occur: it is a model already)."""
    return [
        Problem(severity=severity, rule=rule, field=field_path(location), message=message)
        for location, rule, message, severity in case_rule_problems(case, case.id)
    ]


def load_case(path: Path) -> LoadedCase:
    text = path.read_text(encoding="utf-8") if path.is_file() else None
    if text is None:
        raise PromoteError("no such file", where=str(path))
    tree = load_tree(path, text)
    try:
        case = Case.model_validate(tree)
    except ValueError as exc:
        raise PromoteError(f"not a valid case: {str(exc).splitlines()[0]}", where=str(path)) from None
    return LoadedCase(case=case, tree=tree, text=text, path=path)


def render_case(case: Case, base: LoadedCase | None = None, path: Path | None = None) -> str:
    """Exactly the text `save_case` writes."""
    if base is not None:
        tree = load_tree(base.path, base.text)
        merge_case(tree, case)
        if case_json(Case.model_validate(load_tree(base.path, base.text))) == case_json(case):
            return base.text
        return dump_tree(tree, schema_header_for(base.path))
    tree = new_tree(case)
    _compact(tree)
    return dump_tree(tree, schema_header_for(path) if path is not None else dump_header())


def dump_header() -> str:
    from promote.case.yaml_io import SCHEMA_HEADER

    return SCHEMA_HEADER


def save_case(
    case: Case, path: Path, *, base: LoadedCase | None = None, known_values: tuple[str, ...] = (),
    overwrite: bool = False,
) -> SavedCase:
    """Validate, run the residual-PII gate, write atomically; the one door for case writes."""
    from promote.case.pii import residual_scan_for_validate

    problems = validate_case(case)
    errors = [p for p in problems if p.severity == "error"]
    if errors and case.status == "valid":
        raise CaseRefused(f"{len(errors)} error(s): fix them or keep the case a draft", errors)
    text = render_case(case, base, path)
    if base is not None and text == base.text:
        return SavedCase(path=path, text=text, changed=False)
    if base is None and path.exists() and not overwrite:
        raise PromoteError("a case file is already there", where=str(path), hint="choose another id")
    from promote.case.yaml_io import yaml_factory

    tree = yaml_factory().load(text)
    findings = residual_scan_for_validate(tree)
    leaked = [value for value in known_values if value and value in text]
    if findings or leaked:
        found = [Problem(severity="error", rule="residual-pii", field=field_path(loc),
                         message=f"{kind} found: scrub it or replace it") for loc, kind in findings]
        listed = ", ".join(f"{p.field} ({p.message.split(' ', 1)[0]})" for p in found) or "known raw values"
        raise CaseRefused(f"personal data left in the case: {listed}", found)
    atomic_write_text(path, text)
    return SavedCase(path=path, text=text, changed=True)


@dataclass
class EvalRepo:
    """The eval repo a case is promoted into (the shape of `promote.repo.eval_repo.EvalRepo`)."""

    root: Path
    cases_dir: Path
    catalog: list[Any] = field(default_factory=list)
    tenant: Any = None

    @classmethod
    def find(cls, start: Path) -> EvalRepo:
        start = start.resolve()
        root = next((p for p in [start, *start.parents] if (p / ".git").exists()), start)
        cases = root / "evals" / "cases"
        found = catalog_io.find_catalog(cases if cases.is_dir() else root)
        return cls(root=root, cases_dir=cases, catalog=list(found.entities), tenant=found.tenant)

    def case_files(self) -> list[Path]:
        return repo_io.case_files(self.cases_dir)

    def find_duplicate(self, user_input: str, tool_names: list[str]) -> Path | None:
        return repo_io.find_duplicate(self.cases_dir, user_input, tool_names)


@functools.lru_cache(maxsize=4)
def engine(policy: str | None = None, key_file: str | None = None) -> Any:
    """The scrub engine (cached: loading the NLP model takes seconds)."""
    from scrubbers import ScrubEngine, load_policy

    return ScrubEngine(load_policy(policy) if policy else load_policy())
