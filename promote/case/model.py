"""The portable-v1 eval case: one pydantic model per concept (see docs/case-format.md).

The model is the schema: `schema/portable-v1.schema.json` is exported from `Case` and a test fails
when the committed file drifts. A case holds data and graders, never thresholds. Every part validates
on assignment (`EditableModel`): an edit that breaks the schema fails where it is made.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any, Literal

from pydantic import Field, GetJsonSchemaHandler, model_serializer, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from promote.case.checks import ReplyChecks, ToolResultCheck
from promote.case.ids import ID_PATTERN
from promote.case.patterns import pattern_problem
from promote.case.types import Amount, Count, Positive, Text, Tolerance
from promote.models import EditableModel as _Model

FORMAT = "portable-v1"

Kind = Literal["functional", "retrieval", "numeric", "safety"]
ArgRuleKind = Literal["exact", "ignore", "regex", "tolerance", "one_of"]


class Entity(_Model):
    """An overlay handle the case runs against: never a raw substrate or production id."""

    handle: Text
    """Overlay handle, e.g. `employees.carryover_edge_ca`; `unresolved.*` in a fresh draft."""
    resolves_to: str | None = None
    """The synthetic sandbox record the handle resolves to, e.g. `E-44213`."""
    via: str | None = None
    """The scenario pack that defines the record, e.g. `aag/pto-scenarios@v3`."""
    calendar: str | None = None
    """The calendar the scenario is pinned to, e.g. `Calendar@2026.2`."""
    description: str | None = None
    """What the record is for, in a sentence (drafts say what the SME must map)."""


class Tenant(_Model):
    """Where the case runs."""

    id: Text
    """Tenant id, e.g. `acme-retail-us`."""
    environment: Literal["sandbox", "staging"] = "sandbox"
    """Never production."""
    data: Literal["synthetic", "production-scrubbed"] = "synthetic"
    """Where the tenant's records come from."""


class ArgRule(_Model):
    """How one argument of an expected tool call is matched.

    In a case file a rule is written as text: `exact`, `ignore`, `regex:<pattern>`, `tolerance:<number>`,
    `one_of:[a, b]`, or a list (read as one_of); it is written back the same way.
    """

    kind: ArgRuleKind = "exact"
    """exact (the default): equal to args; ignore: any value or none; regex: `pattern` matches the whole
    value; tolerance: a number within `tolerance` of args; one_of: equal to one of `values`."""
    pattern: str | None = None
    """The regular expression of a `regex` rule (Python syntax, full match)."""
    tolerance: float | None = None
    """The allowed absolute difference of a `tolerance` rule."""
    values: list[Any] | None = None
    """The accepted values of a `one_of` rule."""

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, list):
            return {"kind": "one_of", "values": list(data)}
        if isinstance(data, str):
            return parse_arg_rule(data)
        return data

    @model_validator(mode="after")
    def _complete(self) -> ArgRule:
        needs = {"regex": "pattern", "tolerance": "tolerance", "one_of": "values"}
        for kind, name in needs.items():
            present = getattr(self, name) is not None
            if present != (self.kind == kind):
                raise ValueError(f"a {self.kind} rule {'needs' if not present else 'has no'} {name}")
        if self.kind == "regex" and (problem := pattern_problem(self.pattern or "")) is not None:
            raise ValueError(f"regex rule: {problem}")
        if self.kind == "tolerance" and not (math.isfinite(self.tolerance or 0)
                                             and (self.tolerance or 0) >= 0):
            raise ValueError("a tolerance is a number of at least 0")
        return self

    @model_serializer(mode="plain")
    def _to_text(self) -> str | list[Any]:
        """The form a case file holds (`regex:<p>`, `tolerance:<n>`, a list for one_of)."""
        if self.kind == "regex":
            return f"regex:{self.pattern}"
        if self.kind == "tolerance":
            number = self.tolerance or 0.0
            return f"tolerance:{int(number) if float(number).is_integer() else number!r}"
        if self.kind == "one_of":
            return list(self.values or [])
        return self.kind

    def __str__(self) -> str:
        """The rule as a case file writes it (`regex:^CA$`, `one_of:[CA, NY]`)."""
        text = self._to_text()
        return text if isinstance(text, str) else "one_of:[" + ", ".join(str(value) for value in text) + "]"

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        written = handler.resolve_ref_schema(handler(schema))
        return {
            "description": cls.__doc__.split("\n\n")[0] if cls.__doc__ else "",
            "anyOf": [
                {"type": "string", "enum": ["exact", "ignore"]},
                {"type": "string", "pattern": "^regex:"},
                {"type": "string", "pattern": r"^tolerance:\s*[0-9.eE+]+\s*$"},
                {"type": "string", "pattern": r"^one_of:\s*\["},
                {"type": "array"},
                written,
            ],
        }


