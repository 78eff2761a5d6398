"""What `promote compile` writes loads and runs in the backends' own models (google-adk, ragas).

google-adk and ragas are dev extras (`make test` installs them): these tests never skip.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from google.adk.evaluation.eval_case import Invocation
from google.adk.evaluation.eval_config import EvalConfig, get_eval_metrics_from_config
from google.adk.evaluation.eval_metrics import ToolTrajectoryCriterion
from google.adk.evaluation.eval_set import EvalSet
from google.adk.evaluation.trajectory_evaluator import TrajectoryEvaluator
from ragas import EvaluationDataset
import ragas.metrics as ragas_metrics

from promote.case.store import load_case
from promote.compile.adk_eval import compile_adk
from promote.compile.adk_tool_args import METRIC
from promote.compile.artifacts import CompileUnit, resolve_entities
from promote.compile.policy import load_suite_policy
from promote.compile.targets import backend_metrics
from promote.compile.run import compile_paths

from tests.conftest import GOLDEN_CASES

HERO = GOLDEN_CASES / "hr.policy_carryover_004.yaml"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("compiled")
    compile_paths([GOLDEN_CASES], out)
    return out


def _trajectory_evaluator(config: EvalConfig) -> TrajectoryEvaluator:
    metrics = get_eval_metrics_from_config(config)
    metric = next(m for m in metrics if m.metric_name == "tool_trajectory_avg_score")
    return TrajectoryEvaluator(eval_metric=metric)


def test_every_eval_set_and_config_loads_with_google_adk(compiled: Path) -> None:
    eval_sets = sorted((compiled / "adk").glob("*/*.evalset.json"))
    assert [path.parent.name for path in eval_sets] == [
        "benefits_plan_golden", "hr_policy_carryover_golden", "wfm_accruals_golden"]
    for path in eval_sets:
        eval_set = EvalSet.model_validate_json(path.read_text(encoding="utf-8"))
        assert eval_set.eval_set_id == path.parent.name
        config = EvalConfig.model_validate_json((path.parent / "test_config.json").read_text("utf-8"))
        names = [metric.metric_name for metric in get_eval_metrics_from_config(config)]
        assert {"tool_trajectory_avg_score", "response_match_score", "final_response_match_v2"} <= set(names)
        assert _trajectory_evaluator(config)._match_type == ToolTrajectoryCriterion.MatchType.IN_ORDER
        judged = config.criteria["final_response_match_v2"]
        assert judged.threshold == 0.8
        assert judged.model_dump()["judge_model_options"]["judge_model"] == "gemini-2.5-flash"


def test_the_hero_eval_case_carries_what_the_seed_shows(compiled: Path) -> None:
    path = compiled / "adk" / "hr_policy_carryover_golden" / "hr_policy_carryover_golden.evalset.json"
    case = EvalSet.model_validate_json(path.read_text(encoding="utf-8")).eval_cases[0]
    assert case.eval_id == "hr.policy_carryover_004"
    turn = case.conversation[0]
    assert turn.user_content.parts[0].text.startswith("If I do not use all my PTO this year")
    assert turn.final_response.parts[0].text.startswith("Up to 40 hours of unused PTO")
    uses = [(call.name, call.args) for call in turn.intermediate_data.tool_uses]
    assert uses == [("get_employee_context", {}),
                    ("search_hr_policy", {"topic": "pto_carryover", "jurisdiction": "CA"})]
    assert (case.session_input.app_name, case.session_input.user_id) == ("hr_policy_advisor", "E-44213")
    assert case.session_input.state == {"as_of": "2026-06-29"}


def test_adk_compares_names_in_order_and_leaves_arguments_to_the_custom_metric(compiled: Path) -> None:
    folder = compiled / "adk" / "hr_policy_carryover_golden"
    expected = EvalSet.model_validate_json(next(folder.glob("*.evalset.json")).read_text()).eval_cases[0]
    config = EvalConfig.model_validate_json((folder / "test_config.json").read_text())
    evaluator = _trajectory_evaluator(config)
    golden = expected.conversation[0]
    extra_call = golden.model_dump()
    extra_call["intermediate_data"]["tool_uses"].insert(1, {"name": "get_pto_balance", "args": {}})
    wrong_arg = golden.model_dump()
    wrong_arg["intermediate_data"]["tool_uses"][1]["args"]["jurisdiction"] = "NY"
    swapped = golden.model_dump()
    swapped["intermediate_data"]["tool_uses"].reverse()
    scores = [evaluator.evaluate_invocations([Invocation.model_validate(actual)], [golden]).overall_score
              for actual in (extra_call, wrong_arg, swapped)]
    assert scores == [1.0, 1.0, 0.0]  # IN_ORDER allows calls in between; args are the custom metric's
    custom = config.custom_metrics[METRIC]
    assert custom.code_config.name == "promote.compile.adk_tool_args.tool_args"
    assert config.criteria[METRIC].model_extra["calls"] == {"hr.policy_carryover_004": [
        {"name": "get_employee_context"},
        {"name": "search_hr_policy", "args": {"topic": "pto_carryover", "jurisdiction": "CA"},
         "match": {"topic": "exact", "jurisdiction": "exact"}}]}


def _compile_hero(tmp_path: Path, old: str, new: str, policy: Path | None = None):
    """The ADK compiler's own output (artifacts, warnings, routing notes) for an edited hero case."""
    case = tmp_path / HERO.name
    case.write_text(HERO.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    loaded = load_case(case).case
    output = compile_adk([CompileUnit(loaded, case, resolve_entities(loaded, []))],
                         load_suite_policy(policy, backend_metrics()).policy)
    text = next(artifact.text for artifact in output.artifacts if artifact.path.endswith("test_config.json"))
    return output, EvalConfig.model_validate_json(text)


def test_argument_rules_route_to_the_custom_metric_and_the_log_says_so(tmp_path: Path) -> None:
    report, config = _compile_hero(tmp_path, "match: {topic: exact, jurisdiction: exact}",
                                   "match: {topic: 'regex:pto_.*', jurisdiction: [CA, NV]}")
    assert [str(w) for w in report.warnings] == []
    assert [str(note) for note in report.notes] == [
        "hr.policy_carryover_004: expected_tools: tool names and order: ADK trajectory (ignore_args); "
        "argument rules: ADK custom metric promote_tool_args (the code of promote check's tool-args)"]
    rules = config.criteria[METRIC].model_extra["calls"]["hr.policy_carryover_004"]
    assert rules[1]["match"] == {"topic": "regex:pto_.*", "jurisdiction": ["CA", "NV"]}


def test_a_placeholder_or_the_policy_routes_argument_rules_to_promote_check(tmp_path: Path) -> None:
    report, config = _compile_hero(tmp_path, "jurisdiction: CA}", "jurisdiction: CA, manager: <PERSON_1>}")
    assert METRIC not in config.criteria and not config.custom_metrics
    assert config.criteria["tool_trajectory_avg_score"].model_dump()["ignore_args"] is True
    assert [w.field for w in report.warnings] == ["expected_tools"]
    assert "quote a scrub placeholder" in str(report.warnings[0])
    assert str(report.notes[0]).endswith("argument rules: promote check (deterministic engine): tool-args")
    policy = tmp_path / "policy.yaml"
    policy.write_text(Path("promote/compile/policy.default.yaml").read_text(encoding="utf-8").replace(
        "  tool_args: adk ", "  tool_args: checks "), encoding="utf-8")
    report, config = _compile_hero(tmp_path, "", "", policy)
    assert METRIC not in config.criteria and report.warnings == []
    assert str(report.notes[0]).endswith("argument rules: promote check (deterministic engine): tool-args")


def test_the_ragas_dataset_loads_into_an_evaluation_dataset(compiled: Path) -> None:
    for folder in sorted((compiled / "ragas").iterdir()):
        dataset = EvaluationDataset.from_jsonl(folder / "dataset.jsonl")
        config = json.loads((folder / "ragas_config.json").read_text(encoding="utf-8"))
        assert len(dataset) == len(config["cases"]) == 1
        sample = dataset.samples[0]
        assert sample.user_input and sample.reference and sample.reference_contexts
        assert len(sample.reference_contexts) == len(sample.reference_context_ids)
        metrics = [(m["metric"], m["class"], m["judged"]) for m in config["metrics"]]
        assert metrics == [("faithfulness", "Faithfulness", True),
                           ("context_precision", "IDBasedContextPrecision", False),
                           ("context_recall", "IDBasedContextRecall", False)]
        for metric in config["metrics"]:  # the fields the script gives each metric are the ones it reads
            required = getattr(ragas_metrics, metric["class"])().required_columns["SINGLE_TURN"]
            assert set(metric["fields"]) == required, metric


def test_a_dataset_mixing_orders_is_split_per_match_type(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / HERO.name).write_text(
        HERO.read_text(encoding="utf-8").replace('as_of: "2026-06-29"', "as_of: 2026-06-29"), "utf-8")
    wfm = (GOLDEN_CASES / "wfm.accrual_balance_007.yaml").read_text(encoding="utf-8")
    wfm = wfm.replace("order: in_order", "order: any_order").replace(
        "datasets: [wfm-accruals-golden]", "datasets: [hr-policy-carryover-golden]")
    (cases / "wfm.accrual_balance_007.yaml").write_text(wfm, encoding="utf-8")
    report = compile_paths([cases], tmp_path / "out", targets=["adk"])
    folders = sorted(path.name for path in (tmp_path / "out" / "adk").iterdir())
    assert folders == ["hr_policy_carryover_golden_any_order", "hr_policy_carryover_golden_in_order"]
    for folder, match_type, case_id in (
        (folders[0], ToolTrajectoryCriterion.MatchType.ANY_ORDER, "wfm.accrual_balance_007"),
        (folders[1], ToolTrajectoryCriterion.MatchType.IN_ORDER, "hr.policy_carryover_004"),
    ):
        path = tmp_path / "out" / "adk" / folder
        config = EvalConfig.model_validate_json((path / "test_config.json").read_text("utf-8"))
        assert _trajectory_evaluator(config)._match_type == match_type
        eval_set = EvalSet.model_validate_json((path / f"{folder}.evalset.json").read_text("utf-8"))
        assert [case.eval_id for case in eval_set.eval_cases] == [case_id]
    hero = EvalSet.model_validate_json(
        (tmp_path / "out" / "adk" / folders[1] / f"{folders[1]}.evalset.json").read_text("utf-8"))
    assert hero.eval_cases[0].session_input.state == {"as_of": "2026-06-29"}  # a YAML date, as JSON text
    assert sorted(w.case_id for w in report.warnings if w.field == "expected_tools.order") == [
        "hr.policy_carryover_004", "wfm.accrual_balance_007"]


def test_a_case_expecting_no_call_is_noted_as_an_exact_empty_trajectory(tmp_path: Path) -> None:
    calls = ("  calls:\n    - name: get_employee_context\n    - name: search_hr_policy\n"
             "      args: {topic: pto_carryover, jurisdiction: CA}\n"
             "      match: {topic: exact, jurisdiction: exact}")
    output, config = _compile_hero(tmp_path, calls, "  calls: []")
    criterion = config.criteria["tool_trajectory_avg_score"].model_dump()
    assert (criterion["match_type"], criterion["ignore_args"]) == ("EXACT", True)
    assert [str(note) for note in output.notes] == [
        "hr.policy_carryover_004: expected_tools: no tool call expected: ADK trajectory EXACT over an "
        "empty list (any call fails)"]
