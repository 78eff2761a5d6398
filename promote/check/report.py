"""The report of `promote check`: per case, per evaluator label, pass / fail / inconclusive and why.

Semantics from the seed (shared/seeds/002): an inconclusive result is neither a pass nor a fail; a case
with inconclusive results and no failure passes; a label's pass rate counts its conclusive results
only, and a gate on a label with no conclusive result is missed (a vacuous pass proves nothing).
Reasons quote case text, tool names, counts and scrubbed trace text only.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, computed_field

from promote.evaluators.result import LABELS, CheckResult
from promote.models import Model as _Model
from promote.trace_model import Skipped

PairedBy = Literal["case-id", "provenance", "input", "turn"]


class CaseResult(_Model):
    """The verdicts on one case and the turn it was paired with."""

    case_id: str
    """The case id."""
    path: str
    """The case file."""
    trace_id: str
    """The trace of the paired turn."""
    turn: int
    """The turn's index in its trace."""
    paired_by: PairedBy
    """How the turn was found: case-id (a trace attribute holds the id), provenance (the case's own
    trace), input (the turn's user input matches the case's), turn (`--turn`)."""
    results: list[CheckResult] = Field(default_factory=list)
    """One result per evaluator label the case implies, in label order."""

    @computed_field
    @property
    def passed(self) -> bool:
        """True when no result failed (inconclusive results do not fail a case)."""
        return not any(result.verdict == "fail" for result in self.results)


class Unpaired(_Model):
    """A case no turn of the traces was paired with (not checked, not a failure)."""

    case_id: str
    """The case id."""
    path: str
    """The case file."""
    why: str
    """Why no turn was paired."""


class LabelRate(_Model):
    """Counts of one label over every checked case."""

    label: str
    """The evaluator label."""
    passed: int = 0
    """Passing results."""
    failed: int = 0
    """Failing results."""
    inconclusive: int = 0
    """Inconclusive results (not in the rate)."""

    @computed_field
    @property
    def rate(self) -> float | None:
        """passed / (passed + failed); None without a conclusive result."""
        conclusive = self.passed + self.failed
        return self.passed / conclusive if conclusive else None


class Gate(_Model):
    """A `--min-pass-rate LABEL=R` gate and whether the run met it."""

    label: str
    """The evaluator label gated."""
    minimum: float
    """The pass rate required, 0..1."""
    rate: float | None
    """The rate reached; None without a conclusive result."""
    met: bool
    """True when `rate` is at least `minimum`."""


class CheckReport(_Model):
    """Everything `promote check` found (the `--json` output)."""

    cases: list[CaseResult] = Field(default_factory=list)
    """Checked cases, in the order given."""
    unpaired: list[Unpaired] = Field(default_factory=list)
    """Cases no turn was paired with."""
    rates: list[LabelRate] = Field(default_factory=list)
    """Per label, in label order; labels no case implies are left out."""
    gates: list[Gate] = Field(default_factory=list)
    """The gates asked for."""
    skipped: list[Skipped] = Field(default_factory=list)
    """Trace input that could not be read (`file:line` and why); the rest was checked."""

    @computed_field
    @property
    def ok(self) -> bool:
        """True when every checked case passed and every gate was met."""
        return all(case.passed for case in self.cases) and all(gate.met for gate in self.gates)


def label_rates(cases: list[CaseResult]) -> list[LabelRate]:
    """Per-label counts over the checked cases, in label order."""
    rates: dict[str, LabelRate] = {}
    for case in cases:
        for result in case.results:
            rate = rates.setdefault(result.label, LabelRate(label=result.label))
            if result.verdict == "pass":
                rate.passed += 1
            elif result.verdict == "fail":
                rate.failed += 1
            else:
                rate.inconclusive += 1
    order = {label: index for index, label in enumerate(LABELS)}
    return sorted(rates.values(), key=lambda rate: order.get(rate.label, len(order)))


def gate_results(rates: list[LabelRate], minimums: dict[str, float]) -> list[Gate]:
    """One gate per `--min-pass-rate`; a label without a conclusive result misses its gate."""
    by_label = {rate.label: rate for rate in rates}
    gates = []
    for label, minimum in minimums.items():
        rate = by_label[label].rate if label in by_label else None
        met = rate is not None and rate >= minimum - 1e-12
        gates.append(Gate(label=label, minimum=minimum, rate=rate, met=met))
    return gates


def render_report(report: CheckReport) -> str:
    """The human report: per case a header and one line per label, then the rates and the gates."""
    lines: list[str] = []
    width = max((len(label) for label in LABELS), default=10)
    for case in report.cases:
        verdict = "PASS" if case.passed else "FAIL"
        lines.append(f"{verdict}  {case.case_id}  {case.path}  "
                     f"(trace {case.trace_id} turn {case.turn}, paired by {case.paired_by})")
        for result in case.results:
            lines.append(f"  {result.verdict:<12}  {result.label:<{width}}  {result.reason}".rstrip())
    for unpaired in report.unpaired:
        lines.append(f"SKIP  {unpaired.case_id}  {unpaired.path}  not paired: {unpaired.why}")
    if report.rates:
        lines.append("")
        lines.append(f"  {'label':<{width}}  pass  fail  inconclusive  rate")
        for rate in report.rates:
            shown = "-" if rate.rate is None else f"{rate.rate:.2f}"
            counts = f"{rate.passed:>4}  {rate.failed:>4}  {rate.inconclusive:>12}"
            lines.append(f"  {rate.label:<{width}}  {counts}  {shown}")
    for gate in report.gates:
        reached = "no conclusive result" if gate.rate is None else f"{gate.rate:.2f}"
        lines.append(f"gate {gate.label} >= {gate.minimum:g}: {'met' if gate.met else 'MISSED'} ({reached})")
    lines += [f"skipped {skip.where}: {skip.why}" for skip in report.skipped]
    failed = sum(not case.passed for case in report.cases)
    summary = f"{len(report.cases)} case(s) checked: {len(report.cases) - failed} passed, {failed} failed"
    if report.unpaired:
        summary += f"; {len(report.unpaired)} not paired"
    lines.append(summary)
    return "\n".join(lines) + "\n"
