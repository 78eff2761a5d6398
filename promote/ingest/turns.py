"""Rebuild agent turns (`Trace` > `Turn` > `ToolCall` / `ModelCall`) from the spans of a trace.

Turns are found from the span tree, not from where tool spans sit in it (that moved between ADK
versions): a turn's root is the outermost invocation/agent span that covers at most one
`gcp.vertex.agent.invocation_id`, so a multi-turn session under one enclosing span gives one turn per
invocation, and an agent reached through a tool call (ADK's AgentTool) stays inside its caller's turn.
Every span below a root belongs to that turn; orphans join by invocation id or by time.
The per-span reading is the detected convention's business (`promote.ingest.conventions`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta

from promote.ingest.conventions import Convention, detect_convention
from promote.ingest.conventions.base import (
    NOT_CAPTURED,
    ModelReading,
    RootReading,
    as_str,
    earlier_calls,
    is_agent_span,
    is_model_span,
    is_tool_span,
)
from promote.ingest.diagnose import why_no_turns
from promote.ingest.tool_calls import CallIndex, tool_calls
from promote.trace_model import ModelCall, Span, Trace, Turn

INVOCATION_ID = "gcp.vertex.agent.invocation_id"
_INVOCATION_KEYS = (INVOCATION_ID, "scope.agentic.turn")  # ADK's own; Monocle's scope holds the same id


def _own_invocation(span: Span) -> str | None:
    return next((value for key in _INVOCATION_KEYS if (value := as_str(span.attributes.get(key)))), None)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def build_traces(spans: Iterable[Span]) -> list[Trace]:
    """The traces of `spans` (any order, one or more traces) with their turns, earliest first.

    A span seen twice (same trace and span id) counts once. Traces with no agent spans come back
    with `producer=None` and no turns.
    """
    by_trace: dict[str, dict[str, Span]] = {}
    for span in spans:
        by_trace.setdefault(span.trace_id, {}).setdefault(span.span_id, span)
    traces = [build_trace(list(group.values())) for group in by_trace.values()]
    traces.sort(key=lambda t: min(s.start_ns for s in t.spans))
    return traces


def build_trace(spans: list[Span]) -> Trace:
    """One trace (all spans share a trace id) with its turns in time order."""
    tree = _Tree(spans)
    convention = detect_convention(tree.spans)
    trace = Trace(
        trace_id=tree.spans[0].trace_id,
        service=next((as_str(s.resource.get("service.name")) for s in tree.spans if s.resource), None),
        producer=convention.name if convention else None,
        spans=tree.spans,
    )
    if convention is None:
        trace.no_turns_reason = why_no_turns(tree.spans, None)
        return trace
    groups = _turn_groups(tree)
    if not groups:
        trace.no_turns_reason = why_no_turns(tree.spans, convention)
    readings = {root_key: _model_exchanges(tree, members, convention)
                for root_key, (_, members) in groups.items()}
    index = CallIndex(exchange for exchanges in readings.values() for exchange in exchanges)
    for number, (root_key, (root, members)) in enumerate(groups.items()):
        turn, agent, session, user = _build_turn(number, root, members, readings[root_key], tree, convention,
                                                 index)
        trace.turns.append(turn)
        trace.agent = trace.agent or agent
        trace.session_id = trace.session_id or session
        trace.user_id = trace.user_id or user
    return trace


class _Tree:
    """Parent/child links of one trace's spans (parents missing from the export are tolerated)."""

    def __init__(self, spans: list[Span]) -> None:
        self.spans = sorted(spans, key=lambda s: (s.start_ns, -s.end_ns))
        self.by_id = {s.span_id: s for s in self.spans}
        self.children: dict[str, list[Span]] = defaultdict(list)
        for span in self.spans:
            if span.parent_span_id in self.by_id:
                self.children[span.parent_span_id].append(span)

    def ancestors(self, span: Span) -> Iterator[Span]:
        seen = {span.span_id}
        while span.parent_span_id in self.by_id and span.parent_span_id not in seen:
            span = self.by_id[span.parent_span_id]
            seen.add(span.span_id)
            yield span

    def is_orphan(self, span: Span) -> bool:
        return span.parent_span_id is not None and span.parent_span_id not in self.by_id

    def invocation_ids_below(self) -> dict[str, set[str]]:
        """Per span, the invocation ids in its subtree, not looking inside tool calls."""
        below: dict[str, set[str]] = {}
        for span in reversed(self._preorder()):
            own = _own_invocation(span)
            ids = {own} if own else set()
            for child in self.children.get(span.span_id, ()):
                if not is_tool_span(child):
                    ids |= below.get(child.span_id, set())  # unset only inside a parent cycle
            below[span.span_id] = ids
        return below

    def _preorder(self) -> list[Span]:
        order: list[Span] = []
        visited: set[str] = set()
        # Roots first, then whatever a parent cycle left unreached.
        starts = [s for s in self.spans if s.parent_span_id not in self.by_id] + self.spans
        for start in starts:
            stack = [start]
            while stack:
                span = stack.pop()
                if span.span_id in visited:
                    continue
                visited.add(span.span_id)
                order.append(span)
                stack.extend(reversed(self.children.get(span.span_id, ())))
        return order


