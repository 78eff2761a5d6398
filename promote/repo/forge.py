"""Where the pull request is opened: the forge behind `origin` (GitHub, GitLab) and the GitHub CLI.

A remote URL is parsed in its https, ssh (`ssh://`) and scp (`git@host:owner/repo.git`) forms; any user
name or token in it is dropped before anything is shown. `gh` is used when it is installed and logged in;
otherwise the flow prints the compare URL and the PR text for the user to paste.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

from promote.repo.git import git_environment

_SCP_FORM = re.compile(r"^(?:[^@/]+@)?(?P<host>[^:/]+):(?P<path>[^/].*)$")
_PR_URL = re.compile(r"https?://\S+/(?:pull|merge_requests)/(?P<number>\d+)")
GH_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Forge:
    """A repository on a forge: kind (`github` | `gitlab`), host and `owner/name` path."""

    kind: str
    host: str
    path: str

    def compare_url(self, base: str, branch: str) -> str:
        """The page that opens a pull (merge) request of `branch` into `base`."""
        if self.kind == "gitlab":
            query = (f"merge_request%5Bsource_branch%5D={quote(branch, safe='')}"
                     f"&merge_request%5Btarget_branch%5D={quote(base, safe='')}")
            return f"https://{self.host}/{self.path}/-/merge_requests/new?{query}"
        compared = f"{quote(base, safe='/')}...{quote(branch, safe='/')}"
        return f"https://{self.host}/{self.path}/compare/{compared}?expand=1"


def parse_remote(url: str | None) -> Forge | None:
    """The forge a remote URL points at, or None for local paths and hosts that are neither forge."""
    if not url:
        return None
    host, path = _host_and_path(url.strip())
    if not host or not path:
        return None
    path = path.strip("/")
    path = path[:-4] if path.endswith(".git") else path
    if path.count("/") < 1:
        return None
    kind = "gitlab" if "gitlab" in host else "github" if "github" in host else None
    return Forge(kind, host, path) if kind else None


def _host_and_path(url: str) -> tuple[str | None, str | None]:
    if "://" in url:
        parts = urlsplit(url)
        if parts.scheme not in {"https", "http", "ssh", "git", "git+ssh"}:
            return None, None
        return parts.hostname, parts.path  # hostname: user, password and port left out
    found = _SCP_FORM.match(url)
    if found and not url.startswith(("/", ".")):
        return found.group("host").lower(), found.group("path")
    return None, None


def safe_remote(url: str | None) -> str:
    """A remote URL fit to print: credentials removed."""
    if not url:
        return "(none)"
    if "://" in url:
        parts = urlsplit(url)
        if parts.username or parts.password:
            netloc = parts.hostname or ""
            if parts.port:
                netloc += f":{parts.port}"
            return parts._replace(netloc=netloc).geturl()
    return url


# The GitHub CLI ---------------------------------------------------------------------------------------

def gh_status() -> tuple[bool, str]:
    """(usable, why not): `gh` is on PATH and `gh auth status` says it is logged in."""
    if shutil.which("gh") is None:
        return False, "the GitHub CLI (gh) is not installed"
    try:
        done = subprocess.run(["gh", "auth", "status"], capture_output=True, text=True, timeout=30,
                              env=git_environment(), stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False, "gh auth status did not answer"
    if done.returncode != 0:
        return False, "gh is not logged in (run gh auth login)"
    return True, ""


@dataclass(frozen=True)
class OpenedPr:
    url: str
    number: int | None


def gh_create(cwd: Path, *, base: str, branch: str, title: str, body: str, draft: bool) -> OpenedPr:
    """`gh pr create` for a pushed branch; raises RuntimeError with gh's last line when it fails."""
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".md", delete=False) as handle:
        handle.write(body)
        body_file = Path(handle.name)
    command = ["gh", "pr", "create", "--base", base, "--head", branch, "--title", title,
               "--body-file", str(body_file)]
    if draft:
        command.append("--draft")
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=GH_TIMEOUT_S,
                              env=git_environment(), stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RuntimeError(f"gh pr create did not run ({type(exc).__name__})") from None
    finally:
        body_file.unlink(missing_ok=True)
    if done.returncode != 0:
        lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        raise RuntimeError(f"gh pr create failed: {lines[-1] if lines else done.returncode}")
    found = _PR_URL.search(done.stdout)
    if found is None:
        urls = [word for word in done.stdout.split() if word.startswith("http")]
        return OpenedPr(urls[-1] if urls else done.stdout.strip(), None)
    return OpenedPr(found.group(0), int(found.group("number")))
