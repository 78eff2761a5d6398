"""The I/O side of drafting: read and scrub an export, draft one turn or many, write through `save_case`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from promote import scrubbing
from promote.case.problems import Problem
from promote.case.rules import PLACEHOLDER_RE
from promote.case.store import SavedCase, checked_text, save_case
from promote.draft.builder import DraftOptions, DraftResult, draft_case, note
from promote.draft.provenance import scrub_info
from promote.errors import PromoteError
from promote.scrub_trace import errors_scrubbed, scrub_trace_fully
from promote.trace_model import Trace

if TYPE_CHECKING:
    from scrubbers import ScrubEngine

# `replaced_values` lines raw and scrubbed text up by pattern: bounded so that a huge tool result
# cannot make it slow.
_MAX_DIFFED_CHARS = 100_000
_MAX_PLACEHOLDERS = 200


def draft_from_export(
    path: Path, *, trace_id: str, turn: int = 0, options: DraftOptions, engine: ScrubEngine | None = None
) -> DraftResult:
    """Read `path`, scrub the trace `trace_id` (a unique prefix will do) and draft its turn `turn`."""
    traces = _read_traces(path, lambda: engine if engine is not None else scrubbing.engine(options.policy))
    trace = _pick(traces, trace_id, path)
    engine = engine if engine is not None else scrubbing.engine(options.policy)
    scrubbed, replaced, known = scrub_trace_fully(trace, engine)
    result = draft_case(scrubbed, turn, export_path=path, scrub=scrub_info(engine, replaced), options=options)
    return result.model_copy(update={"known_values": sorted({*known, *replaced_values(trace, scrubbed)})})


def draft_all(
    path: Path,
    *,
    cases_dir: Path,
    tool: str | None,
    agent: str | None,
    options: DraftOptions,
    engine: ScrubEngine | None = None,
    notes: list[Problem] | None = None,
    force: bool = False,
) -> list[Path]:
    """Draft every turn that called `tool` (if given) of an agent named `agent` (if given), one file
    each in `cases_dir`, numbered on from the cases already there.

    A turn that duplicates an existing case (or one drafted earlier in the batch) is skipped unless
    `force` (the existing file is then replaced), and so is a turn without a recorded user message;
    `notes`, when given, collects why each was skipped. No matching turn at all is a `PromoteError`.
    """
    if options.case_id:
        raise PromoteError("--id names one case; it cannot be used with --all", hint="leave it out")
    options = options.model_copy(update={"cases_dir": cases_dir})
    skipped = notes if notes is not None else []
    written: list[Path] = []
    matched = 0
    read_engine = lambda: engine if engine is not None else scrubbing.engine(options.policy)  # noqa: E731
    for trace in _read_traces(path, read_engine):
        if agent is not None and agent not in (trace.agent, trace.service):
            continue
        turns = [t for t in trace.turns if tool is None or any(call.name == tool for call in t.tool_calls)]
        if not turns:
            continue
        matched += len(turns)
        # loaded when first needed
        engine = engine if engine is not None else scrubbing.engine(options.policy)
        scrubbed, replaced, known = scrub_trace_fully(trace, engine)
        for turn in turns:
            where = f"trace {trace.trace_id} turn {turn.index}"
            if turn.user_input is None:
                skipped.append(note("", f"{where}: no recorded user message, skipped"))
                continue
            result = draft_case(scrubbed, turn.index, export_path=path, scrub=scrub_info(engine, replaced),
                                options=options)
            result = result.model_copy(
                update={"known_values": sorted({*known, *replaced_values(trace, scrubbed)})}
            )
            if result.duplicate_of and not force:
                skipped.append(note("", f"{where}: same input and tools as {result.duplicate_of}, skipped "
                                    "(that case is kept; --force replaces it)"))
                continue
            out = Path(result.duplicate_of) if result.duplicate_of else cases_dir / f"{result.case.id}.yaml"
            if result.duplicate_of:
                result = result.model_copy(update={"case": result.case.model_copy(update={"id": out.stem})})
            written.append(write_draft(result, out, force=force).path)
    if not matched:
        wanted = " ".join(filter(None, [f"--tool {tool}" if tool else None,
                                        f"--agent {agent}" if agent else None]))
        what = f"no turn matches {wanted}" if wanted else "no agent turn to draft"
        raise NothingMatched(what, where=str(path), hint="`promote traces FILE` lists its agents and tools")
    return written


class NothingMatched(PromoteError):
    """`draft --all` found no turn to draft: a check that failed (exit 1), not bad input."""

    exit_code = 1


def case_path(result: DraftResult, out: Path) -> Path:
    """Where a draft goes for `-o out`: `out` itself, or `<id>.yaml` inside it when it is a folder."""
    return out / f"{result.case.id}.yaml" if out.is_dir() else out


def write_draft(result: DraftResult, out: Path, *, force: bool) -> SavedCase:
    """Write a draft through `save_case` (validation, the PII gate, atomic write).

    `out` may be a folder (the file is then `<id>.yaml` inside it); the file name must be the case id.
    An existing file is never replaced unless `force`.
    """
    out = case_path(result, out)
    if out.stem != result.case.id:
        raise PromoteError(
            f"the file name must be the case id: {result.case.id}.yaml", where=str(out),
            hint=f"write to {out.with_name(result.case.id + '.yaml')} or pass --id {out.stem}",
        )
    return save_case(result.case, out, overwrite=force, known_values=result.known_values)


def draft_text(result: DraftResult) -> str:
    """The draft's YAML for printing, through the same checks as a write (the PII gate included)."""
    return checked_text(result.case, None, known_values=result.known_values).text


