"""`draft_case`: one turn of an already scrubbed trace → a draft portable-v1 case and review notes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import Field

from promote.case.model import (
    Case,
    ExpectedToolCall,
    ExpectedTools,
    Kind,
    Safety,
    SafetyRule,
    ScrubInfo,
)
from promote.case.problems import Problem
from promote.case.rules import PLACEHOLDER_RE
from promote.draft import citations, entities, figures, naming, provenance
from promote.draft.budgets import draft_budgets
from promote.draft.inputs import DraftInputs
from promote.errors import PromoteError
from promote.models import Model as _Model
from promote.trace_model import Trace, Turn


def note(field: str, message: str) -> Problem:
    """A review note of a draft: what the SME should look at, and where."""
    return Problem(severity="note", rule="draft", field=field, message=message)


class DraftOptions(_Model):
    """What the caller (CLI, UI, tests) can set about a draft."""

    case_id: str | None = None
    """`--id`: the case id; suggested as `<pillar>.<topic>_<NNN>` when None."""
    by: str | None = None
    """`--by`: who promotes; git `user.name`/`user.email` of the cases dir, else the login name."""
    cases_dir: Path | None = None
    """`--cases-dir`: the eval repo's cases (id numbering, duplicates); default: the repo's own."""
    repo: Path | None = None
    """A folder in the eval repo (config, catalog, cases); default: `cases_dir`, else the current folder."""
    policy: Path | None = None
    """`--policy`: the scrub policy file (default: the bundled one)."""
    retrieval_tools: list[str] | None = None
    """Tools whose results are retrieval chunks; None: any result shaped like a list of chunks."""
    pillar: str | None = None
    """Pillar of the suggested id; None: the repo config's, else from the agent and service names."""
    now: datetime | None = None
    """`promoted_at`; None: the current time (tests inject a fixed one)."""


class DraftResult(_Model):
    """A draft case, what the SME should look at first, and an existing case it may duplicate."""

    case: Case
    """The draft (status draft, origin trace)."""
    notes: list[Problem]
    """Review notes (severity note): placeholder arguments, entity suggestions, figures and citations to
    check."""
    duplicate_of: str | None = None
    """Path of an existing case with the same input and tool trajectory, if any."""
    known_values: list[str] = Field(default_factory=list, repr=False, exclude=True)
    """Raw values the scrubber replaced in the source trace: the write gate refuses a case holding one.
    Never printed, never written."""


