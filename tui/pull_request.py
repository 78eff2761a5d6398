"""ctrl+o: the saved case on a branch, pushed and opened as a PR when there is a remote (`promote pr`'s
library call). No Textual here; the promote screen runs it in a worker.

Pressed again with nothing saved since, it shows the same pull request; after new saves, the branch
`promote/<id>` is taken by the first PR, so the new revision goes on `promote/<id>-r<revision>`: the SME
is never sent to the command line for a flag.
"""

from __future__ import annotations

from dataclasses import dataclass

from promote.errors import PromoteError
from promote.repo.git import Git
from promote.repo.pr import PrOptions, PrResult, open_pull_request
from tui.edit_session import EditSession


@dataclass
class OpenedPr:
    result: PrResult
    saved_json: dict | None
    """The case as saved when the PR was opened."""
    again: bool = False
    """True when this is the PR opened before (nothing saved since)."""


def open_pr(session: EditSession, previous: OpenedPr | None) -> OpenedPr:
    if previous is not None and previous.saved_json == session.saved_json:
        return OpenedPr(previous.result, previous.saved_json, again=True)
    root = session.repo.root
    git = Git(root)
    # With a remote: push and open it; without one the branch is committed locally and the PR text is
    # shown for opening by hand.
    has_remote = git.remote_url() is not None
    options = PrOptions(open=has_remote)
    branch = f"promote/{session.case.id}"
    if _taken(git, branch):
        branch = f"promote/{session.case.id}-r{session.case.revision}"
        if _taken(git, branch):
            raise PromoteError(f"branch {branch} already holds revision {session.case.revision} of this case",
                               hint="edit and save the case (a new revision gets its own branch), or merge "
                                    "or delete that branch")
        options = PrOptions(open=has_remote, branch=branch)
    result = open_pull_request([session.path], root, options)
    return OpenedPr(result, session.saved_json)


def _taken(git: Git, branch: str) -> bool:
    return git.branch_exists(branch) or bool(git.commit_of(f"refs/remotes/origin/{branch}"))