def parse_arg_rule(text: str) -> dict[str, Any]:
    """The fields of a rule written as text; an unknown form is a ValueError saying the forms."""
    rule = text.strip()
    if rule in ("exact", "ignore"):
        return {"kind": rule}
    if rule.startswith("regex:"):
        return {"kind": "regex", "pattern": rule[len("regex:"):]}
    if rule.startswith("tolerance:"):
        try:
            return {"kind": "tolerance", "tolerance": float(rule[len("tolerance:"):])}
        except ValueError:
            pass
    if rule.startswith("one_of:"):
        from ruamel.yaml.error import YAMLError

        from promote.case.yaml_config import load_plain_value

        try:
            values = load_plain_value(rule[len("one_of:"):])
        except YAMLError:
            values = None
        if isinstance(values, list):
            return {"kind": "one_of", "values": values}
    raise ValueError("unknown match rule: use exact, ignore, regex:<pattern>, "
                     "tolerance:<number> or one_of:[...]")


class ExpectedToolCall(_Model):
    """One expected tool call, with per-argument match rules."""

    name: Text
    """The tool's name."""
    args: dict[str, Any] | None = None
    """Expected arguments; omitted when only the call itself matters."""
    match: dict[str, ArgRule] | None = None
    """Per argument: `exact` (default) | `ignore` | `regex:<pattern>` | `tolerance:<number>` |
    `one_of:[...]` (a list is read as one_of)."""


class ExpectedTools(_Model):
    """The expected tool trajectory."""

    order: Literal["in_order", "any_order", "exact"] = "in_order"
    """in_order: these calls in this relative order, others may come between; any_order: all of them,
    any order; exact: exactly these calls and no others."""
    calls: list[ExpectedToolCall] = Field(default_factory=list)
    """The calls, in order."""


class RetrievalChunk(_Model):
    """A golden retrieval chunk."""

    citation: Text
    """The citation the chunk is known by, e.g. `PTO-CA-2026 §4.2`."""
    text: str
    """The chunk's text."""


class FigureSource(_Model):
    """Where a suggested figure was found in the trace (written by `promote draft`)."""

    tool: Text | None = None
    """The tool whose result holds the figure (oracle-checkable)."""
    path: str | None = None
    """JSON path of the figure inside that tool's result, e.g. `$.balances.pto_hours`."""
    derived: bool = False
    """True when the figure appears only in the reply (computed by the agent, e.g. 62.5 - 40)."""


class NumericFigure(_Model):
    """A regulated figure: checked by the oracle of record, never an LLM judge."""

    name: Text
    """Figure name, e.g. `carryover_cap`."""
    value: Amount
    """The value; it must appear in `expected_output` as written."""
    unit: Text | None = None
    """Unit, e.g. `h`, `USD`, `%`, `days`."""
    oracle: Text
    """The calculator of record, e.g. `ukg-accrual-engine` (`unassigned` in a fresh draft)."""
    tolerance: Tolerance = 0
    """Allowed absolute difference (finite, at least 0)."""
    source: FigureSource | None = None
    """Where the draft found the figure; review aid, not a grader input."""


class SafetyRule(_Model):
    """One safety constraint."""

    category: Text
    """Category, e.g. `pii-leak`, `refusal`, `harmful-content`."""
    scope: str | None = None
    """What it covers, e.g. `other-employee records`."""


class Safety(_Model):
    """Safety constraints on the reply."""

    must_not: list[SafetyRule] = Field(default_factory=list)
    """What the reply must never do."""
    must: list[SafetyRule] = Field(default_factory=list)
    """What the reply must do (e.g. refuse)."""


class Budgets(_Model):
    """What one run of the case may cost at most; drafted from the run seen with the suite policy's headroom
    (figures the trace could not observe are left out)."""

    max_tool_calls: Count | None = None
    """Tool calls in the turn."""
    max_model_calls: Count | None = None
    """Model (LLM) calls in the turn."""
    max_tokens: Count | None = None
    """Input plus output tokens over every model call of the turn."""
    max_duration_ms: Tolerance | None = None
    """Wall time of the turn, in milliseconds."""


def budgets_from_legacy(legacy: Any) -> Any:
    """`metadata.budgets` as drafts wrote it before `budgets` existed (observed figures) → `Budgets` data."""
    if not isinstance(legacy, dict):
        return legacy
    data = {key: value for key, value in legacy.items() if key.startswith("max_")}
    renamed = {"tool_calls": "max_tool_calls", "model_calls": "max_model_calls",
               "duration_ms": "max_duration_ms"}
    for old, new in renamed.items():
        if old in legacy:
            data.setdefault(new, legacy[old])
    tokens = [legacy[key] for key in ("input_tokens", "output_tokens", "tokens") if key in legacy]
    if tokens:
        data.setdefault("max_tokens", sum(tokens))
    data.update({key: value for key, value in legacy.items()
                 if key not in data and key not in renamed
                 and key not in ("input_tokens", "output_tokens", "tokens")})
    return data


