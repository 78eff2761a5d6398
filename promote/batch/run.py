"""`promote scrub`: batch-scrub whole trace exports, streaming, on all cores or on a Dask cluster.

Each input is cut into blocks (`window` records, `block_bytes` of input, cut between traces where it
can); blocks are scrubbed in worker processes (each loads
the spaCy model once) and written back in order through one output assembler, atomically.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterator

from pydantic import Field

from promote.batch.blocks import BlockJob, BlockResult, KnownValues, cut_blocks
from promote.batch.output import OutputAssembler, ResumeLog, plan_outputs
from promote.batch.workers import LocalPool, batch_gc, make_engine
from promote.errors import PromoteError
from promote.ingest import NOTHING_FOUND, open_export
from promote.models import Model
from promote.trace_model import Skipped


class ScrubOptions(Model):
    """How to run a batch scrub."""

    workers: int = Field(default_factory=lambda: os.cpu_count() or 1, ge=1)
    """Worker processes (default: all cores); 1 scrubs in this process."""
    window: int = Field(default=1000, ge=1)
    """Records per block at most: placeholders are consistent within a trace inside one block."""
    block_bytes: int | None = Field(default=1 << 20, ge=1)
    """Bytes of records per block (cut between traces where possible); None: `window` alone decides."""
    policy_path: Path | None = None
    """Scrub policy file; None for the default policy."""
    key_file: Path | None = None
    """Key for HMAC placeholders that are stable across traces, files and runs."""
    dask: str | None = None
    """`local` for a LocalCluster, or a scheduler address."""
    resume: bool = False
    """Skip inputs a previous, interrupted run already finished."""
    strict: bool = False
    """Stop at the first bad record instead of redacting it whole."""


class FileSummary(Model):
    """What one input became."""

    input: str
    output: str
    format: str
    compression: str | None
    spans: int
    records: int
    resumed: bool = False


class ScrubRunReport(Model):
    """`--report FILE`: counts and speed; never a value."""

    files: list[FileSummary] = Field(default_factory=list)
    """Inputs and the outputs written for them."""
    spans: int = 0
    """Spans read."""
    records: int = 0
    """Records (lines, messages, documents) read."""
    strings: int = 0
    """String values looked at."""
    unique_strings: int = 0
    """Distinct string leaves analysed (after the cache)."""
    entities: dict[str, int] = Field(default_factory=dict)
    """Replacements by entity type."""
    by_attribute: dict[str, int] = Field(default_factory=dict)
    """Replacements by attribute key."""
    redacted_on_error: int = 0
    """Strings replaced whole because analysis failed (fail closed)."""
    output_check_redacted: int = 0
    """Fields redacted whole by the output check (they still held, in some form, a value removed
    elsewhere in their trace)."""
    misfits_redacted: int = 0
    """Structural fields (ids, times, kinds) that did not have the policy's shape: redacted whole."""
    skipped: list[dict[str, str]] = Field(default_factory=list)
    """Bad records, each redacted whole: `where` and `why`."""
    seconds: float = 0.0
    """Wall time."""
    spans_per_second: float = 0.0
    """Spans / seconds."""
    workers: int = 1
    """Worker processes used."""
    window: int = 0
    """Records per block at most."""
    block_bytes: int | None = None
    """Bytes of records per block (None: records alone)."""
    blocks: int = 0
    """Blocks scrubbed."""
    split_traces: int = 0
    """Traces whose spans fell into more than one block: each block numbers their placeholders afresh
    (values under personal keys are still carried over); raise `--block-mb` / `--window`, or use
    `--key-file`, when this matters."""
    policy: str = ""
    """Policy name@sha256."""
    presidio_version: str = ""
    """presidio-analyzer version."""


