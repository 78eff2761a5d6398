"""The eval repo: where its cases live, its entity catalog, its config, who is promoting, the next free id.

Everything promote knows about an eval repo is found here, from the repo itself:

- the **root**: the nearest folder (from where the search starts, upwards) holding `.git`,
  `evals/promote.yaml` or `evals/entities.yaml`; else, inside an `evals/` folder, the folder above it;
  else the start folder;
- the **cases folder**: `evals/cases/` when it exists, else the folder of the cases already in `evals/`,
  else `evals/cases/` (a `--cases-dir` given by the caller wins);
- the **catalog** `evals/entities.yaml` (entity handles and tenant the repo defines);
- the **config** `evals/promote.yaml` (`RepoConfig`: per agent or service the pillar, id prefix, default
  entity, safety scope and datasets; words that place a turn in a pillar). Without one, drafts take
  neutral defaults from the agent and service names.
"""

from __future__ import annotations

import getpass
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError
from ruamel.yaml.error import YAMLError

from promote.case.case_limits import read_case_text, refuse_deep_or_huge
from promote.case.model import Entity, Tenant
from promote.case.validate import case_files_under
from promote.case.yaml_config import yaml_factory
from promote.errors import PromoteError
from promote.models import Model

CONFIG = Path("evals") / "promote.yaml"
CATALOG = Path("evals") / "entities.yaml"
CASES = Path("evals") / "cases"
_SLUG = r"^[a-z][a-z0-9_]*$"


class AgentConfig(Model):
    """What the eval repo sets for the cases of one agent or service."""

    pillar: str | None = Field(default=None, pattern=_SLUG)
    """The pillar (`metadata.pillar`, and the id prefix unless `id_prefix` says otherwise)."""
    id_prefix: str | None = Field(default=None, pattern=_SLUG)
    """The first part of drafted ids (`<id_prefix>.<topic>_<NNN>`)."""
    entity: Entity | None = None
    """The entity a fresh draft starts with (the production user, still to map to a sandbox record)."""
    safety_scope: str | None = None
    """Scope of the `pii-leak` rule of a draft whose turn held personal data, e.g. `other-employee
    records`."""
    datasets: list[str] = Field(default_factory=list)
    """Datasets a drafted case joins."""


class RepoConfig(Model):
    """`evals/promote.yaml`: how drafts of this repo's agents are named and what they start with."""

    agents: dict[str, AgentConfig] = Field(default_factory=dict)
    """Per agent name or service name (the agent name is looked up first)."""
    default: AgentConfig = Field(default_factory=AgentConfig)
    """For agents and services not listed."""
    pillars: dict[str, list[str]] = Field(default_factory=dict)
    """Pillar → words that place a turn in it, tried in this order on the main tool's name, every tool's
    name, the agent's name, then the user's input (used when the agent sets no pillar)."""

    def for_agent(self, agent: str | None, service: str | None) -> AgentConfig:
        """The settings for an agent (or its service), the listed fields over `default`'s."""
        chosen = next((self.agents[name] for name in (agent, service) if name and name in self.agents), None)
        if chosen is None:
            return self.default
        return self.default.model_copy(update=chosen.model_dump(exclude_unset=True))


@dataclass(frozen=True)
class Catalog:
    """The eval repo's entity catalog (possibly empty)."""

    path: Path | None
    entities: list[Entity] = field(default_factory=list)
    tenant: Tenant | None = None


