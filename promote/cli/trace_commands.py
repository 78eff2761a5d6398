"""Trace-side subcommands (traces, scrub, draft): argument parsing and one library call each."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

from promote.errors import PromoteError


def _cmd_traces(args: argparse.Namespace) -> int:
    from promote.listing import list_traces, render_table

    scrub = None
    if not args.no_scrub:
        from promote.scrub_trace import scrub_trace
        from scrubbers import ScrubEngine, load_policy

        engine = ScrubEngine(load_policy(args.policy))
        scrub = lambda trace: scrub_trace(trace, engine)[0]  # noqa: E731
    listing = list_traces(args.files, scrub=scrub)
    if args.json:
        print(json.dumps(listing.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        print(render_table(listing))
    return 0


def _cmd_scrub(args: argparse.Namespace) -> int:
    from promote.batch.progress import progress_bar
    from promote.batch.run import ScrubOptions, print_summary, scrub_exports

    chosen = {"workers": args.workers} if args.workers is not None else {}  # default: all cores (ScrubOptions)
    options = ScrubOptions(
        window=args.window, block_bytes=int(args.block_mb * (1 << 20)) or None, policy_path=args.policy, key_file=args.key_file, dask=args.dask,
        resume=args.resume, strict=args.strict, **chosen,
    )
    with progress_bar(enabled=sys.stderr.isatty() and args.output != "-") as progress:
        report = scrub_exports(args.inputs, args.output, options, progress=progress)
    print_summary(report)
    if args.report:
        Path(args.report).write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n")
    return 0


def _cmd_draft(args: argparse.Namespace) -> int:
    from promote.draft import DraftOptions, draft_all, draft_from_export, write_draft

    options = DraftOptions(case_id=args.id, by=args.by, cases_dir=args.cases_dir)
    if args.all:
        if args.cases_dir is None:
            raise PromoteError("--all writes one case per turn and needs --cases-dir DIR")
        notes: list[str] = []
        for path in draft_all(Path(args.file), cases_dir=args.cases_dir, tool=args.tool, agent=args.agent,
                              options=options, notes=notes):
            print(f"wrote {path}")
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
        return 0
    if args.trace is None:
        raise PromoteError("which trace? pass --trace ID (promote traces FILE lists them) or --all")
    result = draft_from_export(Path(args.file), trace_id=args.trace, turn=args.turn, options=options)
    if result.duplicate_of:
        print(f"note: {result.duplicate_of} already has this input and tool trajectory; "
              "consider editing it instead", file=sys.stderr)
    text = write_draft(result, args.output, force=args.force)
    if args.output is None:
        sys.stdout.write(text)
    else:
        print(f"wrote {args.output}", file=sys.stderr)
    for note in result.notes:
        print(f"todo: {note}", file=sys.stderr)
    return 0


def add_trace_commands(commands: argparse._SubParsersAction) -> None:
    traces = commands.add_parser("traces", help="list the traces and turns found in trace exports")
    traces.add_argument("files", nargs="+", metavar="FILE", help="trace exports (any supported format; - for stdin)")
    traces.add_argument("--json", action="store_true", help="print the JSON shape of shared/spec/cli.md")
    traces.add_argument("--no-scrub", action="store_true", help="show raw text (it may hold personal data)")
    traces.add_argument("--policy", type=Path, help="scrub policy file (default: the bundled policy)")
    traces.set_defaults(handler=_cmd_traces)

    scrub = commands.add_parser("scrub", help="batch-scrub trace exports, keeping their format")
    scrub.add_argument("inputs", nargs="+", metavar="INPUT", help="trace exports; - for stdin")
    scrub.add_argument("-o", "--output", required=True, help="output file (one input), folder (several), or -")
    scrub.add_argument("--workers", type=_at_least(1, int), help="worker processes (default: all cores)")
    scrub.add_argument("--window", type=_at_least(1, int), default=1000,
                       help="records per block at most; placeholders are consistent within a trace inside a block")
    scrub.add_argument("--block-mb", type=_at_least(0, float), default=1.0,
                       help="MB of input per block (cut between traces where possible; default 1); 0: --window alone")
    scrub.add_argument("--policy", type=Path, help="scrub policy file (default: the bundled policy)")
    scrub.add_argument("--key-file", type=Path, help="HMAC key: placeholders stable across traces and runs")
    scrub.add_argument("--report", help="write a JSON report (counts, never values)")
    scrub.add_argument("--dask", metavar="SCHEDULER", help="run on a Dask cluster: an address, or 'local'")
    scrub.add_argument("--resume", action="store_true", help="skip inputs an interrupted run already finished")
    scrub.add_argument("--strict", action="store_true", help="stop at the first bad record")
    scrub.set_defaults(handler=_cmd_scrub)

    draft = commands.add_parser("draft", help="build a draft portable-v1 case from one trace turn")
    draft.add_argument("file", metavar="FILE", help="a trace export")
    draft.add_argument("--trace", help="trace id (see promote traces FILE)")
    draft.add_argument("--turn", type=int, default=0, help="turn index in the trace (default 0)")
    draft.add_argument("-o", "--output", type=Path, help="write the case here (default: print it)")
    draft.add_argument("--id", help="case id (default: <pillar>.<topic>_<NNN>, next free number)")
    draft.add_argument("--by", help="the SME promoting the case (default: git user, else login name)")
    draft.add_argument("--cases-dir", type=Path, help="the eval repo's cases folder (ids, duplicates, entities)")
    draft.add_argument("--force", action="store_true", help="overwrite an existing case file")
    draft.add_argument("--all", action="store_true", help="draft every matching turn into --cases-dir")
    draft.add_argument("--tool", help="with --all: only turns that call this tool")
    draft.add_argument("--agent", help="with --all: only turns of this agent")
    draft.set_defaults(handler=_cmd_draft)


def _at_least(minimum: float, kind: type) -> Callable[[str], Any]:
    """An argparse type: a number of `kind` no smaller than `minimum` (argparse reports anything else)."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {text}")
        return value

    return parse