class SourceRef(_Model):
    """Where the case lives."""

    repo: Text
    """The eval repo, e.g. `UKGEPIC/people-agents`."""
    path: Text
    """Path of the case file in that repo."""


class TraceRef(_Model):
    """The production trace a promoted case was built from."""

    trace_id: Text
    """The trace id."""
    turn: Count = 0
    """Which invocation (turn) of the trace."""
    span_ids: list[Text] = Field(default_factory=list)
    """The spans the case was built from."""
    service: str | None = None
    """The traced service."""
    export_sha256: str | None = None
    """sha256 of the trace export file the case was read from."""
    invocation_id: str | None = None
    """The agent framework's invocation id, when there was one."""


class ScrubInfo(_Model):
    """How the case's text was scrubbed."""

    engine: str = "presidio"
    """Scrub engine."""
    version: Text
    """presidio-analyzer's version, read at run time."""
    policy: Text
    """Policy name and hash, `default@sha256:<hex>`."""
    replaced: dict[str, Count] = Field(default_factory=dict)
    """Counts by entity type; never values."""


class Review(_Model):
    """Review state of the case's pull request."""

    pr: Positive | None = None
    """Pull request number."""
    state: Literal["draft", "open", "reviewed", "merged", "rejected"] = "draft"
    """Review state."""


class Provenance(_Model):
    """Where the case came from and who promoted it."""

    source: SourceRef | None = None
    """The case's home in the eval repo."""
    trace: TraceRef | None = None
    """The production trace (promoted cases)."""
    promoted_by: str | None = None
    """The SME who promoted or authored the case."""
    promoted_at: datetime | None = None
    """When (UTC)."""
    scrubbed: ScrubInfo | None = None
    """Scrubber engine, version, policy and counts (promoted cases)."""
    review: Review | None = None
    """Review state."""


class Case(_Model):
    """One golden eval case, portable-v1."""

    format: Literal["portable-v1"] = FORMAT
    """Format version."""
    id: str = Field(pattern=ID_PATTERN)
    """`<pillar>.<topic>_<NNN>`; unique in the eval repo; equals the file name's stem."""
    revision: Positive = 1
    """Bumped whenever the case's content changes."""
    status: Literal["draft", "valid", "retired"] = "draft"
    """draft (not yet reviewed) | valid | retired."""
    tier: str = "golden"
    """Tier, e.g. `golden`."""
    origin: Literal["trace", "authored"] = "authored"
    """trace (promoted from production) | authored."""
    title: Text
    """One-line title."""
    agent: str | None = None
    """The agent under test, e.g. `HR Policy Advisor (Google ADK)`."""
    input: Text
    """The user message."""
    entities: list[Entity] = Field(default_factory=list)
    """Overlay handles, never raw substrate ids."""
    params: dict[str, Any] = Field(default_factory=dict)
    """Run parameters, e.g. `as_of: "2026-06-29"`."""
    tenant: Tenant | None = None
    """Where the case runs."""
    expected_tools: ExpectedTools | None = None
    """Expected tool trajectory."""
    retrieval_context: list[RetrievalChunk] = Field(default_factory=list)
    """Golden chunks."""
    expected_output: str | None = None
    """The golden reply."""
    numeric: list[NumericFigure] = Field(default_factory=list)
    """Regulated figures."""
    must_cite: list[Text] = Field(default_factory=list)
    """Citations the reply must carry; each is a `retrieval_context` citation."""
    safety: Safety | None = None
    """Safety constraints."""
    budgets: Budgets | None = None
    """Cost limits of one run (tool calls, model calls, tokens, time)."""
    reply: ReplyChecks | None = None
    """Deterministic checks on the reply (contains, matches, lacks, not_matches, cards, Luhn numbers)."""
    tool_results: list[ToolResultCheck] = Field(default_factory=list)
    """Texts the results of named tools must contain."""
    forbidden_tools: list[Text] = Field(default_factory=list)
    """Tools the agent must not call."""
    kind: list[Kind] = Field(default_factory=list)
    """Which grader packs apply."""
    datasets: list[Text] = Field(default_factory=list)
    """Pinned compositions this case belongs to."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """Free-form labels (pillar, region, regulated, sensitivity, persona, review notes)."""
    provenance: Provenance | None = None
    """Where the case came from."""

    @model_validator(mode="before")
    @classmethod
    def _migrate(cls, data: Any) -> Any:
        """Files written before `budgets` existed kept them in `metadata.budgets`: read them as budgets."""
        metadata = data.get("metadata") if isinstance(data, dict) else None
        if not isinstance(metadata, dict) or "budgets" not in metadata:
            return data
        data = dict(data)  # never edit the caller's tree
        data["metadata"] = {key: value for key, value in metadata.items() if key != "budgets"}
        if data.get("budgets") is None:
            data["budgets"] = budgets_from_legacy(metadata["budgets"])
        return data