class EvalRepo:
    """One eval repo, found from a folder inside it (`EvalRepo.find`)."""

    def __init__(self, root: Path, cases_dir: Path | None = None) -> None:
        self.root = root
        self.cases_dir = cases_dir if cases_dir is not None else _cases_dir(root)
        self._config: RepoConfig | None = None
        self._catalog: Catalog | None = None

    @classmethod
    def find(cls, start: Path | None = None, *, cases_dir: Path | None = None) -> EvalRepo:
        """The repo holding `start` (default: `cases_dir`, else the current folder)."""
        start = Path(start) if start is not None else (cases_dir if cases_dir is not None else Path.cwd())
        folder = start.resolve()
        if folder.is_file() or folder.suffix in (".yaml", ".yml"):
            folder = folder.parent
        return cls(_root(folder), cases_dir)

    @property
    def config(self) -> RepoConfig:
        """`evals/promote.yaml`, or the neutral defaults when there is none."""
        if self._config is None:
            self._config = load_config(self.root / CONFIG)
        return self._config

    @property
    def catalog(self) -> Catalog:
        """`evals/entities.yaml`, or an empty catalog."""
        if self._catalog is None:
            path = self.root / CATALOG
            self._catalog = load_catalog(path) if path.is_file() else Catalog(None)
        return self._catalog

    def case_files(self) -> list[Path]:
        """Every case file in the cases folder (recursive), sorted."""
        return case_files_under(self.cases_dir)

    def next_id(self, prefix: str) -> str:
        """`<prefix>_<NNN>` with NNN one above the highest number in use for that prefix (001 first)."""
        return next_free_id(prefix, (path.stem for path in self.case_files()))

    def sme_identity(self, by: str | None = None) -> str:
        """`by`, else git `user.name` (or `user.email`) of the repo, else the login name."""
        if by:
            return by
        folder = (
            self.cases_dir if self.cases_dir.is_dir() else (self.root if self.root.is_dir() else Path.cwd())
        )
        for key in ("user.name", "user.email"):
            try:
                done = subprocess.run(["git", "-C", str(folder), "config", "--get", key],
                                      capture_output=True, text=True, timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                break
            if done.returncode == 0 and done.stdout.strip():
                return done.stdout.strip()
        return getpass.getuser()


def next_free_id(prefix: str, case_ids: Iterable[str]) -> str:
    """`<prefix>_<NNN>` with NNN one above the highest number `case_ids` use for that prefix (001 first).

    Above the highest rather than the first gap: a number once used may still be cited in old PRs.
    """
    pattern = re.compile(re.escape(prefix) + r"_(\d{3})")
    used = [int(found.group(1)) for case_id in case_ids if (found := pattern.fullmatch(case_id))]
    number = max(used, default=0) + 1
    if number > 999:
        raise PromoteError(f"no free case number left for {prefix}_NNN", hint="pass --id")
    return f"{prefix}_{number:03d}"


def _root(folder: Path) -> Path:
    for ancestor in [folder, *folder.parents]:
        if (ancestor / ".git").exists() or (ancestor / CONFIG).is_file() or (ancestor / CATALOG).is_file():
            return ancestor
    parts = folder.parts
    if "evals" in parts:
        index = len(parts) - 1 - parts[::-1].index("evals")
        return Path(*parts[:index]) if index else folder
    return folder


def _cases_dir(root: Path) -> Path:
    default = root / CASES
    if default.is_dir() or not (root / "evals").is_dir():
        return default
    special = {(root / CONFIG).resolve(), (root / CATALOG).resolve()}
    cases = [path for path in case_files_under(root / "evals") if path.resolve() not in special]
    return cases[0].parent if cases else default


def _read_yaml(path: Path, what: str) -> Any:
    """A repo file read like a case: size limit while reading, no FIFO or device, depth and numbers
    bounded (`case_limits`)."""
    text = read_case_text(path)
    try:
        tree = yaml_factory().load(text)
    except (RecursionError, ValueError):
        raise PromoteError(f"{what} unreadable: nested too deeply or a number too large",
                           where=str(path)) from None
    except YAMLError as exc:
        raise PromoteError(f"{what} unreadable: {str(exc).splitlines()[0]}", where=str(path)) from None
    refuse_deep_or_huge(tree, path)
    return tree


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    return f"{'.'.join(str(part) for part in first['loc']) or '-'}: {first['msg']}"


def load_config(path: Path) -> RepoConfig:
    """Read `evals/promote.yaml` (none: neutral defaults); a malformed one (or a FIFO, a folder, a
    dangling link in its place) is an error the user can fix."""
    if not path.exists() and not path.is_symlink():
        return RepoConfig()
    data = _read_yaml(path, "promote config")
    try:
        return RepoConfig.model_validate(data or {})
    except ValidationError as exc:
        raise PromoteError(f"promote config: {_first_error(exc)}", where=str(path),
                           hint="see docs/case-format.md, 'The eval repo'") from None


def load_catalog(path: Path) -> Catalog:
    """Read `evals/entities.yaml`: a list of {handle, resolves_to, via, calendar, description}, or a mapping
    with `entities:` and an optional `tenant:`; a malformed catalog is an error the user can fix."""
    tree = _read_yaml(path, "entity catalog")
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
        raise PromoteError(f"entity catalog: {_first_error(exc)}", where=str(path),
                           hint="each entry is {handle, resolves_to, via, calendar, description}") from None
    return Catalog(path, entities, tenant)