def _turn_groups(tree: _Tree) -> dict[str, tuple[Span | None, list[Span]]]:
    """Turn key -> (root span or None, member spans by start time), in turn order."""
    ids_below = tree.invocation_ids_below()

    def is_root(span: Span) -> bool:
        if not is_agent_span(span) or len(ids_below[span.span_id]) > 1:
            return False
        for ancestor in tree.ancestors(span):
            if is_tool_span(ancestor):
                return False  # an agent called as a tool belongs to its caller's turn
            if is_agent_span(ancestor) and len(ids_below[ancestor.span_id]) <= 1:
                return False
        return True

    roots = [s for s in tree.spans if is_root(s)]
    groups: dict[str, tuple[Span | None, list[Span]]] = {r.span_id: (r, []) for r in roots}
    root_by_invocation = {next(iter(ids_below[r.span_id])): r for r in roots if ids_below[r.span_id]}
    loose: list[Span] = []
    for span in tree.spans:
        root = next((a for a in (span, *tree.ancestors(span)) if a.span_id in groups), None)
        if root is None:
            root = root_by_invocation.get(_invocation_of(tree, span) or "")
        if root is None and tree.is_orphan(span):
            root = next((r for r in reversed(roots) if r.start_ns <= span.start_ns <= r.end_ns), None)
        if root is not None:
            groups[root.span_id][1].append(span)
        else:
            loose.append(span)
    if not roots:
        groups = _groups_without_roots(tree, loose)
    return groups


def _invocation_of(tree: _Tree, span: Span) -> str | None:
    for node in (span, *tree.ancestors(span)):
        if own := _own_invocation(node):
            return own
    return None


def _groups_without_roots(tree: _Tree, spans: list[Span]) -> dict[str, tuple[Span | None, list[Span]]]:
    """No invocation/agent span: one turn per invocation id, or the whole trace as one turn."""
    by_invocation: dict[str, list[Span]] = {}
    unkeyed: list[Span] = []
    for span in spans:
        invocation = _invocation_of(tree, span)
        (by_invocation.setdefault(invocation, []) if invocation else unkeyed).append(span)
    if len(by_invocation) <= 1:
        key = next(iter(by_invocation), "")
        by_invocation = {key: by_invocation.get(key, []) + unkeyed}
    else:
        for span in unkeyed:
            home = next((members for members in by_invocation.values() if _covers(members, span)), None)
            if home is not None:
                home.append(span)
    groups: dict[str, tuple[Span | None, list[Span]]] = {}
    for key, members in sorted(by_invocation.items(), key=lambda kv: min(s.start_ns for s in kv[1])):
        if any(is_model_span(s) or is_tool_span(s) for s in members):
            groups[key or "trace"] = (None, sorted(members, key=lambda s: (s.start_ns, -s.end_ns)))
    return groups


def _covers(members: list[Span], span: Span) -> bool:
    return min(s.start_ns for s in members) <= span.start_ns <= max(s.end_ns for s in members)


# --- model requests ------------------------------------------------------------------------------


class _Exchange:
    """One model request: its spans (outermost first), the span it is reported by, what it says."""

    def __init__(self, spans: list[Span], reading: ModelReading, rebuilt: bool = False) -> None:
        self.spans = spans
        self.reported_by = spans[-1]  # `generate_content` when ADK wrote one under `call_llm`
        self.reading = reading
        self.start_ns = spans[0].start_ns
        self.rebuilt = rebuilt
        """True for a call rebuilt from a later call's history (the trace kept no span of it)."""


def _model_exchanges(tree: _Tree, members: list[Span], convention: Convention) -> list[_Exchange]:
    """Group nested model spans (`call_llm` > `generate_content`) into one request each."""
    in_turn = {s.span_id for s in members}
    heads: dict[str, list[Span]] = {}
    for span in members:
        if not is_model_span(span):
            continue
        head = span
        for ancestor in tree.ancestors(span):
            if ancestor.span_id not in in_turn or is_tool_span(ancestor) or is_agent_span(ancestor):
                break
            if is_model_span(ancestor):
                head = ancestor
        heads.setdefault(head.span_id, []).append(span)
    exchanges = []
    for spans in heads.values():
        spans.sort(key=lambda s: (s.start_ns, -s.end_ns))
        reading = convention.read_model(reversed(spans))
        if convention.collapsed(spans[0]):
            exchanges += [_Exchange(spans, earlier, rebuilt=True) for earlier in earlier_calls(reading)]
        exchanges.append(_Exchange(spans, reading))
    return sorted(exchanges, key=lambda e: e.start_ns)  # stable: rebuilt calls stay before theirs


