"""`check_paths` / `check_cases`: pair each case with its turn, run every evaluator it implies, report.

The traces are scrubbed once each (one placeholder context per trace) before anything is compared,
so every reason can quote scrubbed text; the raw turn is kept only for comparisons.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from promote.case.model import Case
from promote.check.pairing import TracePair, pair
from promote.check.report import CaseResult, CheckReport, Unpaired, gate_results, label_rates
from promote.errors import PromoteError
from promote.evaluators.registry import evaluate
from promote.evaluators.result import LABELS
from promote.scrubbing import engine as scrub_engine
from promote.trace_model import Trace


def check_cases(
    cases: Sequence[tuple[str, Case]],
    traces: Iterable[Trace],
    *,
    turn: int | None = None,
    min_pass_rates: dict[str, float] | None = None,
    engine: Any = None,
) -> CheckReport:
    """Check (path, case) pairs against raw traces; `engine` scrubs them (default: the shared one)."""
    pairs = trace_pairs(traces, engine or scrub_engine())
    report = CheckReport()
    for path, case in cases:
        found = pair(case, pairs, turn)
        if isinstance(found, str):
            report.unpaired.append(Unpaired(case_id=case.id, path=path, why=found))
            continue
        evidence, paired_by = found
        report.cases.append(CaseResult(
            case_id=case.id, path=path, trace_id=evidence.trace.trace_id, turn=evidence.turn.index,
            paired_by=paired_by, results=evaluate(case, evidence),
        ))
    report.rates = label_rates(report.cases)
    report.gates = gate_results(report.rates, min_pass_rates or {})
    return report


def trace_pairs(traces: Iterable[Trace], engine: Any) -> list[TracePair]:
    """Each trace as read and as `promote.source` scrubs it (what every reason may quote)."""
    from promote.source import scrub_trace

    return [TracePair(trace, scrub_trace(trace, engine).trace) for trace in traces]


def check_paths(
    case_paths: Iterable[str | Path],
    trace_paths: Iterable[str | Path],
    *,
    turn: int | None = None,
    min_pass_rates: dict[str, float] | None = None,
    policy: str | Path | None = None,
    junit: str | Path | None = None,
) -> CheckReport:
    """`promote check`: cases (files or folders) against trace exports, scrubbed with `policy` (default:
    the bundled one). Bad input raises PromoteError; so does a `junit` report path (written by the
    caller) that is one of the inputs, before anything runs."""
    from promote.check.junit import refuse_junit_over_inputs
    from promote.listing import list_traces

    for label in min_pass_rates or {}:
        if label not in LABELS:
            raise PromoteError(f"--min-pass-rate: unknown label {label}", hint=f"labels: {', '.join(LABELS)}")
    case_paths, trace_paths = list(case_paths), list(trace_paths)
    if junit is not None:
        inputs = [*_case_files(case_paths), *trace_paths, *([policy] if policy is not None else [])]
        refuse_junit_over_inputs(Path(junit), inputs)
    cases = [(str(path), load_case_model(path)) for path in _case_files(case_paths)]
    if not cases:
        raise PromoteError("no case file (*.yaml) found", where=", ".join(map(str, case_paths)))
    for path, _ in cases:  # reasons quote the case's texts: only a case that passes the gate is run
        refuse_personal_data(Path(path))
    from promote.scrub_trace import errors_scrubbed, scrub_messages

    engine = scrub_engine(str(policy) if policy is not None else None)
    with errors_scrubbed(lambda: engine):  # a read error may quote the export
        listing = list_traces(trace_paths)
    if not listing.traces:
        raise PromoteError("no agent trace found", where=", ".join(map(str, trace_paths)),
                           hint="see `promote traces` for what the export holds")
    report = check_cases(cases, listing.traces, turn=turn, min_pass_rates=min_pass_rates,
                         engine=engine)
    report.skipped = scrub_messages(listing.skipped, engine)  # a reason may quote a bad value
    if not report.cases:
        first = report.unpaired[0]
        raise PromoteError(f"no case could be paired with a turn: {first.why}", where=first.path)
    return report


def _case_files(paths: Iterable[str | Path]) -> list[Path]:
    from promote.case.validate import find_case_files

    return find_case_files(paths)


def refuse_personal_data(path: Path) -> None:
    """The residual-PII gate `pr` and `compile` apply: a case still holding personal data is bad input
    (exit 2), named by field and entity type, never by value."""
    from promote.case.validate import validate_case

    found = [problem for problem in validate_case(path) if problem.rule == "residual-pii"]
    if found:
        first = found[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise PromoteError(f"{first.field or 'case'}: {first.message}{more}", where=first.where,
                           hint="check runs only cases that pass promote validate's residual-PII scan")


def load_case_model(path: Path) -> Case:
    """Read one case; a file that is not a valid case is bad input (CaseRefused names file:line)."""
    from promote.case.store import load_case

    return load_case(path).case
