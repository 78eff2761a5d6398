"""The I/O side of drafting: read and scrub an export (`promote.source`), gather the draft's inputs
(`promote.draft.inputs`), draft one turn or many (`draft_case`), write through `save_case`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from promote import scrubbing
from promote.case.problems import Problem
from promote.case.store import SavedCase, checked_text, save_case
from promote.draft.builder import DraftOptions, DraftResult, draft_case, note
from promote.draft.inputs import DraftInputs, gather_inputs
from promote.errors import PromoteError
from promote.scrub_trace import errors_scrubbed
from promote.source import read_traces
from promote.ingest.sources import file_sha256
from promote.source.scrub import ScrubbedTrace, scrub_trace
from promote.trace_model import Skipped, Trace

if TYPE_CHECKING:
    from scrubbers import ScrubEngine


def draft_from_export(
    path: Path, *, trace_id: str, turn: int = 0, options: DraftOptions, engine: ScrubEngine | None = None
) -> DraftResult:
    """Read `path` until the trace `trace_id` is complete (a unique prefix will do, read to the end),
    scrub it and draft its turn `turn`. A stream (stdin) is parsed only that far: the rest of it is
    hashed unread, for the export's digest."""
    load = lambda: engine if engine is not None else scrubbing.engine(options.policy)  # noqa: E731
    digests: dict[str, str] = {}
    trace = _find_trace(path, trace_id, load, digests)
    return draft_turn(scrub_trace(trace, load(), export_sha256=digests.get(str(path))), turn, options)


def draft_turn(scrubbed: ScrubbedTrace, turn: int, options: DraftOptions,
               inputs: DraftInputs | None = None) -> DraftResult:
    """The draft of one turn of a scrubbed trace: its inputs gathered (unless given), `draft_case` run,
    and the raw values the scrubber replaced kept for the write gate (`known_values`)."""
    if inputs is None:
        digest = scrubbed.export_sha256 or file_sha256(Path(scrubbed.export))
        inputs = gather_inputs(options, export_sha256=digest)
    result = draft_case(scrubbed.trace, turn, inputs=inputs, scrub=scrubbed.scrub, options=options)
    return result.model_copy(update={"known_values": list(scrubbed.known_values)})


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
    load = lambda: engine if engine is not None else scrubbing.engine(options.policy)  # noqa: E731
    inputs = gather_inputs(options, export_sha256=file_sha256(path))
    for trace in _agent_traces(path, load):
        if agent is not None and agent not in (trace.agent, trace.service):
            continue
        turns = [t for t in trace.turns if tool is None or any(call.name == tool for call in t.tool_calls)]
        if not turns:
            continue
        matched += len(turns)
        scrubbed = scrub_trace(trace, load())
        for turn in turns:
            where = f"trace {trace.trace_id} turn {turn.index}"
            if turn.user_input is None:
                skipped.append(note("", f"{where}: no recorded user message, skipped"))
                continue
            result = draft_turn(scrubbed, turn.index, options, inputs)
            if result.duplicate_of and not force:
                skipped.append(note("", f"{where}: same input and tools as {result.duplicate_of}, skipped "
                                    "(that case is kept; --force replaces it)"))
                continue
            out = Path(result.duplicate_of) if result.duplicate_of else cases_dir / f"{result.case.id}.yaml"
            if result.duplicate_of:
                result = result.model_copy(update={"case": result.case.model_copy(update={"id": out.stem})})
            written.append(write_draft(result, out, force=force).path)
            inputs.written(result.case, written[-1])
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


def _agent_traces(path: Path, engine: Callable[[], ScrubEngine],
                  digests: dict[str, str] | None = None) -> Iterator[Trace]:
    """The agent traces of `path` as `promote.source` reads them; no agent turn in the whole file is a
    `PromoteError`. An error that quotes the export (a skip reason, span names) passes the scrubber
    first, like data."""
    with errors_scrubbed(engine):
        skipped: list[Skipped] = []
        without: list[Skipped] = []
        turns = 0
        for trace in read_traces([path], skipped=skipped, digests=digests):
            if not trace.turns:
                where = next((s.where for s in trace.spans if s.where), "-")
                without.append(Skipped(where=where, why=f"trace {trace.trace_id}: {trace.no_turns_reason}"))
            if trace.producer is not None:
                turns += len(trace.turns)
                yield trace
        if not turns:
            notes = without or skipped
            why = f": {notes[0].why}" if notes else ""
            raise PromoteError(f"no agent turn found{why}", where=notes[0].where if notes else str(path),
                               hint="see `promote traces --help` for the formats and conventions read",
                               quotes_input=bool(notes))


def _find_trace(path: Path, trace_id: str, engine: Callable[[], ScrubEngine],
                digests: dict[str, str]) -> Trace:
    """The trace `trace_id` of `path`: reading stops once it is complete; a prefix is read to the end
    (it must name one trace)."""
    wanted = trace_id.strip().lower()
    ids: list[str] = []
    matches: list[Trace] = []
    with closing(_agent_traces(path, engine, digests)) as traces, errors_scrubbed(engine):
        for trace in traces:
            named = trace.trace_id.lower()  # a hex id, or `<id>~<file name>`: any case will do
            if named == wanted and not trace.turns:
                where = next((s.where for s in trace.spans if s.where), str(path))
                raise PromoteError(f"no agent turn found: trace {trace.trace_id}: {trace.no_turns_reason}",
                                   where=where, quotes_input=True,
                                   hint="see `promote traces --help` for the formats and conventions read")
            if named == wanted:
                return trace
            ids.append(trace.trace_id)
            if named.startswith(wanted):
                matches.append(trace)
    if len(matches) == 1:
        return matches[0]
    listed = ", ".join(ids)
    if matches:
        raise PromoteError(f"trace id prefix {trace_id} matches {len(matches)} traces", where=str(path),
                           hint=f"give more of the id: {listed}")
    raise PromoteError(f"no trace {trace_id}", where=str(path), hint=f"traces in this file: {listed}")