# --- turns ---------------------------------------------------------------------------------------


def _build_turn(
    number: int,
    root: Span | None,
    members: list[Span],
    exchanges: list[_Exchange],
    tree: _Tree,
    convention: Convention,
    index: CallIndex,
) -> tuple[Turn, str | None, str | None, str | None]:
    """The turn, plus the agent, session and user it names."""
    agents = [s for s in members if is_agent_span(s) and s is not root]
    rest = [s for s in members if s is not root and not is_agent_span(s)]
    about = convention.read_root(([root] if root else []) + agents + rest)
    calls = tool_calls(members, tree, convention, index)
    model_calls = [
        ModelCall(
            model=e.reading.model,
            input_tokens=e.reading.input_tokens,
            output_tokens=e.reading.output_tokens,
            span_id=e.reported_by.span_id,
        )
        for e in exchanges
    ]
    start_ns = root.start_ns if root else min(s.start_ns for s in members)
    end_ns = root.end_ns if root else max(s.end_ns for s in members)
    turn = Turn(
        index=number,
        invocation_id=next((i for s in members if (i := _own_invocation(s))), None),
        started_at=_EPOCH + timedelta(microseconds=start_ns // 1000),
        duration_ms=round((end_ns - start_ns) / 1e6, 3),
        user_input=_user_input(exchanges) or about.user_input,
        final_response=_reply(exchanges, about, convention),
        tool_calls=calls,
        model_calls=model_calls,
        input_tokens=_total(m.input_tokens for m in model_calls),
        output_tokens=_total(m.output_tokens for m in model_calls),
        span_ids=[s.span_id for s in members],
    )
    turn.content_captured = _content_captured(exchanges, members, convention)
    turn.warnings = _warnings(turn, exchanges, convention)
    return turn, about.agent, about.session_id, about.user_id


def _user_input(exchanges: list[_Exchange]) -> str | None:
    """The last user text in the turn's first recorded model request."""
    request = next((e.reading.request for e in exchanges if e.reading.request is not None), None)
    for message in reversed(request or []):
        if message.role == "user" and message.texts:
            return "\n".join(message.texts)
    return None


def _reply(exchanges: list[_Exchange], about: RootReading, convention: Convention) -> str | None:
    """The model's last text reply, else the one the turn/agent span records (OpenInference AGENT/CHAIN
    `output.value`); for Monocle the turn span's output comes first."""
    if convention.reply_from_root and about.reply:
        return about.reply
    return _final_response(exchanges) or about.reply


def _final_response(exchanges: list[_Exchange]) -> str | None:
    """The text of the last model response that asked for no tool."""
    for exchange in reversed(exchanges):
        replies = exchange.reading.response or []
        if any(m.calls for m in replies):
            continue
        texts = [t for m in replies if m.role == "assistant" for t in m.texts]
        if texts:
            return "\n".join(texts)
    return None


def _content_captured(exchanges: list[_Exchange], members: list[Span], convention: Convention) -> bool:
    if exchanges:
        return any(e.reading.request is not None or e.reading.response is not None for e in exchanges)
    readings = [convention.read_tool(s) for s in members if is_tool_span(s)]
    return not readings or any(r.args is not NOT_CAPTURED or r.result is not NOT_CAPTURED for r in readings)


def _warnings(turn: Turn, exchanges: list[_Exchange], convention: Convention) -> list[str]:
    if not turn.content_captured:
        return [
            "message content was not captured (user input, replies, tool arguments and results are "
            f"missing; tool names, model calls and timing are kept): to record it, {convention.capture_hint}"
        ]
    warnings = []
    if rebuilt := sum(e.rebuilt for e in exchanges):
        warnings.append(
            f"the trace keeps only the last model call of an agent run (OpenInference on ADK's schema v2): "
            f"{rebuilt} earlier call(s) were rebuilt from its request history, without token counts"
        )
    if turn.user_input is None:
        warnings.append("no user message found in the turn's first model request")
    if exchanges and turn.final_response is None:
        warnings.append("no final text reply: the last model response asked for tools or the "
                        "turn was cut short")
    return warnings


def _total(values: Iterable[int | None]) -> int | None:
    present = [v for v in values if v is not None]
    return sum(present) if present else None
