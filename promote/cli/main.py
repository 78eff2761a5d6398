"""The `promote` command line: parse, call one library function, print (shared/spec/cli.md).

Exit codes: 0 success, 1 a check failed (validate, compile --check), 2 bad input with one line on
stderr naming file, line and problem. Nothing a user can cause ends in a traceback, and an unexpected
error prints its type only, since its message could carry trace content.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable, Sequence

from promote.errors import PromoteError

Handler = Callable[[argparse.Namespace], int]


def _cmd_validate(args: argparse.Namespace) -> int:
    from promote.case.validate import render_report, validate_paths

    report = validate_paths(args.paths, residual_scan=_residual_scan(args))
    if args.json:
        print(json.dumps(report.model_dump(mode="json") | {"ok": report.ok}, indent=2, ensure_ascii=False))
    else:
        print(render_report(report))
    for result in report.files:
        for problem in result.problems:
            if problem.rule == "bad-input":
                print(f"{problem.where}: {problem.message}", file=sys.stderr)
    if report.bad_input:
        return 2
    return 0 if report.ok else 1


def _residual_scan(args: argparse.Namespace):
    if getattr(args, "no_pii_scan", False):
        return None
    from promote.case.pii import residual_scan_for_validate

    return residual_scan_for_validate


def _not_yet(name: str) -> Handler:
    def handler(_: argparse.Namespace) -> int:
        raise PromoteError(f"promote {name} is not yet available in this version")

    return handler


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="promote", description="From production agent trace to scrubbed golden eval case."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    validate = commands.add_parser("validate", help="validate cases: schema, portable-v1 rules, residual PII")
    validate.add_argument("paths", nargs="+", metavar="PATH", help="case files or folders (recursive *.yaml)")
    validate.add_argument("--json", action="store_true", help="print the report as JSON")
    validate.add_argument("--no-pii-scan", action="store_true", help="skip the residual-PII scan")
    validate.set_defaults(handler=_cmd_validate)

    from promote.cli.trace_commands import add_trace_commands

    add_trace_commands(commands)

    for name, text in (
        ("tui", "the terminal UI (not yet available)"),
        ("pr", "commit cases on a branch of the eval repo and open a PR (not yet available)"),
        ("compile", "write each routed backend's artifact (not yet available)"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
        sub.set_defaults(handler=_not_yet(name))
    return parser


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
