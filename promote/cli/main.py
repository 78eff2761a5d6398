"""The `promote` command line: parse, call one library function, print (docs/cli.md).

Exit codes: 0 success, 1 a check failed (validate, compile --check), 2 bad input with one line on
stderr naming file, line and problem. Nothing a user can cause ends in a traceback, and an unexpected
error prints its type only, since its message could carry trace content.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Callable, Sequence

from promote.errors import PromoteError

Handler = Callable[[argparse.Namespace], int]

# One module per subcommand under promote/cli/, each with `add_parser(commands)`; the order is --help's.
COMMANDS = ("traces", "draft", "validate", "scrub", "tui", "pr", "compile", "check")
NOT_YET = {
    "tui": "the terminal UI",
    "pr": "commit cases on a branch of the eval repo and open a PR",
    "compile": "write each routed backend's artifact",
    "check": "score agent traces against golden cases",
}


def _not_yet(name: str) -> Handler:
    def handler(_: argparse.Namespace) -> int:
        raise PromoteError(f"promote {name} is not yet available in this version")

    return handler


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="promote", description="From production agent trace to scrubbed golden eval case.",
        epilog="The command line, its exit codes and JSON shapes: docs/cli.md; the case format: "
               "docs/case-format.md; the scrub policy: docs/scrub-policy.md.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"promote.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"promote.cli.{name}":
                raise
            sub = commands.add_parser(name, help=f"{NOT_YET[name]} (not yet available)")
            sub.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
            sub.set_defaults(handler=_not_yet(name))
            continue
        module.add_parser(commands)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("promote")
    except PackageNotFoundError:
        return "unknown (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except PromoteError as exc:
        print(f"promote {args.command}: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"promote {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - last line of defence: never a traceback, never content
        if os.environ.get("PROMOTE_DEBUG"):
            raise
        print(
            f"promote {args.command}: internal error ({type(exc).__name__}); "
            "rerun with PROMOTE_DEBUG=1 for details and report it",
            file=sys.stderr,
        )
        return 3


if __name__ == "__main__":
    sys.exit(main())