def scrub_exports(
    inputs: list[str],
    output: str,
    options: ScrubOptions,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> ScrubRunReport:
    """Scrub every input into `output` (a file for one input, a folder for several; `-` is stdout)."""
    from promote.scrubbing import load_policy, read_key

    started = time.perf_counter()
    options, capped = capped_options(options)
    for note in capped:
        print(f"promote scrub: {note}", file=sys.stderr)
    key = read_key(options.key_file)
    policy = load_policy(options.policy_path)
    outputs = plan_outputs(inputs, output)
    if options.resume and (output == "-" or "-" in inputs):
        raise PromoteError("--resume needs files: a stream cannot be checked against a finished output",
                           hint="leave out --resume, or scrub files")
    recipe = {"policy": policy.sha256, "key": hashlib.sha256(key).hexdigest()[:16] if key else "none"}
    # A run of several inputs always records what it finished, so that an interrupted one can be resumed;
    # one input has nothing to resume part-way, so its record is kept only when --resume asks for it.
    keep_log = output != "-" and (len(inputs) > 1 or options.resume)
    resume_log = ResumeLog(Path(output), single=len(inputs) == 1, recipe=recipe) if keep_log else None
    report = ScrubRunReport(workers=options.workers, window=options.window, block_bytes=options.block_bytes,
                            policy=f"{policy.name}@sha256:{policy.sha256}")
    with batch_gc():  # loading the model allocates as much as a block does: the same collector settings
        # This process's engine harvests known values (and scrubs, with one worker); forked workers
        # inherit it already loaded.
        engine = make_engine(policy, key)
        runner = _runner(options, policy, key, engine)
        _scrub_all(outputs, options, runner, engine, resume_log, report, progress)
    report.seconds = round(time.perf_counter() - started, 3)
    report.spans_per_second = round(report.spans / report.seconds, 1) if report.seconds else 0.0
    return report


def _scrub_all(outputs, options, runner, engine, resume_log, report, progress) -> None:
    try:
        for source, target in outputs:
            if options.resume and resume_log is not None and resume_log.done(source, target):
                report.files.append(FileSummary(input=source, output=str(target), format="-",
                                                compression=None, spans=0, records=0, resumed=True))
                continue
            known = KnownValues(engine)
            report.files.append(_scrub_one(source, target, options, runner, known, report, progress))
            report.split_traces += known.split_traces
            if resume_log is not None:
                resume_log.mark(source, target)
        report.presidio_version = runner.presidio_version
    finally:
        runner.close()


def _scrub_one(source, target, options, runner, known, report, progress) -> FileSummary:
    export = open_export(source)
    part_compression = "zstd-framed" if export.compression == "zstd-framed" else None
    final_compression = None if part_compression else export.compression
    spans = records = 0
    first_problem: list[dict[str, str]] = []
    with OutputAssembler(target, final_compression) as assembler:
        jobs = _checked(cut_blocks(export, options.window, part_compression, options.block_bytes), options)
        for result in runner.run(known.annotate(job) for job in jobs):
            assembler.write(result.data)
            _add(report, result)
            spans += result.spans
            records += result.records
            first_problem = first_problem or [{"where": s.where, "why": s.why} for s in result.skipped[:1]]
            if progress is not None:
                progress(result.records, result.spans)
        if spans == 0:  # what `traces` and `draft` refuse, `scrub` must not copy (nothing is written)
            if first_problem:
                first = f"first problem: {first_problem[0]['where']}: {first_problem[0]['why']}"
            else:
                first = "the file holds no spans"
            raise PromoteError(NOTHING_FOUND, where=source, hint=first)
    return FileSummary(input=source, output=str(target), format=export.format,
                       compression=export.compression, spans=spans, records=records)


MAX_BLOCK_BYTES = 64 << 20
"""Largest block (64 MiB of input): a block and its scrubbed copy are held in memory at once."""
WORKER_MEMORY = 700 << 20
"""What one worker process needs at most (model, caches, two blocks in flight), for the worker cap."""


def capped_options(options: ScrubOptions) -> tuple[ScrubOptions, list[str]]:
    """The options with worker count and block size capped to what this machine can hold, and a line
    for each cap applied (memory must stay bounded whatever the flags)."""
    notes = []
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    available = _available_memory()
    by_memory = max(1, available // WORKER_MEMORY) if available else cores
    workers = min(options.workers, cores, by_memory)
    if workers < options.workers:
        why = f"{cores} core(s)" if workers == cores else f"memory for {by_memory} worker(s)"
        notes.append(f"--workers {options.workers} capped to {workers} ({why} on this machine)")
    block = options.block_bytes
    if block is not None and block > MAX_BLOCK_BYTES:
        notes.append(
            f"--block-mb {block / (1 << 20):g} capped to {MAX_BLOCK_BYTES >> 20} (memory stays bounded)")
        block = MAX_BLOCK_BYTES
    if options.dask:  # a cluster's workers are the cluster's business
        workers = options.workers
    return options.model_copy(update={"workers": workers, "block_bytes": block}), notes


def _available_memory() -> int:
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _checked(jobs: Iterator[BlockJob], options: ScrubOptions) -> Iterator[BlockJob]:
    for job in jobs:
        if options.strict:
            for item in job.items:
                if isinstance(item, Skipped):
                    raise PromoteError(
                        f"{item.why}", where=item.where,
                        hint="--strict stops at the first bad record; drop it to redact bad records whole")
        yield job


def _add(report: ScrubRunReport, result: BlockResult) -> None:
    report.blocks += 1
    report.spans += result.spans
    report.records += result.records
    report.strings += result.strings
    report.skipped.extend({"where": s.where, "why": s.why} for s in result.skipped)
    delta = result.report
    report.unique_strings += int(delta.get("unique_strings", 0))
    report.redacted_on_error += int(delta.get("redacted_on_error", 0))
    report.output_check_redacted += int(delta.get("output_check_redacted", 0))
    report.misfits_redacted += int(delta.get("misfits_redacted", 0))
    for name in ("entities", "by_attribute"):
        merged = Counter(getattr(report, name))
        merged.update(delta.get(name, {}))
        setattr(report, name, dict(sorted(merged.items())))


def _runner(options: ScrubOptions, policy: Any, key: bytes | None, engine: Any):
    if options.dask:
        from promote.batch.dask_runner import DaskRunner

        return DaskRunner(options.dask, options.workers, policy, key)
    return LocalPool(options.workers, policy, key, engine)


def print_summary(report: ScrubRunReport, stream=sys.stderr) -> None:
    """One human line per input and a total; counts only."""
    for item in report.files:
        state = "already done (resumed)" if item.resumed else f"{item.spans} spans, {item.records} records"
        print(f"scrubbed {item.input} -> {item.output}: {state}", file=stream)
    entities = ", ".join(f"{k} {v}" for k, v in sorted(report.entities.items(), key=lambda kv: -kv[1]))
    print(
        f"{report.spans} spans in {report.seconds:.1f} s ({report.spans_per_second:.0f} spans/s, "
        f"{report.workers} worker(s)); replaced: {entities or 'nothing'}"
        + (f"; {len(report.skipped)} bad record(s) redacted whole" if report.skipped else "")
        + (f"; {report.output_check_redacted} field(s) redacted whole by the output check"
           if report.output_check_redacted else "")
        + (f"; {report.split_traces} trace(s) spread over more than one block"
           " (placeholders numbered per block)" if report.split_traces else ""),
        file=stream,
    )
