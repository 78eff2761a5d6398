"""What `promote pr` writes and shows: no personal value anywhere, Markdown that renders, remote URLs."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime

import pytest

from promote.case.model import Case
from promote.case.yaml_io import load_tree
from promote.draft import DraftOptions, draft_from_export, write_draft
from promote.repo.forge import parse_remote, safe_remote
from promote.repo.pr import PrOptions, open_pull_request
from promote.repo.pr_body import CaseForReview, pr_body
from tests.pr_helpers import DRAFTS, ROOT, make_eval_repo

TRACES = ROOT / "fixtures" / "traces"
EXPECTED = json.loads((TRACES / "expected.json").read_text(encoding="utf-8"))
PLANTED = [item["value"] for item in EXPECTED["planted_pii"]]


@pytest.mark.parametrize("scenario", ["benefits", "payroll_session"])
def test_a_case_drafted_from_a_trace_with_planted_values_leaks_none_of_them(tmp_path, monkeypatch, scenario):
    from scrubbers import ScrubEngine, load_policy

    trace_id = next(s["trace_id"] for s in EXPECTED["runs"]["adk2"]["scenarios"] if s["scenario"] == scenario)
    drafted = draft_from_export(TRACES / "adk2.otlp.jsonl", trace_id=trace_id, options=DraftOptions(
        by="hermione.g", now=datetime(2026, 7, 2, 14, 3, 11, tzinfo=UTC)),
        engine=_engine(ScrubEngine, load_policy))
    case_file = tmp_path / "drafts" / f"{drafted.case.id}.yaml"
    case_file.parent.mkdir()
    write_draft(drafted, case_file, force=False)
    repo = make_eval_repo(tmp_path, monkeypatch)

    result = open_pull_request([case_file], repo.root, PrOptions(open=True))

    assert result.pr_number == 42 and result.files == [f"evals/cases/{drafted.case.id}.yaml"]
    assert drafted.case.provenance.scrubbed.replaced  # the trace did hold personal values
    # Both commits promote made (the repo's own seed case holds a sandbox id that is also planted).
    everything = subprocess.run(
        ["git", "-C", str(repo.origin), "log", "-p", "--format=%B", f"main..{result.branch}"],
        capture_output=True, text=True, check=True).stdout
    assert everything.count("Trace-Id: ") == 1 and f"Record PR #42 in {drafted.case.id}" in everything
    for text in (everything, result.body, repo.gh_body(), result.title, result.commit_message):
        leaked = [value for value in PLANTED if value in text]
        assert not leaked, f"{len(leaked)} planted value(s) in what promote pr wrote"  # never print them
    for kind, count in drafted.case.provenance.scrubbed.replaced.items():
        assert f"| {kind} | {count} |" in result.body


_ENGINE: list = []


def _engine(engine_class, load_policy):
    if not _ENGINE:
        _ENGINE.append(engine_class(load_policy()))
    return _ENGINE[0]


def test_body_escapes_placeholders_and_lists_what_the_sme_must_confirm() -> None:
    case = Case.model_validate(load_tree(DRAFTS / "hr.policy_carryover_001.yaml"))
    notes = ["figure at_risk has no oracle of record yet"]
    body = pr_body([CaseForReview(case, "evals/cases/x.yaml", None, notes)])
    # GitHub would drop a bare <PERSON_1> as an unknown HTML tag.
    assert "> Hi, I'm &lt;PERSON_1&gt; (&lt;EMAIL_ADDRESS_1&gt;" in body
    assert "`get_employee_context` with `employee_id` = `<EMPLOYEE_ID_1>`" in body  # code spans keep it
    row = "| pto_balance | 62.5 | h | 0 | **unassigned** | get_employee_context $.pto_balance_hours |"
    assert row in body
    assert "- [ ] `PTO-CA-2026 §4.2` must be cited" in body
    assert "- [ ] figure at_risk has no oracle of record yet" in body
    assert "| PERSON | 4 |" in body and "2.2.366" in body
    assert "- budgets: max_tool_calls 3, max_model_calls 5" in body


GITHUB_COMPARE = "https://github.com/acme/people-evals/compare/main...promote/a.b_001?expand=1"
GITLAB_QUERY = "merge_request%5Bsource_branch%5D=promote%2Fa.b_001&merge_request%5Btarget_branch%5D=main"


@pytest.mark.parametrize(("url", "compare"), [
    ("https://github.com/acme/people-evals.git", GITHUB_COMPARE),
    ("https://x-access-token:ghp_secret@github.com/acme/people-evals", GITHUB_COMPARE),
    ("git@github.com:acme/people-evals.git", GITHUB_COMPARE),
    ("ssh://git@github.com/acme/people-evals.git", GITHUB_COMPARE),
    ("https://gitlab.com/acme/hr/people-evals.git",
     f"https://gitlab.com/acme/hr/people-evals/-/merge_requests/new?{GITLAB_QUERY}"),
    ("ssh://git@gitlab.example.com:2222/acme/people-evals.git",
     f"https://gitlab.example.com/acme/people-evals/-/merge_requests/new?{GITLAB_QUERY}"),
    ("git@gitlab.com:acme/people-evals.git",
     f"https://gitlab.com/acme/people-evals/-/merge_requests/new?{GITLAB_QUERY}"),
])
def test_compare_urls_for_github_and_gitlab_remotes(url: str, compare: str) -> None:
    forge = parse_remote(url)
    assert forge is not None and forge.compare_url("main", "promote/a.b_001") == compare
    assert "secret" not in compare


@pytest.mark.parametrize("url", ["/srv/git/evals.git", "../origin.git", "file:///srv/git/evals.git",
                                 "https://bitbucket.org/acme/evals.git", None])
def test_other_remotes_have_no_compare_url(url) -> None:
    assert parse_remote(url) is None


def test_credentials_in_a_remote_url_are_never_shown() -> None:
    shown = safe_remote("https://bot:ghp_secret@github.com/acme/evals.git")
    assert shown == "https://github.com/acme/evals.git"
