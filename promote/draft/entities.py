"""Entities and tenant of a draft: the production user becomes an unresolved entity to map.

When the eval repo has an entity catalog (`evals/entities.yaml`: a list of {handle, resolves_to, via,
calendar, description}, or a mapping with `entities:` and an optional `tenant:`), the draft's notes
suggest the handles that share the most words with the turn's input and tool calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from ruamel.yaml.error import YAMLError

from promote.case.model import Entity, Tenant
from promote.case.rules import PLACEHOLDER_RE, UNRESOLVED_PREFIX
from promote.case.yaml_io import yaml_factory
from promote.errors import PromoteError
from promote.trace_model import Turn

CATALOG = Path("evals") / "entities.yaml"
REQUESTING_EMPLOYEE = Entity(
    handle=f"{UNRESOLVED_PREFIX}requesting_employee",
    description=(
        # Worded so that the residual-PII gate's NER does not read a name into it ("Map" was a PERSON).
        "The production user who asked, scrubbed: replace with the overlay handle of a sandbox "
        "employee in the same situation (work state, balances, plan)."
    ),
)
DEFAULT_TENANT = Tenant(id="unresolved", environment="sandbox", data="production-scrubbed")
_STOPWORDS = {
    "the", "and", "for", "you", "your", "are", "was", "what", "how", "much", "this", "that", "with",
    "get", "search", "list", "fetch", "update", "into", "from", "have", "has", "will", "not", "all",
    "my", "do", "if", "of", "to", "in", "is", "it", "me", "on", "or", "an", "at", "be", "by", "we",
    "up", "so", "no", "hi", "am", "can", "next", "year", "employee", "employees", "id",
}


@dataclass(frozen=True)
class Catalog:
    """The eval repo's entity catalog (possibly empty)."""

    path: Path | None
    entities: list[Entity]
    tenant: Tenant | None


def find_catalog(cases_dir: Path | None) -> Catalog:
    """The catalog of the eval repo holding `cases_dir` (searched upwards), or an empty one."""
    if cases_dir is None:
        return Catalog(None, [], None)
    for folder in [cases_dir.resolve(), *cases_dir.resolve().parents]:
        path = folder / CATALOG
        if path.is_file():
            return load_catalog(path)
        if (folder / ".git").exists():
            break
    return Catalog(None, [], None)


def load_catalog(path: Path) -> Catalog:
    """Read `evals/entities.yaml`; a malformed catalog is an error the user can fix."""
    try:
        tree = yaml_factory().load(path.read_text(encoding="utf-8"))  # a CommentedMap is a dict
    except (OSError, UnicodeDecodeError, YAMLError) as exc:
        raise PromoteError(f"entity catalog unreadable: {str(exc).splitlines()[0]}", where=str(path)) from None
    if isinstance(tree, list):
        items, tenant_data = tree, None
    elif isinstance(tree, dict):
        items, tenant_data = tree.get("entities") or [], tree.get("tenant")
    else:
        items, tenant_data = [], None
    try:
        entities = [Entity.model_validate(item) for item in items or []]
        tenant = Tenant.model_validate(tenant_data) if tenant_data is not None else None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise PromoteError(f"entity catalog: {where}: {first['msg']}", where=str(path),
                           hint="each entry is {handle, resolves_to, via, calendar, description}") from None
    return Catalog(path, entities, tenant)


def suggest_handles(catalog: Catalog, turn: Turn, limit: int = 3) -> list[tuple[str, list[str]]]:
    """(handle, shared words) of the catalog entries closest to the turn, best first."""
    wanted = _words(turn.user_input or "")
    for call in turn.tool_calls:
        wanted |= _words(call.name) | _words(_scalars(call.args))
    scored = []
    for entity in catalog.entities:
        shared = sorted(wanted & _words(" ".join(filter(None, [entity.handle, entity.via, entity.description]))))
        if shared:
            scored.append((len(shared), entity.handle, shared))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(handle, shared) for _, handle, shared in scored[:limit]]


def _scalars(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(_scalars(item) for item in value.values())
    if isinstance(value, list):
        return " ".join(_scalars(item) for item in value)
    return str(value) if value is not None else ""


def _words(text: str) -> set[str]:
    text = PLACEHOLDER_RE.sub(" ", text)
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) >= 2 and w not in _STOPWORDS}
