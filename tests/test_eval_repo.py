"""`EvalRepo`: root, cases folder, config and catalog found from the repo; neutral drafts without a config."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from promote.case.model import ScrubInfo
from promote.draft import DraftOptions, draft_case, gather_inputs
from promote.ingest.sources import file_sha256
from promote.errors import PromoteError
from promote.eval_repo import EvalRepo, RepoConfig
from promote.trace_model import ToolCall, Trace, Turn
from tests.conftest import HR_REPO

SCRUB = ScrubInfo(version="2.2.366", policy="default@sha256:" + "ab" * 32, replaced={"PERSON": 1})


def helm_trace() -> Trace:
    turn = Turn(
        index=0,
        started_at=datetime(2026, 11, 3, 9, 0, tzinfo=UTC),
        user_input="I'm <PERSON_1>. Roll the payments release back to the previous chart, please.",
        final_response="Rolled payments back to chart 4.1.0 (revision 12).",
        tool_calls=[ToolCall(name="helm_rollback", args={"release": "payments", "revision": 12},
                             result={"status": "deployed", "revision": 13})],
    )
    return Trace(trace_id="ab" * 16, service="platform-ops", agent="helm_release_agent", turns=[turn])


def test_without_a_config_a_draft_takes_neutral_defaults_never_hr(tmp_path: Path) -> None:
    export = tmp_path / "export.jsonl"
    export.write_text("{}\n")
    cases = tmp_path / "evals" / "cases"
    options = DraftOptions(by="sre", cases_dir=cases)
    result = draft_case(helm_trace(), 0, inputs=gather_inputs(options, export_sha256=file_sha256(export)),
                        scrub=SCRUB, options=options)
    case = result.case
    assert case.id == "helm.rollback_001" and case.metadata["pillar"] == "helm"
    assert [entity.handle for entity in case.entities] == ["unresolved.requesting_user"]
    assert [(rule.category, rule.scope) for rule in case.safety.must_not] == [("pii-leak", None)]
    assert "employee" not in str(case.model_dump()).lower()


def test_the_repo_config_sets_pillar_prefix_entity_scope_and_datasets(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "promote.yaml").write_text(
        "agents:\n  helm_release_agent:\n    pillar: platform\n    id_prefix: ops\n"
        "    entity: {handle: unresolved.on_call_engineer}\n    safety_scope: other teams' secrets\n"
        "    datasets: [helm-golden]\n"
    )
    export = tmp_path / "export.jsonl"
    export.write_text("{}\n")
    options = DraftOptions(by="sre", repo=tmp_path / "evals")
    case = draft_case(helm_trace(), 0, inputs=gather_inputs(options, export_sha256=file_sha256(export)),
                      scrub=SCRUB, options=options).case
    assert case.id == "ops.helm_rollback_001" and case.metadata["pillar"] == "platform"
    assert case.entities[0].handle == "unresolved.on_call_engineer" and case.datasets == ["helm-golden"]
    assert case.safety.must_not[0].scope == "other teams' secrets"


def test_the_fixtures_hr_repo_places_turns_by_its_pillar_words() -> None:
    config = EvalRepo.find(HR_REPO).config
    assert list(config.pillars) == ["wfm", "payroll", "benefits", "hr"]
    assert config.for_agent("hr_policy_advisor", None).entity.handle == "unresolved.requesting_employee"
    assert config.for_agent("unknown", "svc").safety_scope == "other-employee records"


def test_root_and_cases_folder_are_found_from_inside(tmp_path: Path) -> None:
    repo = tmp_path / "people-agents"
    (repo / ".git").mkdir(parents=True)
    (repo / "evals" / "golden" / "hr").mkdir(parents=True)
    (repo / "evals" / "golden" / "hr" / "hr.a_001.yaml").write_text("id: hr.a_001\n")
    (repo / "evals" / "promote.yaml").write_text("{}\n")
    found = EvalRepo.find(repo / "evals" / "golden" / "hr")
    assert found.root == repo.resolve()
    assert found.cases_dir == (repo / "evals" / "golden" / "hr").resolve()  # where the cases are
    assert found.next_id("hr.a") == "hr.a_002"
    bare = tmp_path / "elsewhere" / "evals" / "cases"
    bare.mkdir(parents=True)
    assert EvalRepo.find(bare).root == (tmp_path / "elsewhere").resolve()
    assert EvalRepo.find(bare).cases_dir == bare.resolve()
    assert EvalRepo.find(bare).config == RepoConfig()


def test_a_bad_config_names_the_file_and_the_key(tmp_path: Path) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "promote.yaml").write_text("agents:\n  a: {pilar: hr}\n")
    with pytest.raises(PromoteError, match=r"promote.yaml: promote config: agents.a.pilar"):
        _ = EvalRepo.find(tmp_path).config
