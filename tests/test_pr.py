"""`promote pr` against real git: a temporary eval repo with a bare origin and a stub `gh` on PATH."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from promote.case.model import Case
from promote.case.yaml_io import load_tree
from promote.errors import PromoteError
from promote.repo.pr import PrOptions, open_pull_request
from promote.repo.pr_gates import CasesRefused
from promote.repo.workspace import LOCK_NAME
from tests.pr_helpers import DRAFTS, GOLDEN, GITHUB_URL, PR_URL, ROOT, bump_revision, git, make_eval_repo

DRAFT = DRAFTS / "hr.policy_carryover_001.yaml"
BRANCH = "promote/hr.policy_carryover_001"
TARGET = "evals/cases/hr.policy_carryover_001.yaml"
OPEN = PrOptions(open=True)
# the policy the committed draft was scrubbed with (it changes whenever the policy does)
POLICY_SHA = re.search(r"policy: \w+@sha256:([0-9a-f]{64})", DRAFT.read_text()).group(1)


def trailers(repo_dir: Path, commit: str) -> list[str]:
    return git(repo_dir, "log", "-1", "--format=%(trailers:only,unfold)", commit).splitlines()


def assert_nothing_left(repo, before: tuple[str, ...]) -> None:
    assert repo.state() == before
    assert repo.branches() == ["main"]
    assert repo.origin_branches() == ["main"]
    assert repo.worktrees() == [str(repo.root)]
    assert not (repo.root / ".git" / LOCK_NAME).exists()


def test_happy_path_pushes_one_commit_opens_the_pr_and_records_its_number(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    before = repo.state()
    result = open_pull_request([DRAFT], repo.root, OPEN)

    assert result.pushed and result.pr_url == PR_URL and result.pr_number == 42 and not result.notes
    assert repo.state() == before and repo.worktrees() == [str(repo.root)]
    assert repo.origin_branches() == ["main", BRANCH]
    # First commit: exactly the case file, byte for byte, with the trailers.
    assert git(repo.origin, "diff-tree", "--no-commit-id", "--name-only", "-r", result.commit) == TARGET
    assert git(repo.origin, "rev-parse", f"{result.commit}^") == git(repo.root, "rev-parse", "main")
    committed = subprocess.run(["git", "-C", str(repo.origin), "show", f"{result.commit}:{TARGET}"],
                               capture_output=True, check=True).stdout
    assert committed == DRAFT.read_bytes()
    assert trailers(repo.origin, result.commit) == [
        "Promoted-by: hermione.g",
        "Trace-Id: 6ba1f49a4e0b98a257a16cb62edefd94",
        f"Scrubbed-by: presidio 2.2.366 policy {POLICY_SHA}",
    ]
    # gh was asked as documented, with the body we built.
    create = next(call for call in repo.gh_calls() if call[:2] == ["pr", "create"])
    assert create[create.index("--base") + 1] == "main" and create[create.index("--head") + 1] == BRANCH
    assert create[create.index("--title") + 1] == result.title and "--draft" not in create
    assert repo.gh_body() == result.body
    # Second commit, pushed: the review state, through the case writer (only those lines change).
    tip = git(repo.origin, "rev-parse", BRANCH)
    assert tip == result.review_commit and git(repo.origin, "rev-parse", f"{tip}^") == result.commit
    reviewed = git(repo.origin, "show", f"{tip}:{TARGET}")
    case = Case.model_validate(load_tree(Path("x.yaml"), reviewed + "\n"))
    assert case.provenance.review.pr == 42 and case.provenance.review.state == "open"
    diff = git(repo.origin, "diff", "--unified=0", result.commit, tip)
    changed = [line for line in diff.splitlines()
               if line.startswith(("+", "-")) and line[:3] not in {"+++", "---"}]
    assert changed == ["-  review: {state: draft}", "+  review: {pr: 42, state: open}"]


def test_draft_flag_reaches_gh(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    open_pull_request([DRAFT], repo.root, PrOptions(open=True, draft=True))
    assert "--draft" in next(call for call in repo.gh_calls() if call[:2] == ["pr", "create"])


@pytest.mark.parametrize("gh", [None, "logged-out"])
def test_without_a_usable_gh_the_compare_url_title_and_body_are_given(tmp_path, monkeypatch, gh) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch, gh=gh)
    result = open_pull_request([DRAFT], repo.root, OPEN)
    assert result.pushed and result.pr_url is None and result.review_commit is None
    assert result.compare_url == f"https://github.com/acme/people-evals/compare/main...{BRANCH}?expand=1"
    why = "not installed" if gh is None else "not logged in"
    assert len(result.notes) == 1 and why in result.notes[0] and result.compare_url in result.notes[0]
    assert not any(call[:2] == ["pr", "create"] for call in repo.gh_calls())
    assert git(repo.origin, "rev-parse", BRANCH) == result.commit  # the one commit, no review commit


def test_without_push_the_branch_is_committed_locally_only(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    result = open_pull_request([DRAFT], repo.root, PrOptions())
    assert not result.pushed and repo.origin_branches() == ["main"]
    assert git(repo.root, "rev-parse", BRANCH) == result.commit and repo.gh_calls() == []


def test_gate_failure_commits_and_pushes_nothing(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    (repo.root / "notes.txt").write_text("user's own work\n")
    before = repo.state()
    with pytest.raises(CasesRefused) as refused:
        open_pull_request([ROOT / "fixtures/cases/invalid/wfm.residual_pii_001.yaml", DRAFT], repo.root, OPEN)
    assert any("[residual-pii]" in problem for problem in refused.value.problems)
    assert "nothing committed" in str(refused.value) and refused.value.exit_code == 1
    assert_nothing_left(repo, before)
    assert repo.gh_calls() == []


def test_a_value_of_the_source_trace_refuses_the_case_without_showing_it(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    before = repo.state()
    with pytest.raises(CasesRefused) as refused:
        open_pull_request([DRAFT], repo.root, PrOptions(push=True, known_values=["pto_carryover"]))
    shown = str(refused.value.problems)
    assert "[known-value]" in shown and "pto_carryover" not in shown
    assert_nothing_left(repo, before)


def test_an_existing_id_is_refused(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    before = repo.state()
    with pytest.raises(CasesRefused, match="already exists in the repo .*revision 3"):
        open_pull_request([GOLDEN / "wfm.accrual_balance_007.yaml"], repo.root, OPEN)
    assert_nothing_left(repo, before)


def test_an_edit_with_a_higher_revision_replaces_that_file(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    edited = bump_revision(GOLDEN / "wfm.accrual_balance_007.yaml", tmp_path / "edited.yaml", 4)
    result = open_pull_request([edited], repo.root, PrOptions(push=True))
    assert result.branch == "promote/wfm.accrual_balance_007"
    assert result.title.startswith("Update golden case wfm.accrual_balance_007 to revision 4")
    assert result.files == ["evals/cases/wfm.accrual_balance_007.yaml"]
    diff = git(repo.origin, "diff", "--unified=0", "main", result.branch)
    assert "-revision: 3" in diff and "+revision: 4" in diff


def test_a_dirty_working_tree_is_allowed_and_left_untouched(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    (repo.root / "README.md").write_text("edited, not staged\n")
    (repo.root / "staged.txt").write_text("staged\n")
    git(repo.root, "add", "staged.txt")
    shutil.copy(DRAFT, repo.cases / DRAFT.name)  # the user's own copy of the case, untracked
    before = repo.state()
    result = open_pull_request([repo.cases / DRAFT.name], repo.root, OPEN)
    assert repo.state() == before and result.files == [TARGET]
    assert (repo.root / "README.md").read_text() == "edited, not staged\n"


def test_a_detached_head_is_allowed_and_stays_detached(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    git(repo.root, "switch", "--quiet", "--detach", "main")
    before = repo.state()
    result = open_pull_request([DRAFT], repo.root, PrOptions(push=True))
    assert repo.state() == before and before[1] == "HEAD" and result.pushed


def test_a_rebase_in_progress_is_refused(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    git(repo.root, "switch", "--quiet", "-c", "topic")
    (repo.root / "README.md").write_text("topic\n")
    git(repo.root, "commit", "--quiet", "-am", "topic")
    git(repo.root, "switch", "--quiet", "main")
    (repo.root / "README.md").write_text("main\n")
    git(repo.root, "commit", "--quiet", "-am", "main")
    git(repo.root, "rebase", "topic", check=False)  # stops on the conflict
    assert (repo.root / ".git" / "rebase-merge").is_dir()
    before = repo.state()
    with pytest.raises(PromoteError, match="a rebase is in progress .*git rebase --continue or --abort"):
        open_pull_request([DRAFT], repo.root, OPEN)
    assert repo.state() == before and repo.branches() == ["main", "topic"]


def test_a_missing_base_and_a_taken_branch_are_refused(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    with pytest.raises(PromoteError, match="base branch develop not found"):
        open_pull_request([DRAFT], repo.root, PrOptions(base="develop"))
    git(repo.root, "branch", BRANCH)
    with pytest.raises(PromoteError, match=f"branch {BRANCH} already exists"):
        open_pull_request([DRAFT], repo.root, PrOptions())
    assert repo.worktrees() == [str(repo.root)]


def test_dry_run_changes_nothing(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    before = repo.state()
    result = open_pull_request([DRAFT], repo.root, PrOptions(open=True, dry_run=True))
    assert result.dry_run and result.commit is None and result.files == [TARGET]
    assert "Trace-Id: 6ba1f49a4e0b98a257a16cb62edefd94" in result.commit_message
    assert "### Figures" in result.body
    assert_nothing_left(repo, before)
    assert repo.gh_calls() == []


def test_a_second_run_waits_then_refuses_and_a_dead_runs_leftovers_are_removed(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    lock = repo.root / ".git" / LOCK_NAME
    lock.write_text(f'{{"pid": {os.getpid()}, "host": "{os.uname().nodename}", "started": "now"}}')
    started = time.monotonic()
    with pytest.raises(PromoteError, match="another promote pr is running"):
        open_pull_request([DRAFT], repo.root, PrOptions(lock_wait_s=0.5))
    assert time.monotonic() - started >= 0.5 and lock.exists()
    # A run killed outright (SIGKILL) left its lock, worktree and branch: the next run clears them.
    leftover = tmp_path / "promote-pr-dead"
    git(repo.root, "worktree", "add", "--quiet", "-b", "promote/dead", str(leftover), "main")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    tip = git(repo.root, "rev-parse", "main")  # the commit the dead run left its branch on
    lock.write_text(f'{{"pid": {dead.pid}, "host": "{os.uname().nodename}", "worktree": "{leftover}", '
                    f'"branch": "promote/dead", "tip": "{tip}", "kept": false}}')
    result = open_pull_request([DRAFT], repo.root, PrOptions())
    assert result.commit and not leftover.exists() and repo.branches() == ["main", BRANCH]
    assert repo.worktrees() == [str(repo.root)] and not lock.exists()


def test_several_cases_go_on_one_branch_in_one_commit(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    second = DRAFTS / "wfm.accrual_balance_001.yaml"
    result = open_pull_request([DRAFT, second], repo.root, PrOptions(push=True))
    assert result.branch == BRANCH  # no shared dataset: named after the first id
    assert sorted(result.files) == [TARGET, "evals/cases/wfm.accrual_balance_001.yaml"]
    assert len([line for line in trailers(repo.origin, result.commit) if line.startswith("Trace-Id:")]) == 2


def test_an_interrupted_run_leaves_no_worktree_branch_or_lock(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    started = tmp_path / "hook-started"
    hook = repo.root / ".git" / "hooks" / "pre-commit"
    # The repo's own hook holds the commit long enough to interrupt the run in the middle of it.
    hook.write_text(f"#!/bin/sh\n: > '{started}'\nfor i in 1 2 3 4 5 6 7 8 9 10; do /bin/sleep 1; done\n")
    hook.chmod(0o755)
    before = repo.state()
    temp = tmp_path / "temp"  # where the run makes its worktree
    temp.mkdir()
    env = dict(os.environ, PATH=f"{repo.bin}{os.pathsep}/usr/bin{os.pathsep}/bin", TMPDIR=str(temp))
    command = [sys.executable, "-m", "promote", "pr", str(DRAFT), "--repo", str(repo.root), "--push"]
    run = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
    deadline = time.monotonic() + 60
    while not started.exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), run.communicate()[1]
    run.send_signal(signal.SIGTERM)
    _, stderr = run.communicate(timeout=30)
    assert run.returncode == 143 and "terminated" in stderr and "Traceback" not in stderr
    assert_nothing_left(repo, before)
    assert list(temp.iterdir()) == []


def test_cli_prints_the_pr_text_when_it_cannot_open_it(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch, gh=None, remote_url="git@gitlab.com:acme/people-evals.git")
    env = dict(os.environ, PATH=f"{repo.bin}{os.pathsep}/usr/bin{os.pathsep}/bin")
    command = [sys.executable, "-m", "promote", "pr", str(DRAFT), "--repo", str(repo.root), "--open"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    url = ("https://gitlab.com/acme/people-evals/-/merge_requests/new?merge_request%5Bsource_branch%5D="
           "promote%2Fhr.policy_carryover_001&merge_request%5Btarget_branch%5D=main")
    assert f"open the PR at: {url}" in done.stdout and "--- PR body ---" in done.stdout
    assert "Trace-Id: 6ba1f49a4e0b98a257a16cb62edefd94" in done.stdout
    assert GITHUB_URL not in done.stdout


def test_cli_dry_run_and_refusal_in_process(tmp_path, monkeypatch, capsys) -> None:
    from promote.cli.main import main

    repo = make_eval_repo(tmp_path, monkeypatch)
    before = repo.state()
    assert main(["pr", str(DRAFT), "--repo", str(repo.root), "--open", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"Would commit on {BRANCH} (from main):\n  {TARGET}" in out and "--- PR body ---" in out
    invalid = ROOT / "fixtures/cases/invalid/wfm.residual_pii_001.yaml"
    assert main(["pr", str(invalid), str(DRAFT), str(DRAFT), "--repo", str(repo.root)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("promote pr: refused, nothing committed: ") and "[residual-pii]" in err
    assert "[unique-id]" in err and len(err.splitlines()) >= 3
    assert_nothing_left(repo, before)


def test_a_hook_that_refuses_the_commit_leaves_nothing(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    hook = repo.root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'error: cases must be reviewed by the HR guild' >&2\nexit 1\n")
    hook.chmod(0o755)
    before = repo.state()
    with pytest.raises(PromoteError, match="git commit failed: cases must be reviewed by the HR guild"):
        open_pull_request([DRAFT], repo.root, OPEN)
    assert_nothing_left(repo, before)


def test_compiled_artifacts_are_regenerated_and_committed_with_the_case(tmp_path, monkeypatch) -> None:
    from promote.compile.run import compile_paths

    repo = make_eval_repo(tmp_path, monkeypatch, compiled=True)
    assert git(repo.root, "ls-files", "evals/compiled")  # the repo keeps them
    case = GOLDEN / "hr.policy_carryover_004.yaml"  # a valid case: drafts are not compiled
    result = open_pull_request([case], repo.root, PrOptions(push=True))
    artifacts = [path for path in result.files if path.startswith("evals/compiled/")]
    assert "evals/cases/hr.policy_carryover_004.yaml" in result.files and len(artifacts) >= 4
    assert sorted(result.files) == sorted(["evals/cases/hr.policy_carryover_004.yaml", *artifacts])
    assert all(f"`{path}`" in result.body for path in artifacts)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "--quiet", "--branch", result.branch, str(repo.origin), str(clone))
    report = compile_paths([clone / "evals" / "cases"], clone / "evals" / "compiled", check=True)
    assert report.lines and not report.stale  # `promote compile --check` passes on the branch


def test_a_base_whose_artifacts_are_stale_is_refused(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch, compiled=True)
    stale = sorted(path for path in (repo.root / "evals" / "compiled").rglob("*")
                   if path.is_file() and path.name != ".promote-compile.json")[0]  # not the manifest
    stale.write_text(stale.read_text() + "\n")
    git(repo.root, "commit", "--quiet", "-am", "hand edit of a compiled artifact")
    before = repo.state()
    with pytest.raises(PromoteError, match="artifacts are out of sync on the base branch: evals/compiled/"):
        open_pull_request([GOLDEN / "hr.policy_carryover_004.yaml"], repo.root, PrOptions(push=True))
    assert repo.state() == before and repo.branches() == ["main"] and repo.origin_branches() == ["main"]


def test_branch_names_for_several_cases_and_a_bad_branch_name(tmp_path, monkeypatch) -> None:
    from promote.repo.pr import default_branch
    from promote.repo.pr_gates import PlannedCase

    def planned(case_id: str, datasets: list[str]) -> PlannedCase:
        case = Case(id=case_id, title="t", input="i", datasets=datasets)
        return PlannedCase(source=Path(f"{case_id}.yaml"), data=b"", case=case, target=Path("x"))

    shared = [planned("hr.a_001", ["pto q3", "hr-core"]), planned("hr.b_002", ["hr-core", "pto q3"])]
    assert default_branch(shared) == "promote/hr-core"
    assert default_branch([planned("hr.a_001", ["x"]), planned("hr.b_002", [])]) == "promote/hr.a_001"
    repo = make_eval_repo(tmp_path, monkeypatch)
    with pytest.raises(PromoteError, match="not a valid branch name"):
        open_pull_request([DRAFT], repo.root, PrOptions(branch="promote/bad..name"))
    assert repo.worktrees() == [str(repo.root)] and repo.branches() == ["main"]
