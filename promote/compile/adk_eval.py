"""Google ADK eval (functional graders): `<eval_set>.evalset.json` + `test_config.json` per eval set.

Written exactly as google-adk reads them (`EvalSet` and `EvalConfig` of `google.adk.evaluation`): one
eval set per dataset, in its own folder, because ADK looks for `test_config.json` beside the eval set.
Eval set ids are the dataset's name as `[a-z0-9_]+`, the only ids `adk web` accepts. ADK applies one
`match_type` per config, so a dataset whose cases mix `expected_tools.order`s is split in one eval set
per order (with a warning). ADK compares a tool call's arguments as a whole dict, so the per-argument
rules it cannot express (`ignore`, `regex`, `tolerance`, `one_of`) are compiled to the nearest thing
(the recorded example value, or the argument left out) and reported as a warning for the case.
"""

from __future__ import annotations

import re
from typing import Any

from promote.compile.artifacts import (
    Artifact, CompileUnit, CompileWarning, TargetOutput, dataset_groups, json_text, slug,
)
from promote.case.model import ArgRule
from promote.compile.match_rules import call_rules, rule_text
from promote.compile.policy import Grader, SuitePolicy

NAME = "adk"
METRICS = frozenset({
    "tool_trajectory_avg_score", "response_match_score", "response_evaluation_score",
    "final_response_match_v2", "hallucinations_v1", "safety_v1",
    "rubric_based_final_response_quality_v1", "rubric_based_tool_use_quality_v1",
})
"""ADK's prebuilt metrics that a golden case can feed."""
JUDGED = frozenset({
    "final_response_match_v2", "hallucinations_v1",
    "rubric_based_final_response_quality_v1", "rubric_based_tool_use_quality_v1",
})
TRAJECTORY = "tool_trajectory_avg_score"
RESPONSE = frozenset(METRICS - {TRAJECTORY, "safety_v1", "rubric_based_tool_use_quality_v1"})
MATCH_TYPES = {"in_order": "IN_ORDER", "any_order": "ANY_ORDER", "exact": "EXACT"}
DEFAULT_USER = "eval-user"
WHOLE_ARGS = "ADK compares whole args; promote check applies the rule"


def compile_adk(units: list[CompileUnit], policy: SuitePolicy) -> TargetOutput:
    """Every eval set and its test config, for the cases whose functional concern routes to ADK."""
    output = TargetOutput()
    graders = policy.graders_for(NAME)
    for dataset, members in dataset_groups(units).items():
        for set_id, order, cases in _split_by_order(dataset, members, output):
            eval_cases = [_eval_case(unit, policy, output) for unit in cases]
            eval_set = {
                "eval_set_id": set_id,
                "name": dataset,
                "description": f"Golden cases of dataset {dataset} (compiled by promote from portable-v1).",
                "eval_cases": eval_cases,
            }
            ids = tuple(unit.case.id for unit in cases)
            folder = f"adk/{set_id}"
            output.artifacts.append(
                Artifact(NAME, f"{folder}/{set_id}.evalset.json", json_text(eval_set), ids))
            config = {"criteria": _criteria(graders, order, cases, policy, output)}
            output.artifacts.append(Artifact(NAME, f"{folder}/test_config.json", json_text(config), ids))
    return output


def _order(unit: CompileUnit) -> str | None:
    tools = unit.case.expected_tools
    return tools.order if tools is not None and tools.calls else None


def _split_by_order(
    dataset: str, members: list[CompileUnit], output: TargetOutput
) -> list[tuple[str, str | None, list[CompileUnit]]]:
    orders = [order for order in MATCH_TYPES if any(_order(unit) == order for unit in members)]
    if len(orders) <= 1:
        return [(slug(dataset), orders[0] if orders else None, members)]
    sets = []
    for order in orders:
        # A case that expects no tools has no order of its own: it joins the first set.
        cases = [unit for unit in members
                 if _order(unit) == order or (_order(unit) is None and order == orders[0])]
        sets.append((f"{slug(dataset)}_{order}", order, cases))
        for unit in cases:
            output.warnings.append(CompileWarning(NAME, unit.case.id, "expected_tools.order", (
                f"dataset {dataset} mixes orders ({', '.join(orders)}); ADK applies one match_type per "
                f"eval set, so this case is in eval set {slug(dataset)}_{order}"
            )))
    return sets


