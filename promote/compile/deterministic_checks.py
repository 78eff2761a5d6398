"""The deterministic checks (`promote check`): one checks file per case that implies any of them.

`checks/<case_id>.checks.json` is `promote.evaluators.artifact.checks_artifact(case)` (the evaluators the case
implies, with their parameters, in report-label order) plus the graders the suite policy routes to this
backend, whose thresholds are the `--min-pass-rate` gates of a `promote check` run. Unlike the other
targets it takes every case that implies a check: the checks are data of the case, not of a kind.
"""

from __future__ import annotations

from promote.case.model import Case
from promote.compile.artifacts import Artifact, CompileUnit, TargetOutput, json_text
from promote.compile.policy import SuitePolicy
from promote.evaluators.artifact import checks_artifact
from promote.evaluators.result import LABELS

NAME = "checks"
METRICS = frozenset(LABELS)
"""A grader routed here names an evaluator label as its metric, e.g. `forbidden-tools`."""


def implies_checks(case: Case, policy: SuitePolicy, target: str) -> bool:
    """True when the case implies at least one deterministic check."""
    return bool(checks_artifact(case)["checks"])


def compile_checks(units: list[CompileUnit], policy: SuitePolicy) -> TargetOutput:
    """One checks file per case."""
    output = TargetOutput()
    graders = [{"grader": name, "metric": grader.metric, "threshold": grader.threshold}
               for _pack, name, grader in policy.graders_for(NAME)]
    for unit in sorted(units, key=lambda unit: unit.case.id):
        payload = {**checks_artifact(unit.case), "graders": graders}
        path = f"{NAME}/{unit.case.id}.checks.json"
        output.artifacts.append(Artifact(NAME, path, json_text(payload), (unit.case.id,)))
    return output
