"""The backend table: every compile target, in the order the compile log shows them.

**A new target is registered here and nowhere else**: add a `Target` to `TARGETS` with its name (the
`--target` name and the suite policy's backend name), its label in the compile log, the metrics its
graders may name in the policy, and its compiler (a pure function from the cases routed to it and the
policy to artifacts). `select` decides which cases a target compiles; the default takes a case when
one of its kinds routes to the target in the suite policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from promote.case.model import Case
from promote.compile.adk_eval import compile_adk
from promote.compile.adk_eval import METRICS as ADK_METRICS
from promote.compile.artifacts import CompileUnit, TargetOutput
from promote.compile.deterministic_checks import METRICS as CHECKS_METRICS
from promote.compile.deterministic_checks import compile_checks, implies_checks
from promote.compile.numeric_oracle import METRICS as NUMERIC_METRICS
from promote.compile.numeric_oracle import compile_numeric
from promote.compile.policy import SuitePolicy
from promote.compile.ragas_eval import METRICS as RAGAS_METRICS
from promote.compile.ragas_eval import compile_ragas
from promote.compile.safety_probe import METRICS as SAFETY_METRICS
from promote.compile.safety_probe import compile_safety

Compiler = Callable[[list[CompileUnit], SuitePolicy], TargetOutput]
Selector = Callable[[Case, SuitePolicy, str], bool]


def routed_by_kind(case: Case, policy: SuitePolicy, target: str) -> bool:
    """True when one of the case's kinds routes to `target` in the suite policy."""
    return any(kind in policy.routing and policy.routing[kind].backend == target for kind in case.kind)


@dataclass(frozen=True)
class Target:
    """One backend the compiler writes for."""

    name: str
    """`--target` name and the policy's backend name, e.g. `adk`; also the output subfolder."""
    label: str
    """Shown in the compile log, e.g. `ADK eval`."""
    metrics: frozenset[str]
    """The backend metrics a policy grader routed here may name."""
    compile: Compiler
    """Cases routed here + policy -> artifacts and warnings."""
    select: Selector = routed_by_kind
    """Which cases this target compiles."""


TARGETS: tuple[Target, ...] = (
    Target("adk", "ADK eval", ADK_METRICS, compile_adk),
    Target("ragas", "RAGAS", RAGAS_METRICS, compile_ragas),
    Target("numeric", "Numeric oracle", NUMERIC_METRICS, compile_numeric),
    Target("safety", "Llama Guard + Presidio", SAFETY_METRICS, compile_safety),
    Target("checks", "Deterministic checks", CHECKS_METRICS, compile_checks, select=implies_checks),
)


def target_names() -> list[str]:
    return [target.name for target in TARGETS]


def backend_metrics() -> dict[str, frozenset[str]]:
    """Backend name -> metrics, as the policy loader checks graders against them."""
    return {target.name: target.metrics for target in TARGETS}
