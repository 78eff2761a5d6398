"""`promote pr` as a library call: cases in, a reviewed pull request (or its text) out.

`open_pull_request(cases, repo_dir, options)` is what the command line and the terminal UI call. It
refuses a repo in the middle of a rebase or merge, a missing base branch and an existing branch; runs
every gate before committing anything (`pr_gates`); commits the case files byte for byte on a new branch
in a temporary worktree (`workspace`), so the user's branch, index and working tree are never touched;
pushes to `origin` and opens the PR with `gh` where asked and possible, else hands back the compare URL,
title and body; and once the PR has a number, records it in each case (`provenance.review`) in a second
commit. Nothing is left behind by a run that fails or is interrupted before its result exists.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from pydantic import Field

from promote.confined import refuse_symlinks
from promote.errors import PromoteError
from promote.models import Model
from promote.case.model import Provenance, Review
from promote.case.store import load_case, save_case
from promote.repo import forge, pr_compile
from promote.repo.branch_names import branch_name_problem
from promote.eval_repo import EvalRepo
from promote.repo.git import Git, GitError
from promote.repo.pr_body import CaseForReview, pr_body, pr_title, suspect_lines
from promote.repo.pr_gates import PlannedCase, plan_cases, read_sources, scrubbed_by, significant
from promote.repo.workspace import RunLock, Workspace, interrupts_unwind

REMOTE = "origin"
_LINK_HINT = "the eval repo commits that symlink: replace it with the folder or file it points to"
BRANCH_PREFIX = "promote/"


class PrOptions(Model):
    """How to promote (the command line's flags)."""

    base: str = "main"
    """The branch the PR goes into: the local branch of that name, else `origin/<base>`."""
    branch: str | None = None
    """The new branch; default `promote/<id>`, for several cases `promote/<dataset-or-first-id>`."""
    push: bool = False
    """Push the branch to `origin`."""
    open: bool = False
    """Open the PR (implies `push`): with `gh` when installed and logged in, else the compare URL."""
    draft: bool = False
    """Open the PR as a draft PR."""
    dry_run: bool = False
    """Run the gates and show what would be committed and the PR text; change nothing."""
    known_values: list[str] = Field(default_factory=list, repr=False)
    """Raw values the source trace held (the UI knows them): a case holding any of them is refused."""
    lock_wait_s: float = 5.0
    """How long to wait for another `promote pr` on the same repository before refusing."""


class PrResult(Model):
    """What a run did (or, with `dry_run`, would do)."""

    branch: str
    base: str
    files: list[str]
    """Repository paths committed (first commit)."""
    title: str
    body: str
    """The PR body (Markdown review checklist)."""
    commit_message: str
    dry_run: bool = False
    commit: str | None = None
    """The commit holding the cases."""
    review_commit: str | None = None
    """The second commit, recording the PR number in each case."""
    pushed: bool = False
    pr_url: str | None = None
    pr_number: int | None = None
    compare_url: str | None = None
    """Where to open the PR by hand, when it was not opened (GitHub and GitLab remotes)."""
    notes: list[str] = Field(default_factory=list)
    """Why something asked for did not happen, and what to do (e.g. gh is not logged in)."""
    suspects: list[str] = Field(default_factory=list)
    """The suspects left in the cases, one line each (`<id>: [suspect 1] a name (4 letters) in
    expected_output`): where and what kind, never the word; the PR body lists them too."""


def open_pull_request(
    cases: Sequence[str | Path], repo_dir: str | Path, options: PrOptions | None = None
) -> PrResult:
    """Promote case files into the eval repo at `repo_dir` as a pull request; see the module docstring.

    Raises PromoteError (one line: what is wrong and what to do) for every refusal; `CasesRefused`
    (exit 1) when a gate refused a case, with every reason in `.problems`.
    """
    options = options or PrOptions()
    if options.branch is not None:  # before any git call: git would expand @{-1} (see branch_names)
        _refuse_bad_branch_name(options.branch)
    if options.open:
        options = options.model_copy(update={"push": True})
    sources = read_sources([Path(case) for case in cases])
    repo = Git(Git(Path(repo_dir)).toplevel())
    _refuse_unfinished_operation(repo)
    with interrupts_unwind():
        lock = RunLock(repo, options.lock_wait_s)
        workspace = Workspace(repo, lock)
        try:
            lock.acquire()
            base_commit = _base_commit(repo, options.base)
            if options.branch:
                _refuse_taken_branch(repo, options.branch)
            worktree = workspace.open(base_commit)
            eval_repo = EvalRepo.find(worktree.cwd)
            cases_dir = eval_repo.cases_dir.relative_to(eval_repo.root)
            refuse_symlinks(worktree.cwd, cases_dir, what="the cases folder", hint=_LINK_HINT)
            plan = plan_cases(sources, worktree.cwd, known_values=options.known_values)
            pr_compile.check_base(worktree.cwd, cases_dir)
            branch = options.branch or default_branch(plan)
            _refuse_taken_branch(repo, branch)
            if not options.dry_run:
                workspace.create_branch(branch)
            files = _stage(worktree, plan, cases_dir)
            result = _describe(plan, branch, options, files, repo.cwd)
            _refuse_known_values(worktree, result, options.known_values)
            if options.dry_run:
                return result
            result.commit = _commit_staged(worktree, result.commit_message)
            workspace.moved_to(result.commit)
            result.files = worktree.files_in_commit(result.commit)
            if options.push:
                _push(repo, branch)
                result.pushed = True
            workspace.keep_branch()
            if options.open:
                _open(repo, worktree, plan, result, options)
            return result
        finally:
            workspace.close()


def default_branch(plan: Sequence[PlannedCase]) -> str:
    """`promote/<id>`; several cases: `promote/<the dataset they share>`, else `promote/<first id>`."""
    if len(plan) == 1:
        return BRANCH_PREFIX + plan[0].case.id
    shared = set(plan[0].case.datasets).intersection(*(item.case.datasets for item in plan[1:]))
    name = sorted(shared)[0] if shared else plan[0].case.id
    return BRANCH_PREFIX + re.sub(r"[^A-Za-z0-9._/-]+", "-", name).strip("-./")


def _refuse_unfinished_operation(repo: Git) -> None:
    found = repo.operation_in_progress()
    if found:
        what, how = found
        raise PromoteError(f"{what} is in progress in this repository", where=str(repo.cwd),
                           hint=f"finish it first: {how}")


def _base_commit(repo: Git, base: str) -> str:
    commit = repo.commit_of(f"refs/heads/{base}") or repo.commit_of(f"refs/remotes/{REMOTE}/{base}")
    if commit is None:
        raise PromoteError(f"base branch {base} not found (neither a local branch nor {REMOTE}/{base})",
                           where=str(repo.cwd), hint="pass --base with the branch PRs go into, or git fetch")
    return commit


def _refuse_bad_branch_name(branch: str) -> None:
    problem = branch_name_problem(branch)
    if problem is not None:
        raise PromoteError(f"--branch is not a valid branch name: {problem}",
                           hint="pass a plain branch name, e.g. promote/my-case")


def _refuse_taken_branch(repo: Git, branch: str) -> None:
    _refuse_bad_branch_name(branch)
    if not repo.valid_branch_name(branch):
        raise PromoteError("--branch is not a valid branch name (git refuses it)",
                           hint="pass another --branch")
    if repo.branch_exists(branch) or repo.commit_of(f"refs/remotes/{REMOTE}/{branch}"):
        raise PromoteError(f"branch {branch} already exists", where=str(repo.cwd),
                           hint="pass --branch NAME, or delete the old branch if it was merged")


def _describe(
    plan: Sequence[PlannedCase], branch: str, options: PrOptions, files: list[str], root: Path
) -> PrResult:
    reviewed = [CaseForReview(item.case, item.target.as_posix(), item.edit_of, item.notes) for item in plan]
    title = pr_title(reviewed)
    targets = {item.target.as_posix() for item in plan}
    return PrResult(branch=branch, base=options.base, files=files,
                    title=title, body=pr_body(reviewed, artifacts=[f for f in files if f not in targets]),
                    commit_message=commit_message(plan, title, root), dry_run=options.dry_run,
                    suspects=suspect_lines(reviewed))


def commit_message(plan: Sequence[PlannedCase], title: str, root: Path) -> str:
    """Subject, one line per case (case, trace, SME), then the trailers."""
    lines = [title, ""]
    promoted_by: list[str] = []
    trace_ids: list[str] = []
    scrubbed: list[str] = []
    for item in plan:
        case = item.case
        provenance = case.provenance
        sme = (provenance.promoted_by if provenance else None) or EvalRepo.find(root).sme_identity()
        trace = provenance.trace if provenance else None
        what = (f"revision {case.revision} of {case.id}" if item.edit_of
                else f"{case.id} (revision {case.revision})")
        source = f"from trace {trace.trace_id} turn {trace.turn}" if trace else "authored"
        lines.append(f"{what}, {case.status}, {source}, promoted by {sme}.")
        promoted_by.append(sme)
        if trace:
            trace_ids.append(trace.trace_id)
        if (line := scrubbed_by(case)) is not None:
            scrubbed.append(line)
    lines.append("")
    lines += [f"Promoted-by: {name}" for name in dict.fromkeys(promoted_by)]
    lines += [f"Trace-Id: {trace_id}" for trace_id in dict.fromkeys(trace_ids)]
    lines += [f"Scrubbed-by: {line}" for line in dict.fromkeys(scrubbed)]
    return "\n".join(lines) + "\n"


def _refuse_known_values(worktree: Git, result: PrResult, known_values: Sequence[str]) -> None:
    """Last guard on what will be printed, committed and sent: none of the trace's raw values."""
    if not known_values:
        return
    staged = worktree.out("diff", "--cached", "--no-color")
    text = "\n".join((result.title, result.body, result.commit_message, staged))
    if any(value in text for value in significant(known_values)):
        raise PromoteError("refused, nothing committed: the PR text would hold a value of the source trace",
                           hint="scrub the case and run again")


def _stage(worktree: Git, plan: Sequence[PlannedCase], cases_dir: Path) -> list[str]:
    """Place each case byte for byte (comments, layout and header as the user saved them), regenerate
    the compiled artifacts where the repo keeps them, stage it all; the staged paths."""
    for item in plan:
        refuse_symlinks(worktree.cwd, item.target, what=f"the case file {item.target.as_posix()}",
                        hint=_LINK_HINT)
        target = worktree.cwd / item.target
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item.data)
    worktree.run("add", "--", *(item.target.as_posix() for item in plan))
    compiled = pr_compile.regenerate(worktree.cwd, cases_dir)
    if compiled is not None:
        worktree.run("add", "--all", "--", compiled.as_posix())
    staged = worktree.out("diff", "--cached", "--name-only", "--no-renames").splitlines()
    if not staged:
        raise PromoteError("nothing to commit: the repo already holds these cases exactly",
                           hint="edit a case first")
    return staged


