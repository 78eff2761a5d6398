"""The argument rules of a case, scored inside ADK by the code of `promote check` (a custom metric).

ADK's trajectory criterion compares a call's arguments as one whole dict: an argument left unspecified,
or ruled `ignore`, `regex`, `one_of` or a tolerance, would fail an agent that satisfies the case, and so
would one extra argument the case does not name. So the compiled trajectory compares names and order
only (`ignore_args`), and the argument rules travel in the eval set's `test_config.json` as the criterion
of the custom metric `promote_tool_args`, whose function is `tool_args` below: it runs `promote check`'s
own `tool-args` evaluator on the calls of the ADK run. The rules of each case are keyed by the
`invocation_id` the compiler gives the case's one invocation (the case id).

A pass scores 1.0, a failure 0.0; a case whose expected tool was never called (the trajectory fails it),
or whose invocation has no rules here, is NOT_EVALUATED, as `promote check` reports it inconclusive.
This module imports google-adk only inside `tool_args`, which only ADK calls.
"""

from __future__ import annotations

from typing import Any

from promote.case.model import Case, ExpectedToolCall, ExpectedTools
from promote.evaluators.evidence import Evidence
from promote.evaluators.result import CheckResult
from promote.evaluators.tools import EVALUATORS
from promote.trace_model import ToolCall, Trace, Turn

METRIC = "promote_tool_args"
"""The custom metric's name in `criteria` and `custom_metrics`."""
FUNCTION = f"{__name__}.tool_args"
"""Its `code_config.name`: the function ADK imports (promote must be installed where ADK runs)."""
_TOOL_ARGS = next(evaluator for evaluator in EVALUATORS if evaluator.label == "tool-args")


def rules_json(calls: list[ExpectedToolCall]) -> list[dict[str, Any]]:
    """The expected calls as the criterion carries them: the case file's own form (rules as text)."""
    return [call.model_dump(mode="json", exclude_none=True) for call in calls]


def verdict(rules: list[dict[str, Any]], called: list[tuple[str, Any]]) -> CheckResult:
    """`promote check`'s tool-args verdict for expected calls `rules` against the calls of one run
    ((name, args) in call order). The ADK run is not scrubbed: the compiler routes a case whose rules
    quote a scrub placeholder to `promote check`, the only place those can be compared."""
    expected = ExpectedTools(order="any_order", calls=[ExpectedToolCall.model_validate(call)
                                                       for call in rules])
    # Only `expected_tools` is read by the evaluator; a whole valid case is not needed to run it.
    case = Case.model_construct(expected_tools=expected)
    turn = Turn(index=0, tool_calls=[ToolCall(name=name, args=args) for name, args in called])
    trace = Trace(trace_id="adk-eval", turns=[turn])
    return _TOOL_ARGS.run(case, Evidence(trace, turn, trace, turn))


def tool_args(
    eval_metric: Any, actual_invocations: list[Any], expected_invocations: list[Any] | None = None,
    conversation_scenario: Any = None,
) -> Any:
    """ADK custom metric (`custom_metrics.promote_tool_args.code_config.name`): per invocation, 1.0 when
    every expected call's arguments satisfy the case's rules, 0.0 when one does not, NOT_EVALUATED when
    `promote check` would be inconclusive."""
    from google.adk.evaluation.eval_case import get_all_tool_calls
    from google.adk.evaluation.evaluator import EvalStatus, EvaluationResult, PerInvocationResult

    del conversation_scenario  # one static conversation per case
    criterion = eval_metric.criterion
    threshold = criterion.threshold if criterion is not None else 1.0
    by_invocation = dict((criterion.model_extra or {}).get("calls", {})) if criterion is not None else {}
    results = []
    for index, actual in enumerate(actual_invocations):
        expected = expected_invocations[index] if expected_invocations else None
        rules = by_invocation.get(expected.invocation_id) if expected is not None else None
        score = None
        if rules:
            called = [(call.name, call.args) for call in get_all_tool_calls(actual.intermediate_data)]
            found = verdict(rules, called).verdict
            score = 1.0 if found == "pass" else 0.0 if found == "fail" else None
        status = (EvalStatus.NOT_EVALUATED if score is None
                  else EvalStatus.PASSED if score >= threshold else EvalStatus.FAILED)
        results.append(PerInvocationResult(actual_invocation=actual, expected_invocation=expected,
                                           score=score, eval_status=status))
    scores = [result.score for result in results if result.score is not None]
    if not scores:
        return EvaluationResult(overall_eval_status=EvalStatus.NOT_EVALUATED, per_invocation_results=results)
    overall = sum(scores) / len(scores)
    return EvaluationResult(
        overall_score=overall, per_invocation_results=results,
        overall_eval_status=EvalStatus.PASSED if overall >= threshold else EvalStatus.FAILED)
