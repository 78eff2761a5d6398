"""`promote tui`: the terminal UI (trace browser, promote screen, save, PR).

The UI lives in the `tui` package and is imported only when this command runs: the core never
imports Textual.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from promote.errors import PromoteError


def run(args: argparse.Namespace) -> int:
    exports = [Path(path) for path in args.exports]
    if not exports and args.case is None:
        raise PromoteError("nothing to open",
                           hint="give trace exports to browse, or --case CASE.yaml to edit")
    for path in [*exports, *([args.case] if args.case else [])]:
        if not path.is_file():
            raise PromoteError("no such file", where=str(path))
    from tui.loader import Loader  # light: the loader child starts reading while the UI loads

    loader = Loader(exports, args.repo or Path.cwd()) if exports else None
    try:
        from tui.app import PromoteApp  # the UI and Textual load only for this command

        app = PromoteApp(exports, case=args.case, repo_dir=args.repo, by=args.by, loader=loader)
        app.prepare()  # a bad --case or eval repo is reported here, before the screen opens
        app.run()
    finally:
        if loader is not None:
            loader.stop()
    return app.return_code or 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    tui = commands.add_parser("tui", help="the terminal UI: pick a turn, edit the case, save, open a PR")
    tui.add_argument("exports", nargs="*", metavar="EXPORT", help="trace exports to browse")
    tui.add_argument("--case", type=Path, metavar="CASE.yaml", help="edit an existing case")
    tui.add_argument("--repo", type=Path, metavar="DIR",
                     help="the eval repo (default: the repo holding the current folder)")
    tui.add_argument("--by", help="the SME promoting the case (default: git user, else login name)")
    tui.set_defaults(handler=run)
