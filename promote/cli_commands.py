"""Trace-side subcommands (traces, draft, scrub): argument parsing and one library call each."""

from __future__ import annotations

import argparse

from promote.errors import PromoteError


def _not_yet(name: str):
    def handler(_: argparse.Namespace) -> int:
        raise PromoteError(f"promote {name} is not yet available in this version")

    return handler


def add_trace_commands(commands: argparse._SubParsersAction) -> None:
    for name, text in (
        ("traces", "list the traces and turns in trace exports"),
        ("draft", "build a draft case from one trace turn"),
        ("scrub", "batch-scrub trace exports"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
        sub.set_defaults(handler=_not_yet(name))
