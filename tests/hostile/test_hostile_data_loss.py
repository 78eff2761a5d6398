"""Nothing of the user's is lost: `pr`, `compile` and `check` write and remove only what is theirs to.

Each test plants something of the user's where a careless or hostile input would reach it (a previous
branch, a folder named in a stale lock, a symlink out of the repo or out of `-o`, an input named as the
output) and asserts it is still there, byte for byte, after the command refused or ran.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from promote.errors import PromoteError
from promote.repo.pr import PrOptions, open_pull_request
from promote.repo.workspace import LOCK_NAME
from tests.conftest import GOLDEN_CASES, ROOT, TRACES, run_cli
from tests.pr_helpers import DRAFTS, GOLDEN, bump_revision, git, make_eval_repo

DRAFT = DRAFTS / "hr.policy_carryover_001.yaml"
EDITED = "wfm.accrual_balance_007.yaml"


def _feature_branch(repo) -> str:
    """A branch of the user's with an unpushed commit, then back on main (so `@{-1}` names it)."""
    git(repo.root, "switch", "--quiet", "-c", "feature/mine")
    (repo.root / "mine.txt").write_text("unpushed work\n")
    git(repo.root, "add", "mine.txt")
    git(repo.root, "commit", "--quiet", "-m", "unpushed work")
    tip = git(repo.root, "rev-parse", "HEAD")
    git(repo.root, "switch", "--quiet", "main")
    return tip


