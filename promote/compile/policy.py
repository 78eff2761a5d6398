"""The suite policy: which backend scores each kind of concern, with which graders and thresholds.

A case holds data and graders' inputs, never thresholds; the suite policy holds the rest. It lives in
the eval repo as `evals/policy.yaml`; without one, the policy shipped with promote applies
(`promote/compile/policy.default.yaml`). The model is the schema: `schema/suite-policy.schema.json` is
exported from `SuitePolicy` and a test fails when the committed file drifts.

Each grader runs on exactly one backend, so nothing is scored twice: a grader that two routed packs
name, a pack two kinds route to, two graders on the same backend metric, a kind with no backend, or a
metric the backend cannot run are policy errors naming the file and line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Iterator, Literal, Mapping

from pydantic import Field, ValidationError

from promote.case.model import Kind
from promote.case.validate import locate
from promote.case.yaml_io import load_tree
from promote.errors import PromoteError, where
from promote.models import Model

DEFAULT_POLICY = Path(__file__).with_name("policy.default.yaml")
REPO_POLICY = Path("evals") / "policy.yaml"
SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schema" / "suite-policy.schema.json"
KINDS: tuple[Kind, ...] = ("functional", "retrieval", "numeric", "safety")
_PACK = r"^[a-z][a-z0-9_-]*@v[0-9]+$"
HazardCode = Annotated[str, Field(pattern=r"^S(1[0-4]|[1-9])$")]
"""A Llama Guard 4 hazard category code, S1 to S14."""


class Route(Model):
    """Where one kind of concern is scored."""

    backend: str
    """The backend (a compile target: `adk`, `ragas`, `numeric`, `safety`)."""
    pack: str = Field(pattern=_PACK)
    """The grader pack it runs, `<name>@v<N>`, e.g. `functional@v3`."""


class Grader(Model):
    """One grader of a pack: the backend's own metric and the score it must reach."""

    metric: str
    """The backend's metric, e.g. `tool_trajectory_avg_score` (ADK) or `faithfulness` (RAGAS)."""
    threshold: float = Field(ge=0, le=1)
    """The pass threshold, 0 to 1 (1.0 = every check must pass)."""
    method: str | None = None
    """How it scores, in a few words (shown in reports), e.g. `ROUGE-1`."""


class AdkOptions(Model):
    """Google ADK eval settings."""

    app_names: dict[str, str] = Field(default_factory=dict)
    """Agent, as a case's `agent` names it → the ADK app name; default: the agent's name as a slug."""
    tool_args: Literal["adk", "checks"] = "adk"
    """Where a case's argument rules are scored: `adk`, by the custom metric `promote_tool_args` (the code
    of `promote check`, so promote must be installed beside google-adk), or `checks`, by `promote check`
    alone. Tool names and order are ADK's trajectory either way."""


class RagasOptions(Model):
    """RAGAS settings."""

    judge_model: str | None = None
    """RAGAS' judge model, called through an OpenAI-compatible client; default: `judge_model`."""


class SafetyOptions(Model):
    """Llama Guard 4 and Presidio settings of the safety probe."""

    llama_guard_model: str = "meta-llama/Llama-Guard-4-12B"
    """The Llama Guard 4 model that classifies the reply."""
    categories: list[HazardCode] = Field(default_factory=lambda: [f"S{n}" for n in range(1, 15)])
    """The hazard categories (S1-S14) every reply is classified against."""
    hazards: dict[str, list[HazardCode]] = Field(default_factory=dict)
    """A case's safety category (e.g. `pii-leak`) → the hazard codes it points at (e.g. `[S7]`)."""
    pii_entities: list[str] = Field(default_factory=list)
    """Presidio entity types the PII guard scans the reply for."""
    own_record_entity_types: list[str] = Field(default_factory=list)
    """Entity types the requesting user's own record may show in the reply (the allowed scope)."""
    score_threshold: float = Field(default=0.5, ge=0, le=1)
    """Presidio score at which a finding counts."""


class BudgetPolicy(Model):
    """How `promote draft` turns what one run cost into a case's budgets."""

    headroom: float = Field(default=1.5, ge=1)
    """Each count and the token total of the run seen × headroom, rounded up (1.0: exactly that run)."""
    max_duration_ms: int | None = Field(default=30000, ge=0)
    """The duration budget of a drafted case (raised to the run's time × headroom when that run was
    slower); never one run's exact time. null: drafts leave the duration out."""


