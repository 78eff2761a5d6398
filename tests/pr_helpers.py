"""An eval repo for `promote pr` tests: real git, a bare `origin`, and a stub `gh` that records its calls."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "fixtures" / "cases" / "golden"
DRAFTS = ROOT / "fixtures" / "cases" / "drafts"
PR_URL = "https://github.com/acme/people-evals/pull/42"
GITHUB_URL = "https://github.com/acme/people-evals.git"

_GH_STUB = """#!{python}
import json, os, shutil, sys
args = sys.argv[1:]
with open(os.environ["GH_STUB_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps(args) + "\\n")
if args[:2] == ["auth", "status"]:
    if os.environ.get("GH_STUB_AUTH", "ok") != "ok":
        print("You are not logged into any GitHub hosts. To log in, run: gh auth login", file=sys.stderr)
        sys.exit(1)
    sys.exit(0)
if args[:2] == ["pr", "create"]:
    shutil.copy(args[args.index("--body-file") + 1], os.environ["GH_STUB_BODY"])
    print({url!r})
    sys.exit(0)
sys.exit(2)
"""


def git(cwd: Path, *args: str, check: bool = True) -> str:
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    done = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, env=env)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)}: {done.stderr}")
    return done.stdout.strip()


@dataclass
class EvalRepo:
    """A user's clone (`root`, on `main`, one golden case committed) and its bare `origin`."""

    root: Path
    origin: Path
    bin: Path

    @property
    def cases(self) -> Path:
        return self.root / "evals" / "cases"

    def gh_calls(self) -> list[list[str]]:
        log = self.bin / "gh.log"
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []

    def gh_body(self) -> str:
        return (self.bin / "gh-body.md").read_text(encoding="utf-8")

    def branches(self) -> list[str]:
        return git(self.root, "for-each-ref", "--format=%(refname:short)", "refs/heads").splitlines()

    def origin_branches(self) -> list[str]:
        return git(self.origin, "for-each-ref", "--format=%(refname:short)", "refs/heads").splitlines()

    def worktrees(self) -> list[str]:
        listed = git(self.root, "worktree", "list", "--porcelain")
        return [line.split(" ", 1)[1] for line in listed.splitlines() if line.startswith("worktree ")]

    def state(self) -> tuple[str, ...]:
        """The user's side: HEAD, branch, status, index and working-tree diffs."""
        return (git(self.root, "rev-parse", "HEAD"), git(self.root, "rev-parse", "--abbrev-ref", "HEAD"),
                git(self.root, "status", "--porcelain", "--untracked-files=all"),
                git(self.root, "diff"), git(self.root, "diff", "--cached"))


def make_eval_repo(
    tmp_path: Path, monkeypatch, *, gh: str | None = "ok", remote_url: str | None = GITHUB_URL,
    compiled: bool = False,
) -> EvalRepo:
    """A clone with `main` pushed to a bare origin; `gh`: "ok" (logged in), "logged-out", or None (absent).

    `remote_url`: what `origin` is shown as (its fetch URL); pushes go to the bare repo (push URL).
    """
    origin = tmp_path / "origin.git"
    root = tmp_path / "people-evals"
    git(tmp_path, "init", "--quiet", "--bare", str(origin))
    git(tmp_path, "init", "--quiet", "-b", "main", str(root))
    git(root, "config", "user.name", "Eval Bot")
    git(root, "config", "user.email", "bot@example.invalid")
    (root / "evals" / "cases").mkdir(parents=True)
    shutil.copy(GOLDEN / "wfm.accrual_balance_007.yaml", root / "evals" / "cases")
    (root / "README.md").write_text("eval repo\n")
    if compiled:  # the repo keeps compiled artifacts, in sync with its cases
        from promote.compile.run import compile_paths

        compile_paths([root / "evals" / "cases"], root / "evals" / "compiled")
    git(root, "add", ".")
    git(root, "commit", "--quiet", "-m", "Eval repo with one golden case")
    git(root, "remote", "add", "origin", remote_url or str(origin))
    if remote_url:
        git(root, "remote", "set-url", "--push", "origin", str(origin))
    git(root, "push", "--quiet", "origin", "main")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # Only git (and the stub gh) on PATH: a gh installed on the machine must not take part.
    os.symlink(shutil.which("git"), bin_dir / "git")
    if gh is not None:
        stub = bin_dir / "gh"
        stub.write_text(_GH_STUB.format(python=sys.executable, url=PR_URL))
        stub.chmod(0o755)
    for key, value in {"PATH": str(bin_dir), "GH_STUB_LOG": str(bin_dir / "gh.log"),
                       "GH_STUB_BODY": str(bin_dir / "gh-body.md"), "GH_STUB_AUTH": gh or "absent"}.items():
        monkeypatch.setenv(key, value)
    return EvalRepo(root=root, origin=origin, bin=bin_dir)


def bump_revision(source: Path, out: Path, revision: int) -> Path:
    """A copy of a case with another revision (an edit of that case)."""
    text = source.read_text(encoding="utf-8")
    lines = [f"revision: {revision}" if line.startswith("revision:") else line for line in text.splitlines()]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
