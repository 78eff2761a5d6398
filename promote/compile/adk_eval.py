"""Google ADK eval (functional graders): `<eval_set>.evalset.json` + `test_config.json` per eval set.

Written exactly as google-adk reads them (`EvalSet` and `EvalConfig` of `google.adk.evaluation`): one
eval set per dataset, in its own folder, because ADK looks for `test_config.json` beside the eval set.
Eval set ids are the dataset's name as `[a-z0-9_]+`, the only ids `adk web` accepts.

What ADK is given means what the case means, or ADK is not given it:
- **Names and order.** The trajectory criterion compares tool names only (`ignore_args`), with the
  case's `expected_tools.order` as `match_type`. ADK applies one match type per config, so a dataset
  whose cases differ is split in one eval set per trajectory (with a warning): `in_order`, `any_order`,
  `exact`, and `no_tools` for cases with no `expected_tools` (no trajectory criterion). A case that
  expects no call (`calls: []`) is an `exact` empty trajectory: any call fails it.
- **Arguments.** ADK compares a call's arguments as one dict, which is stricter than the case (an
  unspecified, `ignore`, `regex`, `one_of` or tolerance argument, or one the case does not name). The
  rules go to the custom metric `promote_tool_args` (`adk_tool_args`: the code of `promote check`), or,
  when the policy says `adk.tool_args: checks` or a rule quotes a scrub placeholder, to the
  deterministic engine (`promote check`). The compile log says which, per case.
"""

from __future__ import annotations

import re
from typing import Any

from promote.case.model import ExpectedToolCall
from promote.case.rules import PLACEHOLDER_RE
from promote.compile.adk_tool_args import FUNCTION, METRIC, rules_json
from promote.compile.match_rules import call_rules
from promote.compile.artifacts import (
    Artifact, CompileUnit, CompileWarning, TargetOutput, dataset_groups, json_text, slug,
)
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
NO_TOOLS = "no_tools"
DEFAULT_USER = "eval-user"
TO_ADK = f"ADK custom metric {METRIC} (the code of promote check's tool-args)"
TO_CHECKS = "promote check (deterministic engine): tool-args"


def compile_adk(units: list[CompileUnit], policy: SuitePolicy) -> TargetOutput:
    """Every eval set and its test config, for the cases whose functional concern routes to ADK."""
    output = TargetOutput()
    graders = policy.graders_for(NAME)
    for dataset, members in dataset_groups(units).items():
        for set_id, trajectory, cases in _split_by_trajectory(dataset, members, output):
            in_adk = {unit.case.id: rules for unit in cases
                      if (rules := _route_arguments(unit, policy, output)) is not None}
            eval_set = {
                "eval_set_id": set_id,
                "name": dataset,
                "description": f"Golden cases of dataset {dataset} (compiled by promote from portable-v1).",
                "eval_cases": [_eval_case(unit, policy, output) for unit in cases],
            }
            ids = tuple(unit.case.id for unit in cases)
            folder = f"adk/{set_id}"
            output.artifacts.append(
                Artifact(NAME, f"{folder}/{set_id}.evalset.json", json_text(eval_set), ids))
            config = _config(graders, trajectory, cases, in_adk, policy, output)
            output.artifacts.append(Artifact(NAME, f"{folder}/test_config.json", json_text(config), ids))
    return output


def trajectory_of(unit: CompileUnit) -> str:
    """The match the case's trajectory needs: its order, `exact` for no call, `no_tools` without one."""
    tools = unit.case.expected_tools
    if tools is None:
        return NO_TOOLS
    return tools.order if tools.calls else "exact"


def _split_by_trajectory(
    dataset: str, members: list[CompileUnit], output: TargetOutput
) -> list[tuple[str, str, list[CompileUnit]]]:
    found = {trajectory_of(unit) for unit in members}
    kinds = [kind for kind in (*MATCH_TYPES, NO_TOOLS) if kind in found]
    if len(kinds) <= 1:
        return [(slug(dataset), kinds[0] if kinds else NO_TOOLS, members)]
    sets = []
    for kind in kinds:
        cases = [unit for unit in members if trajectory_of(unit) == kind]
        sets.append((f"{slug(dataset)}_{kind}", kind, cases))
        for unit in cases:
            output.warnings.append(CompileWarning(NAME, unit.case.id, "expected_tools.order", (
                f"dataset {dataset} mixes trajectories ({', '.join(kinds)}); ADK applies one match_type per "
                f"eval set, so this case is in eval set {slug(dataset)}_{kind}"
            )))
    return sets