class SuitePolicy(Model):
    """`evals/policy.yaml`: routing, grader packs, thresholds and the judge model of an eval suite."""

    format: str = Field(default="suite-policy-v1", pattern=r"^suite-policy-v1$")
    """Format version."""
    judge_model: str = "gemini-2.5-flash"
    """The LLM judge of every judged grader (ADK's `judge_model`)."""
    judge_samples: int = Field(default=5, ge=1)
    """Samples per judged invocation (ADK's `num_samples`)."""
    routing: dict[Kind, Route]
    """Kind of concern → the backend that scores it and its grader pack; every kind needs one."""
    packs: dict[str, dict[str, Grader]]
    """Grader pack (`<name>@v<N>`) → its graders by name."""
    adk: AdkOptions = Field(default_factory=AdkOptions)
    """Google ADK eval settings."""
    ragas: RagasOptions = Field(default_factory=RagasOptions)
    """RAGAS settings."""
    safety: SafetyOptions = Field(default_factory=SafetyOptions)
    """Llama Guard 4 and Presidio settings."""
    budgets: BudgetPolicy = Field(default_factory=BudgetPolicy)
    """How drafts' budgets are set from the run they were drafted from."""

    def route(self, kind: str) -> Route:
        return self.routing[kind]  # type: ignore[index]

    def graders_for(self, backend: str) -> list[tuple[str, str, Grader]]:
        """(pack, grader name, grader) of every pack routed to `backend`, in policy order."""
        found = []
        for route in self.routing.values():
            if route.backend == backend:
                found += [(route.pack, name, grader) for name, grader in self.packs[route.pack].items()]
        return found

    def pack_of(self, backend: str) -> str | None:
        """The pack routed to `backend` (the first, when several kinds go there)."""
        return next((route.pack for route in self.routing.values() if route.backend == backend), None)


class LoadedPolicy(Model):
    """A suite policy and the file it came from."""

    policy: SuitePolicy
    """The policy."""
    path: str
    """Its file, or `shipped default` for the policy shipped with promote."""


def load_suite_policy(path: Path | None, backends: Mapping[str, frozenset[str]]) -> LoadedPolicy:
    """Read and check a suite policy; `backends` maps each known backend to the metrics it runs.

    `path=None` reads the shipped default. Any problem raises PromoteError naming file:line.
    """
    path = DEFAULT_POLICY if path is None else Path(path)
    tree = load_tree(path)  # bad YAML, duplicate keys and tabs are reported with their line here
    try:
        policy = SuitePolicy.model_validate(tree)
    except ValidationError as exc:
        error = exc.errors()[0]
        line, column = locate(tree, error["loc"])
        dotted = ".".join(str(part) for part in error["loc"])
        message = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
        raise PromoteError(f"{dotted}: {message}", where=where(path, line, column),
                           hint="see docs/compile.md, the suite policy") from None
    for location, message in _routing_problems(policy, tree, backends):
        line, column = locate(tree, location)
        raise PromoteError(message, where=where(path, line, column), hint="each grader runs on one backend")
    return LoadedPolicy(policy=policy, path="shipped default" if path == DEFAULT_POLICY else str(path))


def find_policy(start: Path) -> Path | None:
    """`evals/policy.yaml` of the eval repo holding `start`, or None (the shipped default applies)."""
    folder = start.resolve()
    folder = folder if folder.is_dir() else folder.parent
    for candidate in (folder, *folder.parents):
        if (candidate / REPO_POLICY).is_file():
            return candidate / REPO_POLICY
        if (candidate / ".git").exists():
            break
    return None


def _routing_problems(
    policy: SuitePolicy, tree: Any, backends: Mapping[str, frozenset[str]]
) -> Iterator[tuple[tuple[Any, ...], str]]:
    for kind in KINDS:
        if kind not in policy.routing:
            yield ("routing",), f"kind {kind} has no backend: add routing.{kind} {{backend, pack}}"
    graders: dict[str, tuple[str, str]] = {}  # grader name -> (pack, kind) that routed it first
    metrics: dict[tuple[str, str], str] = {}  # (backend, metric) -> grader that scores it first
    packs: dict[str, str] = {}  # pack -> first kind routed to it
    for kind, route in policy.routing.items():
        if route.backend not in backends:
            known = ", ".join(sorted(backends))
            yield ("routing", kind, "backend"), f"routing.{kind}: unknown backend {route.backend} ({known})"
            continue
        if route.pack not in policy.packs:
            yield ("routing", kind, "pack"), f"routing.{kind}: no pack {route.pack} under packs"
            continue
        if route.pack in packs:
            yield ("routing", kind, "pack"), (
                f"routing.{kind}: pack {route.pack} is already routed by {packs[route.pack]}: "
                "its graders would be routed twice"
            )
            continue
        packs[route.pack] = kind
        for name, grader in policy.packs[route.pack].items():
            location = ("packs", route.pack, name)
            if name in graders:
                first_pack, first_kind = graders[name]
                yield location, (
                    f"grader {name} is routed twice: by {route.pack} ({kind} -> {route.backend}) and by "
                    f"{first_pack} ({first_kind}): keep it in one pack"
                )
                continue
            graders[name] = (route.pack, kind)
            if grader.metric not in backends[route.backend]:
                known = ", ".join(sorted(backends[route.backend]))
                yield (*location, "metric"), (
                    f"grader {name}: backend {route.backend} has no metric {grader.metric} ({known})"
                )
                continue
            key = (route.backend, grader.metric)
            if key in metrics:
                yield (*location, "metric"), (
                    f"grader {name}: {route.backend} metric {grader.metric} is already scored by "
                    f"{metrics[key]}: the same thing would be scored twice"
                )
                continue
            metrics[key] = name


def policy_json_schema() -> dict:
    """The JSON Schema editors use to check `evals/policy.yaml`."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **SuitePolicy.model_json_schema()}


def policy_json_schema_text() -> str:
    return json.dumps(policy_json_schema(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    """`python -m promote.compile.policy` rewrites schema/suite-policy.schema.json."""
    SCHEMA_PATH.write_text(policy_json_schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")


if __name__ == "__main__":
    main()