def _commit_staged(worktree: Git, message: str) -> str:
    message_file = worktree.git_path("PROMOTE_PR_MSG")
    message_file.write_text(message, encoding="utf-8")
    try:
        worktree.run("commit", "--quiet", "--file", str(message_file),
                     hint="nothing was kept; if a hook of the eval repo refused the commit, that is why")
    finally:
        message_file.unlink(missing_ok=True)
    head = worktree.head()
    assert head is not None
    return head


def _push(repo: Git, branch: str) -> None:
    # From the user's repository, not the worktree: a relative remote URL means what the user meant.
    repo.run("push", "--quiet", REMOTE, f"refs/heads/{branch}:refs/heads/{branch}",
                 hint=f"nothing was kept; check that {REMOTE} exists and you may push to it, then run again")


def _open(
    repo: Git, worktree: Git, plan: Sequence[PlannedCase], result: PrResult, options: PrOptions
) -> None:
    remote_url = repo.remote_url(REMOTE)
    where = forge.parse_remote(remote_url)
    usable, why_not = forge.gh_status()
    if where is not None and where.kind == "gitlab":
        usable, why_not = False, "origin is a GitLab remote (gh opens GitHub PRs only)"
    if usable:
        try:
            opened = forge.gh_create(worktree.cwd, base=options.base, branch=result.branch,
                                     title=result.title, body=result.body, draft=options.draft)
        except RuntimeError as exc:
            usable, why_not = False, str(exc)
        else:
            result.pr_url, result.pr_number = opened.url, opened.number
    if not usable:
        result.compare_url = where.compare_url(options.base, result.branch) if where else None
        how = f"open it at {result.compare_url}" if result.compare_url else (
            f"open it by hand (no compare URL for {forge.safe_remote(remote_url)})")
        result.notes.append(f"PR not opened: {why_not}; {how} with the title and body below")
        return
    if result.pr_number is not None:
        _record_review(repo, worktree, plan, result)


def _record_review(repo: Git, worktree: Git, plan: Sequence[PlannedCase], result: PrResult) -> None:
    """Second commit: each case's `provenance.review` gets the PR number and `state: open`."""
    assert result.pr_number is not None
    try:
        for item in plan:
            _record_in_case(worktree.cwd / item.target, result.pr_number)
        worktree.run("add", "--", *(item.target.as_posix() for item in plan))
        ids = ", ".join(item.case.id for item in plan)
        message = f"Record PR #{result.pr_number} in {ids}: review open\n"
        result.review_commit = _commit_staged(worktree, message)
        _push(repo, result.branch)
    except (PromoteError, GitError) as exc:
        result.review_commit = None
        result.notes.append(f"the PR number was not recorded in the case: {exc}")


def _record_in_case(path: Path, pr_number: int) -> None:
    """`provenance.review: {pr: N, state: open}`, through the case writer: only those lines change."""
    loaded = load_case(path)
    updated = loaded.case.model_copy(deep=True)
    provenance = updated.provenance or Provenance()
    provenance.review = Review(pr=pr_number, state="open")
    updated.provenance = provenance
    save_case(updated, path, base=loaded)