def draft_case(
    trace: Trace, turn_index: int, *, inputs: DraftInputs, scrub: ScrubInfo, options: DraftOptions
) -> DraftResult:
    """The draft of turn `turn_index` of a trace `promote.source` already scrubbed: a pure function of
    the trace, the gathered `inputs` (`promote.draft.inputs.gather_inputs`), `scrub` and `options`."""
    turn = _turn(trace, turn_index)
    settings = inputs.config.for_agent(trace.agent, trace.service)
    notes: list[Problem] = []
    calls = [_expected_call(call.name, call.args, index, notes) for index, call in enumerate(turn.tool_calls)]
    notes += [note(f"expected_tools.calls[{index}]",
                   f"{call.name} failed in the trace: keep it only if calling "
                   "it is what the agent should do") for index, call in enumerate(turn.tool_calls)
              if call.error]
    reply = turn.final_response
    numeric, figure_notes = figures.suggest_figures(reply or "", turn.tool_calls)
    chunks = citations.retrieval_chunks(turn.tool_calls, options.retrieval_tools)
    must_cite, citation_notes = citations.cited_in_reply(reply or "", chunks)
    notes += [_as_note(text) for text in figure_notes + citation_notes]
    if numeric:
        notes.append(note("numeric",
                          f"{len(numeric)} figure(s) suggested: check each name and assign its oracle "
                          "of record; derived ones were computed by the agent"))
    if reply and PLACEHOLDER_RE.search(reply):
        notes.append(note("expected_output", "the reply names a scrubbed person or value: rewrite it for the "
                          "sandbox entity (or nobody) before the case is valid"))

    # Personal data was scrubbed out of this turn: the reply must never leak anyone else's.
    safety = (
        Safety(must_not=[SafetyRule(category="pii-leak", scope=settings.safety_scope)])
        if _scrubbed(turn)
        else None
    )
    kinds: list[Kind] = []
    if calls or reply:
        kinds.append("functional")
    if chunks:
        kinds.append("retrieval")
    if numeric:
        kinds.append("numeric")
    if safety:
        kinds.append("safety")

    agent = trace.agent or trace.service
    pillar = (options.pillar or settings.pillar
              or naming.pillar_of(turn.tool_calls, [agent or ""], turn.user_input, inputs.config.pillars)
              or naming.neutral_pillar(trace.agent, trace.service))
    topic = naming.topic_of(turn.tool_calls, turn.user_input, pillar)
    case_id = options.case_id or inputs.next_id(f"{settings.id_prefix or pillar}.{topic}")
    catalog = inputs.catalog
    for handle, shared in entities.suggest_handles(catalog, turn):
        notes.append(note("entities[0]", f"catalog handle {handle} may fit (shares: {', '.join(shared)})"))
    if turn.started_at is None:
        notes.append(note("params.as_of", "the turn has no start time: set it to the date of record"))
    budgets, budget_notes = draft_budgets(turn, inputs.budgets)
    notes += [_as_note(text) for text in budget_notes]

    title = naming.title_from_input(turn.user_input) or f"Turn {turn.index} of {agent or 'the agent'}"
    fields: dict[str, Any] = dict(
        format="portable-v1", id=case_id, revision=1, status="draft", tier="golden", origin="trace",
        title=title, agent=agent, input=turn.user_input,
        entities=[settings.entity or entities.REQUESTING_USER],
        tenant=catalog.tenant or entities.DEFAULT_TENANT, budgets=budgets, datasets=settings.datasets,
        metadata={"pillar": pillar, "sensitivity": "production-scrubbed"},
        provenance=provenance.build_provenance(
            trace, turn,
            export_sha256=inputs.export_sha256,
            scrub=scrub,
            promoted_by=inputs.promoted_by,
            now=options.now,
        ),
        kind=kinds,
    )
    if turn.started_at is not None:
        fields["params"] = {"as_of": turn.started_at.astimezone(UTC).date().isoformat()}
    if calls:
        fields["expected_tools"] = ExpectedTools(order="in_order", calls=calls)
    if chunks:
        fields["retrieval_context"] = chunks
    if reply:
        fields["expected_output"] = reply
    if numeric:
        fields["numeric"] = numeric
    if must_cite:
        fields["must_cite"] = must_cite
    if safety:
        fields["safety"] = safety
    case = Case(**fields)
    duplicate = inputs.duplicate_of(case.input, [call.name for call in calls])
    return DraftResult(case=case, notes=notes, duplicate_of=duplicate)


def _turn(trace: Trace, turn_index: int) -> Turn:
    count = len(trace.turns)
    if not 0 <= turn_index < count:
        raise PromoteError(
            f"trace {trace.trace_id} has {count} turn(s); there is no turn {turn_index}",
            hint=f"use --turn 0..{count - 1}" if count else "the trace has no agent turns to draft from",
        )
    turn = trace.turns[turn_index]
    if turn.user_input is None:
        # Blame content capture only when the producer says it was off: a record that could not be read
        # (bad UTF-8, a cut file) loses the message too, and the fix is then a good export.
        hint = ("the agent ran with content capture off; see `promote traces` for how to turn it on"
                if not turn.content_captured else
                "the span that holds it is missing or could not be read: `promote traces --json FILE` lists "
                "the records skipped and why")
        raise PromoteError(f"turn {turn_index} of trace {trace.trace_id} has no recorded user message",
                           hint=hint)
    return turn


def _as_note(text: str) -> Problem:
    """A note worded `field: message` (figures, citations) as a `Problem`."""
    field, sep, message = text.partition(": ")
    if sep and " " not in field:
        return note(field, message)
    return note("", text)


def _expected_call(name: str, args: object, index: int, notes: list[Problem]) -> ExpectedToolCall:
    where = f"expected_tools.calls[{index}]"
    if args in (None, {}):
        return ExpectedToolCall(name=name)
    if not isinstance(args, dict):
        notes.append(note(where,
                          f"{name}: the trace holds its arguments as text, not JSON: arguments left out"))
        return ExpectedToolCall(name=name)
    held = [key for key, value in args.items() if PLACEHOLDER_RE.search(str(value))]
    if held:
        notes.append(note(f"{where}.args", f"{name}: {', '.join(held)} hold(s) a scrub placeholder: "
                          "replace with the sandbox value or match with ignore/regex"))
    return ExpectedToolCall(name=name, args=args)


def _scrubbed(turn: Turn) -> bool:
    """True when a scrub placeholder appears anywhere in the turn (input, calls, reply)."""
    texts = [turn.user_input or "", turn.final_response or ""]
    for call in turn.tool_calls:
        texts += [str(call.args), str(call.result), call.error or ""]
    return any(PLACEHOLDER_RE.search(text) for text in texts)