@pytest.mark.parametrize("branch", [
    "@{-1}", "@{-1}/x", "@", "refs/heads/main", "", "-D", "HEAD", "main@{1}", "x..y", "x.lock", "a b",
    "x~1", "x^", "x:y", "x?", "x*", "x[", "x\\y", "/x", "x/", "x//y", "x.", ".x", "x/.y", "x\x7f",
])
def test_a_branch_name_git_would_expand_or_refuse_is_refused_before_any_git_call(
        tmp_path, monkeypatch, branch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    tip = _feature_branch(repo)
    before = repo.state()
    with pytest.raises(PromoteError, match="branch name"):
        open_pull_request([DRAFT], repo.root, PrOptions(branch=branch))
    assert git(repo.root, "rev-parse", "refs/heads/feature/mine") == tip
    assert repo.state() == before and sorted(repo.branches()) == ["feature/mine", "main"]


def test_the_branch_deleted_on_failure_is_only_the_one_the_run_made(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    tip = _feature_branch(repo)
    hook = repo.root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    with pytest.raises(PromoteError):
        open_pull_request([DRAFT], repo.root, PrOptions(branch="promote/ok-name"))
    assert git(repo.root, "rev-parse", "refs/heads/feature/mine") == tip
    assert sorted(repo.branches()) == ["feature/mine", "main"]


def _dead_pid() -> int:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    return dead.pid


def _stale_lock(repo, **fields: str) -> Path:
    import json

    lock = repo.root / ".git" / LOCK_NAME
    record = {"pid": _dead_pid(), "host": os.uname().nodename, "started": "then", **fields}
    lock.write_text(json.dumps(record))
    return lock


@pytest.mark.parametrize("named", ["repo", "precious", "precious-named-promote-pr-x", "parent"])
def test_a_stale_lock_naming_a_folder_the_tool_did_not_make_removes_nothing(
        tmp_path, monkeypatch, named) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    folders = {"repo": repo.root, "precious": tmp_path / "precious",
               "precious-named-promote-pr-x": tmp_path / "promote-pr-x", "parent": tmp_path}
    folder = folders[named]
    folder.mkdir(exist_ok=True)
    (folder / "keep.txt").write_text("mine\n")
    lock = _stale_lock(repo, worktree=str(folder), branch="main", kept=False)
    result = open_pull_request([DRAFT], repo.root, PrOptions(dry_run=True))
    assert result.dry_run and (folder / "keep.txt").read_text() == "mine\n"
    assert repo.root.is_dir() and "main" in repo.branches() and not lock.exists()


def test_a_stale_lock_naming_a_users_branch_does_not_delete_it(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    tip = _feature_branch(repo)
    _stale_lock(repo, branch="feature/mine", kept=False)
    open_pull_request([DRAFT], repo.root, PrOptions(dry_run=True))
    assert git(repo.root, "rev-parse", "refs/heads/feature/mine") == tip
    _stale_lock(repo, branch="@{-1}", kept=False)
    open_pull_request([DRAFT], repo.root, PrOptions(dry_run=True))
    assert git(repo.root, "rev-parse", "refs/heads/feature/mine") == tip


def test_a_committed_cases_folder_that_is_a_symlink_out_of_the_repo_is_refused(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    outside = tmp_path / "outside-cases"
    git(repo.root, "mv", "evals/cases", "evals/real-cases")
    (repo.root / "evals" / "real-cases").rename(outside)
    git(repo.root, "rm", "--quiet", "-r", "--cached", "evals/real-cases")
    (repo.root / "evals" / "cases").symlink_to(outside)
    git(repo.root, "add", "evals/cases")
    git(repo.root, "commit", "--quiet", "-m", "cases elsewhere")
    before = sorted(p.name for p in outside.iterdir())
    with pytest.raises(PromoteError, match="symlink"):
        open_pull_request([DRAFT], repo.root, PrOptions())
    assert sorted(p.name for p in outside.iterdir()) == before
    assert repo.branches() == ["main"]


def test_a_committed_case_file_that_is_a_symlink_is_not_written_through(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    outside = tmp_path / "precious.yaml"
    committed = repo.cases / EDITED
    outside.write_bytes(committed.read_bytes())
    committed.unlink()
    committed.symlink_to(outside)
    git(repo.root, "add", "-A")
    git(repo.root, "commit", "--quiet", "-m", "case file as a link")
    original = outside.read_bytes()
    edit = bump_revision(GOLDEN / EDITED, tmp_path / EDITED, 9)
    with pytest.raises(PromoteError, match="symlink"):
        open_pull_request([edit], repo.root, PrOptions())
    assert outside.read_bytes() == original and repo.branches() == ["main"]


def test_a_compiled_folder_that_is_a_symlink_is_refused(tmp_path, monkeypatch) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch, compiled=True)
    outside = tmp_path / "outside-compiled"
    (repo.root / "evals" / "compiled").rename(outside)
    (repo.root / "evals" / "compiled").symlink_to(outside)
    git(repo.root, "add", "-A")
    git(repo.root, "commit", "--quiet", "-m", "compiled elsewhere")
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    with pytest.raises(PromoteError, match="symlink"):
        open_pull_request([GOLDEN / "hr.policy_carryover_004.yaml"], repo.root, PrOptions())
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before


# --- compile ---------------------------------------------------------------------------------------

def _compile(*args: str) -> subprocess.CompletedProcess:
    return run_cli("compile", "--no-pii-scan", *args)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("target", ["checks", "adk", "numeric"])
def test_compile_never_removes_through_a_symlinked_target_folder(tmp_path, target) -> None:
    out, outside = tmp_path / "out", tmp_path / "outside"
    (outside / "nested").mkdir(parents=True)
    (outside / "a.json").write_text("keep\n")
    (outside / "nested" / "b.json").write_text("keep\n")
    out.mkdir()
    (out / target).symlink_to(outside, target_is_directory=True)
    done = _compile(str(GOLDEN_CASES), "-o", str(out))
    assert done.returncode == 2, done.stderr
    assert b"symlink" in done.stderr and b"Traceback" not in done.stderr
    assert _tree(outside) == {"a.json": b"keep\n", "nested/b.json": b"keep\n"}


def test_compile_leaves_the_users_own_files_in_target_folders(tmp_path) -> None:
    out = tmp_path / "out"
    assert _compile(str(GOLDEN_CASES), "-o", str(out)).returncode == 0
    mine = {out / "numeric" / "README.md": b"my notes\n", out / "checks" / "extra" / "x.json": b"{}\n"}
    for path, data in mine.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    assert _compile(str(GOLDEN_CASES), "-o", str(out), "--check").returncode == 0
    done = _compile(str(GOLDEN_CASES / "wfm.accrual_balance_007.yaml"), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert all(path.read_bytes() == data for path, data in mine.items())
    # what compile itself wrote for the other cases is gone: it is in the manifest
    assert not (out / "numeric" / "hr.policy_carryover_004.oracle.json").exists()


@pytest.mark.parametrize("check", [False, True])
def test_compile_to_a_file_exits_2_and_leaves_it(tmp_path, check) -> None:
    target = tmp_path / "out.txt"
    target.write_text("mine\n")
    done = _compile(str(GOLDEN_CASES), "-o", str(target), *(["--check"] if check else []))
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert len(done.stderr.decode().strip().splitlines()) == 1 and target.read_text() == "mine\n"


# --- check --junit -----------------------------------------------------------------------------------

def _inputs(tmp_path: Path) -> tuple[Path, Path]:
    case = tmp_path / "wfm.accrual_balance_007.yaml"
    case.write_bytes((GOLDEN_CASES / case.name).read_bytes())
    trace = tmp_path / "adk2.otlp.jsonl"
    trace.write_bytes((TRACES / "adk2.otlp.jsonl").read_bytes())
    return case, trace


@pytest.mark.parametrize("which", ["case", "trace", "link-to-trace", "case-folder-member"])
def test_junit_output_that_is_an_input_is_refused(tmp_path, which) -> None:
    case, trace = _inputs(tmp_path)
    link = tmp_path / "report.xml"
    link.symlink_to(trace)
    junit = {"case": case, "trace": trace, "link-to-trace": link, "case-folder-member": case}[which]
    cases = str(tmp_path) if which == "case-folder-member" else str(case)
    before = {case: case.read_bytes(), trace: trace.read_bytes()}
    done = run_cli("check", cases, "--trace", str(trace), "--junit", str(junit))
    assert done.returncode == 2, done.stderr
    assert b"input" in done.stderr and len(done.stderr.decode().strip().splitlines()) == 1
    assert {path: path.read_bytes() for path in before} == before


@pytest.mark.parametrize("link", ["adk/hr_policy_carryover_golden",
                                  "numeric/hr.policy_carryover_004.oracle.json", ".promote-compile.json"])
def test_compile_refuses_a_symlink_anywhere_below_the_output_folder(tmp_path, link) -> None:
    out, outside = tmp_path / "out", tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.json").write_text("keep\n")
    target = outside if not link.endswith(".json") else outside / "keep.json"
    (out / link).parent.mkdir(parents=True, exist_ok=True)
    (out / link).symlink_to(target)
    done = _compile(str(GOLDEN_CASES), "-o", str(out))
    assert done.returncode == 2 and b"symlink" in done.stderr, done.stderr
    assert _tree(outside) == {"keep.json": b"keep\n"}


@pytest.mark.parametrize("entry", ["../outside/keep.json", "numeric/../../outside/keep.json",
                                   "{outside}/keep.json"])
def test_a_hostile_manifest_cannot_name_a_file_outside_the_output_folder(tmp_path, entry) -> None:
    import json

    out, outside = tmp_path / "out", tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.json").write_text("keep\n")
    assert _compile(str(GOLDEN_CASES), "-o", str(out)).returncode == 0
    manifest = out / ".promote-compile.json"
    data = json.loads(manifest.read_text())
    data["files"].append(entry.format(outside=outside))
    manifest.write_text(json.dumps(data))
    assert _compile(str(GOLDEN_CASES / "wfm.accrual_balance_007.yaml"), "-o", str(out)).returncode == 0
    assert _tree(outside) == {"keep.json": b"keep\n"}


@pytest.mark.parametrize("disguise", ["link-to-repo", "relative", "registered-by-user"])
def test_a_stale_lock_in_disguise_removes_nothing(tmp_path, monkeypatch, disguise) -> None:
    repo = make_eval_repo(tmp_path, monkeypatch)
    (repo.root / "keep.txt").write_text("mine\n")
    if disguise == "link-to-repo":
        named = tmp_path / "promote-pr-link"
        named.symlink_to(repo.root)
    elif disguise == "relative":
        named = Path("promote-pr-x")
        (repo.root / "promote-pr-x").mkdir()
        (repo.root / "promote-pr-x" / "keep.txt").write_text("mine\n")
    else:  # the user's own worktree, not named like the tool's
        named = tmp_path / "my-worktree"
        git(repo.root, "worktree", "add", "--quiet", "--detach", str(named), "main")
    lock = _stale_lock(repo, worktree=str(named))
    open_pull_request([DRAFT], repo.root, PrOptions(dry_run=True))
    assert (repo.root / "keep.txt").read_text() == "mine\n" and not lock.exists()
    if disguise == "relative":
        assert (repo.root / "promote-pr-x" / "keep.txt").exists()
    if disguise == "registered-by-user":
        assert named.is_dir() and str(named) in repo.worktrees()


def test_junit_output_that_is_the_scrub_policy_is_refused(tmp_path) -> None:
    case, trace = _inputs(tmp_path)
    policy = tmp_path / "policy.yaml"
    policy.write_bytes((ROOT / "scrubbers" / "policies" / "default.yaml").read_bytes())
    before = policy.read_bytes()
    done = run_cli("check", str(case), "--trace", str(trace), "--policy", str(policy), "--junit", str(policy))
    assert done.returncode == 2 and b"input" in done.stderr, done.stderr
    assert policy.read_bytes() == before
