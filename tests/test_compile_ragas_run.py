"""The compiled RAGAS script runs with ragas' own metrics, offline: citation-id recall and precision
score 1.0 / 0.0 on right / wrong chunks, the text (string) metrics likewise, and a judged metric with no
judge to reach is inconclusive, with the reason, instead of crashing the run."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from promote.compile.run import compile_paths

from tests.conftest import GOLDEN_CASES

HERO = GOLDEN_CASES / "hr.policy_carryover_004.yaml"
SET = "hr_policy_carryover_golden"
GOLDEN_IDS = ["PTO-CA-2026 §4.2", "PTO-CA-2026 §4.3"]
GOLDEN_TEXTS = [
    "Unused PTO carries over up to a maximum of 40 hours. Hours above 40 are forfeited on December 31.",
    "Carryover hours must be used by March 31 of the following year.",
]
WRONG_TEXTS = ["Dental coverage for dependents ends at age 26 under the Texas plan."]


def _script(folder: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"eval_{folder.name}", folder / f"eval_{SET}_ragas.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(folder: Path, tmp_path: Path, run: dict, capsys) -> tuple[int, dict[str, dict]]:
    runs = tmp_path / "runs.jsonl"
    runs.write_text(json.dumps({"eval_id": "hr.policy_carryover_004", **run}) + "\n", encoding="utf-8")
    out = tmp_path / "results.json"
    code = _script(folder).main(["--responses", str(runs), "--out", str(out)])
    capsys.readouterr()
    return code, {result["metric"]: result for result in json.loads(out.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ragas")
    compile_paths([HERO], out, targets=["ragas"], pii_scan=False)
    return out / "ragas" / SET


@pytest.fixture
def no_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


@pytest.mark.parametrize(("retrieved", "score", "code"), [
    (GOLDEN_IDS, 1.0, 0),
    (["DENTAL-TX-2026 §3.2"], 0.0, 1),
])
def test_citation_ids_score_recall_and_precision_without_a_judge(
    compiled: Path, tmp_path: Path, capsys, no_judge, retrieved: list[str], score: float, code: int,
) -> None:
    run = {"response": "Up to 40 hours carry over.", "retrieved_contexts": GOLDEN_TEXTS,
           "retrieved_context_ids": retrieved}
    exit_code, results = _run(compiled, tmp_path, run, capsys)
    assert exit_code == code
    assert (results["context_recall"]["score"], results["context_precision"]["score"]) == (score, score)
    judged = results["faithfulness"]
    assert judged["verdict"] == "inconclusive"
    assert judged["detail"].startswith("no judge: OPENAI_API_KEY is not set")


def test_an_unreachable_judge_is_inconclusive_with_the_reason(
    compiled: Path, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens on the discard port
    run = {"response": "Up to 40 hours carry over.", "retrieved_contexts": GOLDEN_TEXTS,
           "retrieved_context_ids": GOLDEN_IDS}
    exit_code, results = _run(compiled, tmp_path, run, capsys)
    assert exit_code == 0
    assert results["faithfulness"]["verdict"] == "inconclusive"
    assert "the judge was not reached (APIConnectionError" in results["faithfulness"]["detail"]
    assert results["context_recall"]["verdict"] == "pass"


def test_a_run_without_retrieved_ids_is_inconclusive_not_zero(
    compiled: Path, tmp_path: Path, capsys, no_judge,
) -> None:
    exit_code, results = _run(compiled, tmp_path, {"response": "40 hours."}, capsys)
    assert exit_code == 0
    assert results["context_recall"] == {
        "eval_id": "hr.policy_carryover_004", "grader": "context_recall", "metric": "context_recall",
        "verdict": "inconclusive", "detail": "no retrieved_context_ids"}


def test_the_text_metrics_score_right_and_wrong_chunks(tmp_path: Path, capsys, no_judge) -> None:
    policy = tmp_path / "policy.yaml"
    shipped = Path("promote/compile/policy.default.yaml").read_text(encoding="utf-8")
    policy.write_text(shipped.replace("metric: context_precision,", "metric: context_precision_text,")
                      .replace("metric: context_recall,", "metric: context_recall_text,")
                      .replace("    groundedness: {metric: faithfulness, threshold: 0.8, method: claim "
                               "decomposition}\n", ""), encoding="utf-8")
    compile_paths([HERO], tmp_path / "out", targets=["ragas"], policy_path=policy, pii_scan=False)
    folder = tmp_path / "out" / "ragas" / SET
    config = json.loads((folder / "ragas_config.json").read_text(encoding="utf-8"))
    assert config["judge_model"] is None  # no judged metric asked for: no judge named
    right = _run(folder, tmp_path, {"retrieved_contexts": GOLDEN_TEXTS}, capsys)[1]
    wrong = _run(folder, tmp_path, {"retrieved_contexts": WRONG_TEXTS}, capsys)[1]
    scores = [(found["context_recall_text"]["score"], found["context_precision_text"]["score"])
              for found in (right, wrong)]
    assert scores == [(1.0, pytest.approx(1.0)), (0.0, 0.0)]  # precision is averaged: 1 - 1e-10