def _route_arguments(unit: CompileUnit, policy: SuitePolicy, output: TargetOutput) -> list | None:
    """The case's argument rules when ADK scores them (None: no rules, or routed to promote check)."""
    case = unit.case
    calls = case.expected_tools.calls if case.expected_tools is not None else []
    ruled = [call for call in calls if call.args or call.match]
    if not calls:
        if case.expected_tools is not None:
            output.notes.append(CompileWarning(NAME, case.id, "expected_tools", (
                "no tool call expected: ADK trajectory EXACT over an empty list (any call fails)")))
        return None
    if not ruled:
        output.notes.append(CompileWarning(NAME, case.id, "expected_tools", (
            "tool names and order: ADK trajectory (ignore_args); the case rules no argument")))
        return None
    held = [call.name for call in ruled if _quotes_placeholder(call)]
    if held:
        output.warnings.append(CompileWarning(NAME, case.id, "expected_tools", (
            f"arguments of {', '.join(held)} quote a scrub placeholder, which only promote check compares "
            "(on the scrubbed trace): the argument rules route to promote check, not ADK")))
    where = TO_CHECKS if held or policy.adk.tool_args == "checks" else TO_ADK
    output.notes.append(CompileWarning(NAME, case.id, "expected_tools", (
        f"tool names and order: ADK trajectory (ignore_args); argument rules: {where}")))
    return rules_json(calls) if where == TO_ADK else None


def _quotes_placeholder(call: ExpectedToolCall) -> bool:
    """True when a rule compares against a scrub placeholder (an `ignore`d example value compares nothing)."""
    for name, rule in call_rules(call).items():
        if rule.kind != "ignore" and PLACEHOLDER_RE.search(f"{(call.args or {}).get(name)} {rule}"):
            return True
    return False


def _eval_case(unit: CompileUnit, policy: SuitePolicy, output: TargetOutput) -> dict[str, Any]:
    case = unit.case
    # The invocation id keys the case's argument rules in the custom metric's criterion.
    invocation: dict[str, Any] = {
        "invocation_id": case.id,
        "user_content": {"role": "user", "parts": [{"text": case.input}]},
    }
    if case.expected_output is not None:
        invocation["final_response"] = {"role": "model", "parts": [{"text": case.expected_output}]}
    calls = case.expected_tools.calls if case.expected_tools is not None else []
    # The example arguments are shown as the case holds them; the trajectory ignores them (ignore_args).
    tool_uses = [{"name": call.name, "args": dict(call.args or {})} for call in calls]
    invocation["intermediate_data"] = {"tool_uses": tool_uses}
    session = {"app_name": app_name(case.agent, case.id, policy), "user_id": unit.user_id or DEFAULT_USER,
               "state": dict(case.params)}
    if unit.user_id is None:
        output.warnings.append(CompileWarning(NAME, case.id, "entities", (
            f"no entity resolves to a sandbox record: the session runs as {DEFAULT_USER}"
        )))
    return {"eval_id": case.id, "conversation": [invocation], "session_input": session}


def app_name(agent: str | None, case_id: str, policy: SuitePolicy) -> str:
    """The ADK app name: the policy's for this agent, else the agent's name as a slug (its pillar else)."""
    if agent and agent in policy.adk.app_names:
        return policy.adk.app_names[agent]
    if agent:
        return slug(re.sub(r"\(.*?\)", "", agent))
    return slug(case_id.split(".", 1)[0])


def _config(
    graders: list[tuple[str, str, Grader]], trajectory: str, cases: list[CompileUnit],
    in_adk: dict[str, list], policy: SuitePolicy, output: TargetOutput,
) -> dict[str, Any]:
    criteria: dict[str, Any] = {}
    custom: dict[str, Any] = {}
    with_output = [unit for unit in cases if unit.case.expected_output is not None]
    for _pack, _name, grader in graders:
        criterion: dict[str, Any] = {"threshold": grader.threshold}
        if grader.metric == TRAJECTORY:
            if trajectory == NO_TOOLS:
                continue  # no case of the set has expected_tools: nothing for a trajectory to compare
            criterion["match_type"] = MATCH_TYPES[trajectory]
            criterion["ignore_args"] = True
            criteria[grader.metric] = criterion
            if in_adk:
                # The same grader's argument half: same threshold, scored by promote check's code.
                criteria[METRIC] = {"threshold": grader.threshold, "calls": in_adk}
                custom[METRIC] = {"code_config": {"name": FUNCTION}, "description": (
                    "Argument rules of the case (exact, ignore, regex, one_of, tolerance), scored by "
                    "promote check's tool-args evaluator; needs promote installed beside google-adk.")}
            continue
        if grader.metric in RESPONSE:
            if not with_output:
                continue
            _warn_missing(cases, lambda unit: unit.case.expected_output, "expected_output",
                          f"{grader.metric} has no reference reply", output)
        if grader.metric in JUDGED:
            criterion["judge_model_options"] = {"judge_model": policy.judge_model,
                                                "num_samples": policy.judge_samples}
        criteria[grader.metric] = criterion
    return {"criteria": criteria, **({"custom_metrics": custom} if custom else {})}


def _warn_missing(cases: list[CompileUnit], has: Any, field: str, what: str, output: TargetOutput) -> None:
    for unit in cases:
        if has(unit) is None:
            warning = CompileWarning(NAME, unit.case.id, field, f"no {field}: {what} for this case")
            if warning not in output.warnings:
                output.warnings.append(warning)
