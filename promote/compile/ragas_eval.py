"""RAGAS (retrieval graders): a dataset, its metric config and a small runnable script per dataset.

`ragas/<set>/dataset.jsonl` holds one row per case in RAGAS' sample fields (`user_input`, `reference`,
`reference_contexts`, `reference_context_ids` = the golden chunks and their citations); it loads with
`EvaluationDataset.from_jsonl`. What only a run of the agent gives (`response`, `retrieved_contexts`,
`retrieved_context_ids`) is joined in by `eval_<set>_ragas.py` from a runs file, which scores each
metric the suite policy names against its threshold. `ragas_config.json` lists the cases in row order,
the metrics (ragas class, the sample fields it reads, whether it needs a judge), thresholds and the
judge model.

The seed defines context recall as "the golden citations appear in the retrieved set": the policy's
`context_recall` and `context_precision` are RAGAS' id-based metrics on citation ids, no judge. A
judged metric (faithfulness, the LLM context metrics) runs only where the policy names it, and is
reported inconclusive, with the reason, when no judge can be reached.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

from promote.compile.artifacts import (
    Artifact, CompileUnit, CompileWarning, TargetOutput, dataset_groups, json_text, slug,
)
from promote.compile.policy import SuitePolicy

NAME = "ragas"


@dataclass(frozen=True)
class RagasMetric:
    """One metric a retrieval grader may name: its class in `ragas.metrics`, the fields it reads."""

    ragas_class: str
    fields: tuple[str, ...]
    judged: bool = False


METRIC_CLASSES = {
    "context_recall": RagasMetric("IDBasedContextRecall", ("retrieved_context_ids", "reference_context_ids")),
    "context_precision": RagasMetric("IDBasedContextPrecision",
                                     ("retrieved_context_ids", "reference_context_ids")),
    "context_recall_text": RagasMetric("NonLLMContextRecall", ("retrieved_contexts", "reference_contexts")),
    "context_precision_text": RagasMetric("NonLLMContextPrecisionWithReference",
                                          ("retrieved_contexts", "reference_contexts")),
    "faithfulness": RagasMetric("Faithfulness", ("user_input", "response", "retrieved_contexts"), True),
    "llm_context_recall": RagasMetric("LLMContextRecall", ("user_input", "reference", "retrieved_contexts"),
                                      True),
    "llm_context_precision": RagasMetric("LLMContextPrecisionWithReference",
                                         ("user_input", "reference", "retrieved_contexts"), True),
}
"""Policy metric → its RAGAS metric. `context_recall`/`context_precision` compare citation ids (the seed's
definition); the `_text` ones compare chunk texts by string similarity (rapidfuzz); the others need a
judge."""
METRICS = frozenset(METRIC_CLASSES)
SCRIPT_TEMPLATE = "eval_ragas.py.txt"


def compile_ragas(units: list[CompileUnit], policy: SuitePolicy) -> TargetOutput:
    """Dataset, config and script of every dataset whose cases route retrieval to RAGAS."""
    output = TargetOutput()
    metrics = [
        {"grader": name, "metric": grader.metric, "class": METRIC_CLASSES[grader.metric].ragas_class,
         "fields": list(METRIC_CLASSES[grader.metric].fields), "judged": METRIC_CLASSES[grader.metric].judged,
         "threshold": grader.threshold}
        for _pack, name, grader in policy.graders_for(NAME)
    ]
    judged = any(metric["judged"] for metric in metrics)
    script = resources.files("promote.compile").joinpath("templates", SCRIPT_TEMPLATE).read_text("utf-8")
    for dataset, members in dataset_groups(units).items():
        set_name = slug(dataset)
        folder = f"ragas/{set_name}"
        ids = tuple(unit.case.id for unit in members)
        rows = "".join(json_text(_sample(unit), indent=None) for unit in members)
        for unit in members:
            if unit.case.expected_output is None and any("reference" in m["fields"] for m in metrics):
                warning = CompileWarning(NAME, unit.case.id, "expected_output", (
                    "no expected_output: RAGAS has no reference, so metrics that need one are inconclusive"))
                if warning not in output.warnings:
                    output.warnings.append(warning)
        config = {
            "dataset": dataset,
            "pack": policy.pack_of(NAME),
            "judge_model": (policy.ragas.judge_model or policy.judge_model) if judged else None,
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