def replaced_values(raw: Trace, scrubbed: Trace) -> list[str]:
    """The raw texts the scrubber replaced by a placeholder in a trace's turns: the write gate refuses a
    case that still holds one anywhere (a value the NER scan of the case alone might not see)."""
    found: set[str] = set()
    for raw_turn, clean_turn in zip(raw.turns, scrubbed.turns, strict=False):
        pairs = [(raw_turn.user_input, clean_turn.user_input),
                 (raw_turn.final_response, clean_turn.final_response)]
        for raw_call, clean_call in zip(raw_turn.tool_calls, clean_turn.tool_calls, strict=False):
            pairs += [(raw_call.args, clean_call.args), (raw_call.result, clean_call.result),
                      (raw_call.error, clean_call.error)]
        for before, after in pairs:
            for old, new in _leaves(before, after):
                found.update(_replaced(old, new))
    return sorted(found)


def _leaves(before: Any, after: Any) -> Iterator[tuple[str, str]]:
    if isinstance(before, str) and isinstance(after, str):
        yield before, after
    elif isinstance(before, dict) and isinstance(after, dict):
        for key in before.keys() & after.keys():
            yield from _leaves(before[key], after[key])
    elif isinstance(before, list) and isinstance(after, list):
        for old, new in zip(before, after, strict=False):
            yield from _leaves(old, new)


def _replaced(before: str, after: str) -> Iterator[str]:
    """The raw texts behind each placeholder of `after`: `after` read as a pattern (its placeholders as
    groups, the rest literal) matched against `before`. Nothing when they do not line up."""
    if before == after or len(after) > _MAX_DIFFED_CHARS:
        return
    parts = PLACEHOLDER_RE.split(after)
    if len(parts) == 1 or len(parts) > _MAX_PLACEHOLDERS:
        return
    pattern = "(.+?)".join(re.escape(part) for part in parts)
    found = re.fullmatch(pattern, before, re.DOTALL)
    if found is None:
        return
    for value in found.groups():
        value = value.strip()
        if len(value) >= 3 and not PLACEHOLDER_RE.fullmatch(value):
            yield value


def _read_traces(path: Path, engine: Callable[[], ScrubEngine]) -> list[Trace]:
    """The traces of `path`; an error that quotes the export (a skip reason, span names) passes the
    scrubber first, like data."""
    from promote.listing import list_traces  # the ingester: imported late, it is the heavy part

    with errors_scrubbed(engine):
        listing = list_traces([path])
        if not listing.turn_count:
            notes = listing.without_turns or listing.skipped
            why = f": {notes[0].why}" if notes else ""
            raise PromoteError(f"no agent turn found{why}", where=notes[0].where if notes else str(path),
                               hint="see `promote traces --help` for the formats and conventions read",
                               quotes_input=bool(notes))
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
