"""`promote traces`: list the traces and turns in trace exports (scrubbed by default)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from promote.errors import PromoteError


def run(args: argparse.Namespace) -> int:
    from promote.listing import list_traces, render_table

    scrub = None
    if not args.no_scrub:
        from promote.scrub_trace import scrub_trace
        from promote.scrubbing import engine as scrub_engine

        engine = scrub_engine(args.policy)
        scrub = lambda trace: scrub_trace(trace, engine)[0]  # noqa: E731
    listing = list_traces(args.files, scrub=scrub)
    if args.json:
        print(json.dumps(listing.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        print(render_table(listing))
    return 0



def add_parser(commands: argparse._SubParsersAction) -> None:
    traces = commands.add_parser("traces", help="list the traces and turns found in trace exports")
    traces.add_argument("files", nargs="+", metavar="FILE", help="trace exports (any supported format; - for stdin)")
    traces.add_argument("--json", action="store_true", help="print the JSON shape of docs/cli.md")
    traces.add_argument("--no-scrub", action="store_true", help="show raw text (it may hold personal data)")
    traces.add_argument("--policy", type=Path, help="scrub policy file (default: the bundled policy)")
    traces.set_defaults(handler=run)
