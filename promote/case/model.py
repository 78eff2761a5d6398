"""The portable-v1 eval case: one pydantic model per concept (see shared/spec/portable-v1.md).

The model is the schema: `schema/portable-v1.schema.json` is exported from `Case` and a test fails
when the committed file drifts. A case holds data and graders, never thresholds.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from promote.case.checks import ReplyChecks, ToolResultCheck

FORMAT = "portable-v1"
ID_PATTERN = r"^[a-z][a-z0-9_]*\.[a-z0-9_]+_[0-9]{3}$"

Kind = Literal["functional", "retrieval", "numeric", "safety"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Entity(_Model):
    """An overlay handle the case runs against: never a raw substrate or production id."""

    handle: str
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

    id: str
    """Tenant id, e.g. `acme-retail-us`."""
    environment: Literal["sandbox", "staging"] = "sandbox"
    """Never production."""
    data: Literal["synthetic", "production-scrubbed"] = "synthetic"
    """Where the tenant's records come from."""


class ExpectedToolCall(_Model):
    """One expected tool call, with per-argument match rules."""

    name: str
    """The tool's name."""
    args: dict[str, Any] | None = None
    """Expected arguments; omitted when only the call itself matters."""
    match: dict[str, Any] | None = None
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

    citation: str
    """The citation the chunk is known by, e.g. `PTO-CA-2026 §4.2`."""
    text: str
    """The chunk's text."""


class FigureSource(_Model):
    """Where a suggested figure was found in the trace (written by `promote draft`)."""

    tool: str | None = None
    """The tool whose result holds the figure (oracle-checkable)."""
    path: str | None = None
    """JSON path of the figure inside that tool's result, e.g. `$.balances.pto_hours`."""
    derived: bool = False
    """True when the figure appears only in the reply (computed by the agent, e.g. 62.5 - 40)."""


class NumericFigure(_Model):
    """A regulated figure: checked by the oracle of record, never an LLM judge."""

    name: str
    """Figure name, e.g. `carryover_cap`."""
    value: float | int
    """The value; it must appear in `expected_output` as written."""
    unit: str | None = None
    """Unit, e.g. `h`, `USD`, `%`, `days`."""
    oracle: str
    """The calculator of record, e.g. `ukg-accrual-engine` (`unassigned` in a fresh draft)."""
    tolerance: float | int = 0
    """Allowed absolute difference."""
    source: FigureSource | None = None
    """Where the draft found the figure; review aid, not a grader input."""


class SafetyRule(_Model):
    """One safety constraint."""

    category: str
    """Category, e.g. `pii-leak`, `refusal`, `harmful-content`."""
    scope: str | None = None
    """What it covers, e.g. `other-employee records`."""


class Safety(_Model):
    """Safety constraints on the reply."""

    must_not: list[SafetyRule] = Field(default_factory=list)
    """What the reply must never do."""
    must: list[SafetyRule] = Field(default_factory=list)
    """What the reply must do (e.g. refuse)."""


class SourceRef(_Model):
    """Where the case lives."""

    repo: str
    """The eval repo, e.g. `UKGEPIC/people-agents`."""
    path: str
    """Path of the case file in that repo."""


class TraceRef(_Model):
    """The production trace a promoted case was built from."""

    trace_id: str
    """The trace id."""
    turn: int = 0
    """Which invocation (turn) of the trace."""
    span_ids: list[str] = Field(default_factory=list)
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
    version: str
    """presidio-analyzer's version, read at run time."""
    policy: str
    """Policy name and hash, `default@sha256:<hex>`."""
    replaced: dict[str, int] = Field(default_factory=dict)
    """Counts by entity type; never values."""


class Review(_Model):
    """Review state of the case's pull request."""

    pr: int | None = None
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
    revision: int = Field(default=1, ge=1)
    """Bumped whenever the case's content changes."""
    status: Literal["draft", "valid", "retired"] = "draft"
    """draft (not yet reviewed) | valid | retired."""
    tier: str = "golden"
    """Tier, e.g. `golden`."""
    origin: Literal["trace", "authored"] = "authored"
    """trace (promoted from production) | authored."""
    title: str
    """One-line title."""
    agent: str | None = None
    """The agent under test, e.g. `HR Policy Advisor (Google ADK)`."""
    input: str
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
    must_cite: list[str] = Field(default_factory=list)
    """Citations the reply must carry; each is a `retrieval_context` citation."""
    safety: Safety | None = None
    """Safety constraints."""
    reply: ReplyChecks | None = None
    """Deterministic checks on the reply (contains, matches, lacks, not_matches, cards, Luhn numbers)."""
    tool_results: list[ToolResultCheck] = Field(default_factory=list)
    """Texts the results of named tools must contain."""
    forbidden_tools: list[str] = Field(default_factory=list)
    """Tools the agent must not call."""
    kind: list[Kind] = Field(default_factory=list)
    """Which grader packs apply."""
    datasets: list[str] = Field(default_factory=list)
    """Pinned compositions this case belongs to."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """Free-form labels (pillar, region, regulated, sensitivity, persona, budgets, review notes)."""
    provenance: Provenance | None = None
    """Where the case came from."""
