"""The I/O side of drafting: read and scrub an export, draft one turn or many, gate and write the YAML."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from promote.case.model import Case
from promote.case.pii import residual_scan_for_validate
from promote.case.yaml_io import SCHEMA_HEADER, dump_tree, new_tree, schema_header_for
from promote.draft.builder import DraftOptions, DraftResult, draft_case
from promote.draft.provenance import scrub_info
from promote.errors import PromoteError
from promote.fsutil import atomic_write_text
from promote.scrub_trace import scrub_trace
from promote.trace_model import Trace
from promote.case.validate import field_path

_FLOW_WIDTH = 88


def draft_from_export(
    path: Path, *, trace_id: str, turn: int = 0, options: DraftOptions, engine: Any = None
) -> DraftResult:
    """Read `path`, scrub the trace `trace_id` (a unique prefix will do) and draft its turn `turn`."""
    traces = _read_traces(path)
    trace = _pick(traces, trace_id, path)
    engine = engine if engine is not None else _default_engine()
    scrubbed, replaced = scrub_trace(trace, engine)
    return draft_case(scrubbed, turn, export_path=path, scrub=scrub_info(engine, replaced), options=options)


def draft_all(
    path: Path,
    *,
    cases_dir: Path,
    tool: str | None,
    agent: str | None,
    options: DraftOptions,
    engine: Any = None,
    notes: list[str] | None = None,
) -> list[Path]:
    """Draft every turn that called `tool` (if given) of an agent named `agent` (if given), one file
    each in `cases_dir`, numbered on from the cases already there.

    A turn that duplicates an existing case (or one drafted earlier in the batch) is skipped, and so is a
    turn without a recorded user message; `notes`, when given, collects why each was skipped.
    """
    if options.case_id:
        raise PromoteError("--id names one case; it cannot be used with --all", hint="leave it out")
    engine = engine if engine is not None else _default_engine()
    options = options.model_copy(update={"cases_dir": cases_dir})
    skipped = notes if notes is not None else []
    written: list[Path] = []
    for trace in _read_traces(path):
        if agent is not None and agent not in (trace.agent, trace.service):
            continue
        turns = [t for t in trace.turns if tool is None or any(call.name == tool for call in t.tool_calls)]
        if not turns:
            continue
        scrubbed, replaced = scrub_trace(trace, engine)
        for turn in turns:
            where = f"trace {trace.trace_id} turn {turn.index}"
            if turn.user_input is None:
                skipped.append(f"{where}: no recorded user message, skipped")
                continue
            result = draft_case(scrubbed, turn.index, export_path=path, scrub=scrub_info(engine, replaced),
                                options=options)
            if result.duplicate_of:
                skipped.append(f"{where}: same input and tools as {result.duplicate_of}, skipped")
                continue
            out = cases_dir / f"{result.case.id}.yaml"
            write_draft(result, out, force=False)
            written.append(out)
    return written


def write_draft(result: DraftResult, out: Path | None, *, force: bool) -> str:
    """Run the PII gate on the final YAML, then write it atomically to `out` (or just return it).

    Returns the YAML text. An existing `out` is never replaced unless `force`; `out` may be a folder
    (the file is then `<id>.yaml` inside it). The file name must be the case id (`<id>.yaml`).
    """
    case = result.case
    if out is not None and out.is_dir():
        out = out / f"{case.id}.yaml"
    if out is not None and out.stem != case.id:
        raise PromoteError(
            f"the file name must be the case id: {case.id}.yaml", where=str(out),
            hint=f"write to {out.with_name(case.id + '.yaml')} or pass --id {out.stem}",
        )
    text = gated_yaml(case, schema_header_for(out) if out is not None else SCHEMA_HEADER)
    if out is not None:
        if out.exists() and not force:
            raise PromoteError("a case file is already there", where=str(out),
                               hint="edit that case, choose another --id, or pass --force to replace it")
        atomic_write_text(out, text)
    return text


def gated_yaml(case: Case, header: str = SCHEMA_HEADER) -> str:
    """The case's YAML, refused when the residual scan finds personal data in it (field and type only)."""
    tree = new_tree(case)
    _compact(tree)
    findings = residual_scan_for_validate(tree)
    if findings:
        listed = ", ".join(dict.fromkeys(f"{field_path(location) or '?'} ({entity_type})"
                                         for location, entity_type in findings))
        raise PromoteError(
            f"refusing to write {case.id}: personal data left in {listed}",
            hint="scrub the trace with a stricter policy or edit the field before promoting",
        )
    return dump_tree(tree, header)


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
    if all(not isinstance(v, (dict, list)) for v in scalars) and len(str(scalars)) + 4 * len(scalars) <= _FLOW_WIDTH:
        node.fa.set_flow_style()


def _read_traces(path: Path) -> list[Trace]:
    from promote.listing import list_traces  # the ingester: imported late, it is the heavy part

    listing = list_traces([path])
    if not listing.turn_count:
        notes = listing.without_turns or listing.skipped
        why = f": {notes[0].why}" if notes else ""
        raise PromoteError(f"no agent turn found{why}", where=notes[0].where if notes else str(path),
                           hint="see `promote traces --help` for the formats and conventions read")
    return listing.traces


def _pick(traces: list[Trace], trace_id: str, path: Path) -> Trace:
    wanted = trace_id.strip().lower()
    exact = [t for t in traces if t.trace_id == wanted]
    matches = exact or [t for t in traces if t.trace_id.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    ids = ", ".join(t.trace_id for t in traces)
    if matches:
        raise PromoteError(f"trace id prefix {trace_id} matches {len(matches)} traces", where=str(path),
                           hint=f"give more of the id: {ids}")
    raise PromoteError(f"no trace {trace_id}", where=str(path), hint=f"traces in this file: {ids}")


def _default_engine() -> Any:
    from scrubbers import ScrubEngine, load_policy

    return ScrubEngine(load_policy())
