"""`promote traces`: list the traces and turns in trace exports (scrubbed by default)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path



def run(args: argparse.Namespace) -> int:
    from promote.listing import list_traces, render_table
    from promote.scrub_trace import errors_scrubbed, scrub_messages

    scrub = None
    if not args.no_scrub:
        from promote.scrubbing import engine as scrub_engine
        from promote.source import scrub_trace

        engine = scrub_engine(args.policy)
        scrub = lambda trace: scrub_trace(trace, engine).trace  # noqa: E731
    with errors_scrubbed(None if scrub is None else lambda: engine):  # a read error may quote the export
        listing = list_traces(args.files, scrub=scrub)
    if scrub is not None:  # skip reasons may quote a bad value: they pass the same scrubber as data
        listing.skipped = scrub_messages(listing.skipped, engine)
        listing.without_turns = scrub_messages(listing.without_turns, engine)
    if args.json:
        print(json.dumps(listing.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        print(render_table(listing))
    if listing.turn_count == 0:
        why = "; ".join(note.why for note in listing.without_turns[:3]) or "the files hold no trace"
        print(f"promote traces: no turn found in {', '.join(map(str, args.files))}: {why}", file=sys.stderr)
        return 1
    return 0


def _formats_read() -> str:
    from promote.trace_formats import FORMAT_NAMES

    lines = [f"  {name:<11} {about}" for name, about in FORMAT_NAMES.items()]
    return (
        "formats read (sniffed from content, never the file name; any of them gzip- or zstd-compressed):\n"
        + "\n".join(lines)
        + "\n\nturns rebuilt for: Monocle, OpenInference, Google ADK 1.x and 2.x, Langfuse, OpenTelemetry "
        "GenAI.\nexit 0 with turns, 1 when no input yielded a turn (the reason is said per trace), 2 on "
        "bad input."
    )


def add_parser(commands: argparse._SubParsersAction) -> None:
    traces = commands.add_parser("traces", help="list the traces and turns found in trace exports",
                                 description="List the traces and turns found in trace exports.",
                                 epilog=_formats_read(), formatter_class=argparse.RawDescriptionHelpFormatter)
    traces.add_argument("files", nargs="+", metavar="FILE",
                        help="trace exports (any supported format; - for stdin)")
    traces.add_argument("--json", action="store_true", help="print the JSON shape of docs/cli.md")
    traces.add_argument("--no-scrub", action="store_true", help="show raw text (it may hold personal data)")
    traces.add_argument("--policy", type=Path, help="scrub policy file (default: the bundled policy)")
    traces.set_defaults(handler=run)
