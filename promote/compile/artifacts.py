"""What every backend compiler takes and gives: a case ready to compile, artifacts, warnings.

Backend modules are pure functions from these models to artifacts; only `run.py` touches the disk.
Artifacts are rendered deterministically: keys in the order the compiler builds them (never a set's
order), two-space JSON, UTF-8 as is, exactly one trailing newline, so a re-run changes nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

from pydantic_core import to_jsonable_python

from promote.case.model import Case, Entity
from promote.case.yaml_config import yaml_factory


@dataclass(frozen=True)
class ResolvedEntity:
    """A case's entity handle and the sandbox record it resolves to (the repo's catalog wins)."""

    handle: str
    resolves_to: str | None
    via: str | None = None
    calendar: str | None = None
    from_catalog: bool = False

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"handle": self.handle, "resolves_to": self.resolves_to}
        if self.via:
            data["via"] = self.via
        if self.calendar:
            data["calendar"] = self.calendar
        return data


@dataclass(frozen=True)
class CompileUnit:
    """One valid case, its file, and its entities resolved through the eval repo's catalog."""

    case: Case
    path: Path
    entities: tuple[ResolvedEntity, ...] = ()

    @property
    def user_id(self) -> str | None:
        """The sandbox record the turn runs as: the first entity that resolves."""
        return next((entity.resolves_to for entity in self.entities if entity.resolves_to), None)


@dataclass(frozen=True)
class Artifact:
    """One file a target writes, relative to the output folder (POSIX separators)."""

    target: str
    path: str
    text: str
    cases: tuple[str, ...] = ()


@dataclass(frozen=True)
class CompileWarning:
    """Something a backend cannot express, compiled to the nearest thing it can."""

    target: str
    case_id: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.case_id}: {self.field}: " if self.field else f"{self.case_id}: "
        return f"{where}{self.message}"


@dataclass
class TargetOutput:
    """What one target compiled: its artifacts and its warnings."""

    artifacts: list[Artifact] = field(default_factory=list)
    warnings: list[CompileWarning] = field(default_factory=list)
    notes: list[CompileWarning] = field(default_factory=list)
    """Where each concern of a case went when a backend could take it or hand it on (e.g. ADK's
    argument rules: its custom metric, or `promote check`): the compile log's routing lines."""


def resolve_entities(case: Case, catalog: list[Entity]) -> tuple[ResolvedEntity, ...]:
    """Each entity of the case, resolved through the repo's catalog when it defines the handle."""
    by_handle = {entity.handle: entity for entity in catalog}
    resolved = []
    for entity in case.entities:
        known = by_handle.get(entity.handle)
        if known is not None and known.resolves_to:
            resolved.append(ResolvedEntity(entity.handle, known.resolves_to, known.via or entity.via,
                                           known.calendar or entity.calendar, from_catalog=True))
        else:
            resolved.append(ResolvedEntity(entity.handle, entity.resolves_to, entity.via, entity.calendar))
    return tuple(resolved)


def json_text(data: Any, *, indent: int | None = 2) -> str:
    """JSON as every artifact writes it: indent 2 (or one line), UTF-8 unescaped, one trailing newline.

    Values a YAML case may hold that JSON has no type for (a date in `params`) are written as JSON text.
    """
    return json.dumps(to_jsonable_python(data), indent=indent, ensure_ascii=False) + "\n"


def yaml_text(data: Any, header: str) -> str:
    """YAML through the one YAML factory, with a comment header, one trailing newline."""
    buffer = StringIO()
    yaml_factory().dump(data, buffer)
    comment = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    return comment + buffer.getvalue().rstrip("\n") + "\n"


def slug(text: str) -> str:
    """`hr-policy-carryover-golden` → `hr_policy_carryover_golden` (ADK's id pattern `[a-zA-Z0-9_]+`)."""
    cleaned = re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower()
    return cleaned or "cases"


def dataset_groups(units: list[CompileUnit]) -> dict[str, list[CompileUnit]]:
    """Dataset → its cases (sorted by id); a case in no dataset groups under its `<pillar>.<topic>`."""
    groups: dict[str, list[CompileUnit]] = {}
    for unit in units:
        for dataset in unit.case.datasets or [unit.case.id.rsplit("_", 1)[0]]:
            groups.setdefault(dataset, []).append(unit)
    return {name: sorted(groups[name], key=lambda unit: unit.case.id) for name in sorted(groups)}
