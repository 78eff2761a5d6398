"""`promote pr`: commit cases on a new branch of the eval repo, push, and open the pull request."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    from promote.repo.pr import PrOptions, open_pull_request
    from promote.repo.pr_gates import CasesRefused

    options = PrOptions(base=args.base, branch=args.branch, push=args.push, open=args.open, draft=args.draft,
                        dry_run=args.dry_run)
    try:
        result = open_pull_request(args.cases, args.repo, options)
    except CasesRefused as refused:
        print(f"promote pr: {refused}", file=sys.stderr)
        if len(refused.problems) > 1:
            for problem in refused.problems:
                print(f"  {problem}", file=sys.stderr)
        return refused.exit_code
    if result.dry_run:
        print(f"dry run: nothing changed. Would commit on {result.branch} (from {result.base}):")
        for path in result.files:
            print(f"  {path}")
    else:
        print(f"committed {result.commit[:12] if result.commit else '?'} on {result.branch}: "
              + ", ".join(result.files))
        if result.pushed:
            print(f"pushed {result.branch} to origin")
    if result.pr_url:
        print(f"opened {result.pr_url}" + (" (number recorded in the case)" if result.review_commit else ""))
    elif result.compare_url:
        print(f"open the PR at: {result.compare_url}")
    if result.suspects:
        print(f"{len(result.suspects)} suspect(s) left for review (words that look personal but were kept; "
              "the PR body lists them too):")
        for suspect in result.suspects:
            print(f"  {suspect}")
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    if result.dry_run or not result.pr_url:
        print("\n--- commit message ---\n" + result.commit_message.rstrip("\n"))
        print(f"\n--- PR title ---\n{result.title}\n\n--- PR body ---\n" + result.body.rstrip("\n"))
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    pr = commands.add_parser(
        "pr", help="commit cases on a new branch of the eval repo; push and open the PR",
        description="Commit case files on a new branch of the eval repo (in a temporary worktree: your "
                    "branch, index and working tree are not touched), with provenance in the message; push "
                    "and open the PR where asked and possible, else print the PR title and body.")
    pr.add_argument("cases", nargs="+", metavar="CASE.yaml", help="case files to promote")
    pr.add_argument("--repo", type=Path, required=True, help="the eval repo (a clone; any folder inside it)")
    pr.add_argument("--base", default="main", help="the branch the PR goes into (default main)")
    pr.add_argument("--branch", help="the new branch (default promote/<id>)")
    pr.add_argument("--push", action="store_true", help="push the branch to origin")
    pr.add_argument("--open", action="store_true",
                    help="push and open the PR (gh when installed and logged in, else print the compare URL)")
    pr.add_argument("--draft", action="store_true", help="open the PR as a draft")
    pr.add_argument("--dry-run", action="store_true",
                    help="run the gates, print what would be committed and the PR text; change nothing")
    pr.set_defaults(handler=run)