def _eval_case(unit: CompileUnit, policy: SuitePolicy, output: TargetOutput) -> dict[str, Any]:
    case = unit.case
    invocation: dict[str, Any] = {"user_content": {"role": "user", "parts": [{"text": case.input}]}}
    if case.expected_output is not None:
        invocation["final_response"] = {"role": "model", "parts": [{"text": case.expected_output}]}
    tool_uses = []
    calls = case.expected_tools.calls if case.expected_tools is not None else []
    for index, call in enumerate(calls):
        args = _args(call, call_rules(call), f"expected_tools.calls[{index}]", case.id, output)
        tool_uses.append({"name": call.name, "args": args})
    invocation["intermediate_data"] = {"tool_uses": tool_uses}
    session = {"app_name": app_name(case.agent, case.id, policy), "user_id": unit.user_id or DEFAULT_USER,
               "state": dict(case.params)}
    if unit.user_id is None:
        output.warnings.append(CompileWarning(NAME, case.id, "entities", (
            f"no entity resolves to a sandbox record: the session runs as {DEFAULT_USER}"
        )))
    return {"eval_id": case.id, "conversation": [invocation], "session_input": session}


def _args(
    call: Any, rules: dict[str, ArgRule], field: str, case_id: str, output: TargetOutput
) -> dict[str, Any]:
    args = dict(call.args or {})
    compiled: dict[str, Any] = {}
    for name, rule in rules.items():
        where = f"{field}.match.{name}"
        if rule.kind == "exact":
            compiled[name] = args.get(name)
            continue
        if name in args:
            value = args[name]
        elif rule.kind == "one_of" and rule.values:
            value = rule.values[0]
        else:
            output.warnings.append(CompileWarning(NAME, case_id, where, (
                f"{rule_text(rule)} has no example value: left out of {call.name}'s args, so a call that "
                f"carries the argument will not match ({WHOLE_ARGS})"
            )))
            continue
        compiled[name] = value
        output.warnings.append(CompileWarning(NAME, case_id, where, (
            f"{rule_text(rule)} compiled to exact {value!r} ({WHOLE_ARGS})"
        )))
    return compiled


def app_name(agent: str | None, case_id: str, policy: SuitePolicy) -> str:
    """The ADK app name: the policy's for this agent, else the agent's name as a slug (its pillar else)."""
    if agent and agent in policy.adk.app_names:
        return policy.adk.app_names[agent]
    if agent:
        return slug(re.sub(r"\(.*?\)", "", agent))
    return slug(case_id.split(".", 1)[0])


def _criteria(
    graders: list[tuple[str, str, Grader]], order: str | None, cases: list[CompileUnit],
    policy: SuitePolicy, output: TargetOutput,
) -> dict[str, Any]:
    criteria: dict[str, Any] = {}
    with_output = [unit for unit in cases if unit.case.expected_output is not None]
    for pack, _name, grader in graders:
        criterion: dict[str, Any] = {"threshold": grader.threshold}
        if grader.metric == TRAJECTORY:
            if order is None:
                continue  # no case of the set expects tools: nothing for a trajectory to compare
            criterion["match_type"] = MATCH_TYPES[order]
            _warn_missing(cases, _order, "expected_tools", "the trajectory criterion has no expected calls",
                          output)
        elif grader.metric in RESPONSE:
            if not with_output:
                continue
            _warn_missing(cases, lambda unit: unit.case.expected_output, "expected_output",
                          f"{grader.metric} has no reference reply", output)
        if grader.metric in JUDGED:
            criterion["judge_model_options"] = {"judge_model": policy.judge_model,
                                                "num_samples": policy.judge_samples}
        criteria[grader.metric] = criterion
    return criteria


def _warn_missing(cases: list[CompileUnit], has: Any, field: str, what: str, output: TargetOutput) -> None:
    for unit in cases:
        if has(unit) is None:
            warning = CompileWarning(NAME, unit.case.id, field, f"no {field}: {what} for this case")
            if warning not in output.warnings:
                output.warnings.append(warning)
