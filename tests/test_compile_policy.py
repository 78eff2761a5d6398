"""The suite policy: the shipped default, its exported schema, and the routing errors named by line."""

from __future__ import annotations

from pathlib import Path

import pytest

from promote.compile.policy import (
    DEFAULT_POLICY, SCHEMA_PATH, find_policy, load_suite_policy, policy_json_schema_text,
)
from promote.compile.targets import backend_metrics
from promote.errors import PromoteError


def _policy(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "evals" / "policy.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _default_with(old: str, new: str) -> str:
    text = DEFAULT_POLICY.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new)


def _line_of(text: str, needle: str, occurrence: int = 1) -> int:
    lines = [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]
    return lines[occurrence - 1]


def test_committed_policy_schema_matches_the_model() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == policy_json_schema_text(), (
        "schema/suite-policy.schema.json drifted from promote/compile/policy.py: "
        "run `python -m promote.compile.policy` and commit the result"
    )


def test_shipped_default_routes_each_kind_to_one_backend_with_the_seed_packs() -> None:
    policy = load_suite_policy(None, backend_metrics()).policy
    routes = {kind: (route.backend, route.pack) for kind, route in policy.routing.items()}
    assert routes == {
        "functional": ("adk", "functional@v3"), "retrieval": ("ragas", "retrieval@v2"),
        "numeric": ("numeric", "numeric@v1"), "safety": ("safety", "safety@v2"),
    }
    assert [name for _p, name, _g in policy.graders_for("adk")] == [
        "tool_trajectory", "response_semantic", "response_lexical"]
    assert policy.judge_model == "gemini-2.5-flash"


def test_a_grader_routed_twice_is_refused_with_its_line(tmp_path: Path) -> None:
    text = _default_with(
        "    context_recall: {metric: context_recall, threshold: 0.8, method: chunk coverage}\n",
        "    context_recall: {metric: context_recall, threshold: 0.8, method: chunk coverage}\n"
        "    response_semantic: {metric: context_precision, threshold: 0.5}\n",
    )
    path = _policy(tmp_path, text)
    with pytest.raises(PromoteError) as raised:
        load_suite_policy(path, backend_metrics())
    message = str(raised.value)
    line = _line_of(text, "response_semantic:", occurrence=2)
    assert message.startswith(f"{path}:{line}:"), message
    assert "grader response_semantic is routed twice" in message
    assert "functional@v3" in message and "retrieval@v2" in message


def test_a_kind_with_no_backend_is_refused_naming_the_routing_line(tmp_path: Path) -> None:
    text = _default_with("  numeric: {backend: numeric, pack: numeric@v1}\n", "")
    path = _policy(tmp_path, text)
    with pytest.raises(PromoteError) as raised:
        load_suite_policy(path, backend_metrics())
    assert str(raised.value).startswith(f"{path}:{_line_of(text, 'routing:')}:")
    assert "kind numeric has no backend" in str(raised.value)


def test_two_graders_on_one_backend_metric_and_an_unknown_metric_are_refused(tmp_path: Path) -> None:
    twice = _policy(tmp_path, _default_with("response_lexical: {metric: response_match_score",
                                            "response_lexical: {metric: final_response_match_v2"))
    with pytest.raises(PromoteError, match="already scored by response_semantic"):
        load_suite_policy(twice, backend_metrics())
    text = _default_with("groundedness: {metric: faithfulness", "groundedness: {metric: rouge_l")
    unknown = _policy(tmp_path, text)
    with pytest.raises(PromoteError) as raised:
        load_suite_policy(unknown, backend_metrics())
    assert str(raised.value).startswith(f"{unknown}:{_line_of(text, 'groundedness:')}:")
    assert "backend ragas has no metric rouge_l" in str(raised.value)


def test_schema_errors_and_duplicate_keys_name_their_line(tmp_path: Path) -> None:
    text = _default_with("threshold: 0.7, method: ROUGE-1", "threshold: 7, method: ROUGE-1")
    path = _policy(tmp_path, text)
    with pytest.raises(PromoteError) as raised:
        load_suite_policy(path, backend_metrics())
    assert str(raised.value).startswith(f"{path}:{_line_of(text, 'response_lexical:')}:")
    duplicated = _policy(tmp_path, _default_with("judge_samples: 5", "judge_samples: 5\njudge_model: x"))
    with pytest.raises(PromoteError, match='duplicate key "judge_model"'):
        load_suite_policy(duplicated, backend_metrics())


def test_the_repo_policy_is_found_from_a_case_folder(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    path = _policy(tmp_path, DEFAULT_POLICY.read_text(encoding="utf-8"))
    (tmp_path / "evals" / "cases").mkdir()
    assert find_policy(tmp_path / "evals" / "cases") == path
    other = tmp_path / "other-repo"
    (other / ".git").mkdir(parents=True)
    assert find_policy(other) is None  # the search stops at the repo root: the shipped default applies
