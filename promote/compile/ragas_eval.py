"""RAGAS (retrieval graders): a dataset, its metric config and a small runnable script per dataset.

`ragas/<set>/dataset.jsonl` holds one row per case in RAGAS' current sample fields (`user_input`,
`reference`, `reference_contexts`, `reference_context_ids` = the golden chunks and their citations); it
loads with `EvaluationDataset.from_jsonl`. What only a run of the agent gives (`response`,
`retrieved_contexts`) is joined in by `eval_<set>_ragas.py` from a responses file, which then scores
faithfulness, context precision and context recall (`ragas.metrics.collections`) against the policy's
thresholds. `ragas_config.json` lists the cases in row order, the metrics, thresholds and judge model.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from promote.compile.artifacts import (
    Artifact, CompileUnit, CompileWarning, TargetOutput, dataset_groups, json_text, slug,
)
from promote.compile.policy import SuitePolicy

NAME = "ragas"
METRIC_CLASSES = {
    "faithfulness": "Faithfulness",
    "context_precision": "ContextPrecision",
    "context_recall": "ContextRecall",
}
"""Policy metric → its class in `ragas.metrics.collections` (the sample fields each reads are in the
script)."""
METRICS = frozenset(METRIC_CLASSES)
SCRIPT_TEMPLATE = "eval_ragas.py.txt"


def compile_ragas(units: list[CompileUnit], policy: SuitePolicy) -> TargetOutput:
    """Dataset, config and script of every dataset whose cases route retrieval to RAGAS."""
    output = TargetOutput()
    metrics = [
        {"grader": name, "metric": grader.metric, "class": METRIC_CLASSES[grader.metric],
         "threshold": grader.threshold}
        for _pack, name, grader in policy.graders_for(NAME)
    ]
    script = resources.files("promote.compile").joinpath("templates", SCRIPT_TEMPLATE).read_text("utf-8")
    for dataset, members in dataset_groups(units).items():
        set_name = slug(dataset)
        folder = f"ragas/{set_name}"
        ids = tuple(unit.case.id for unit in members)
        rows = "".join(json_text(_sample(unit), indent=None) for unit in members)
        for unit in members:
            if unit.case.expected_output is None:
                warning = CompileWarning(NAME, unit.case.id, "expected_output", (
                    "no expected_output: RAGAS has no reference, so metrics that need one are inconclusive"))
                if warning not in output.warnings:
                    output.warnings.append(warning)
        config = {
            "dataset": dataset,
            "pack": policy.pack_of(NAME),
            "judge_model": policy.ragas.judge_model or policy.judge_model,
            "cases": list(ids),
            "metrics": metrics,
        }
        output.artifacts += [
            Artifact(NAME, f"{folder}/dataset.jsonl", rows, ids),
            Artifact(NAME, f"{folder}/ragas_config.json", json_text(config), ids),
            Artifact(NAME, f"{folder}/eval_{set_name}_ragas.py", script.replace("{{SET}}", set_name), ids),
        ]
    return output


def _sample(unit: CompileUnit) -> dict[str, Any]:
    case = unit.case
    sample: dict[str, Any] = {"user_input": case.input}
    if case.expected_output is not None:
        sample["reference"] = case.expected_output
    sample["reference_contexts"] = [chunk.text for chunk in case.retrieval_context]
    sample["reference_context_ids"] = [chunk.citation for chunk in case.retrieval_context]
    return sample
