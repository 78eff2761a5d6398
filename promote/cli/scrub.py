"""`promote scrub`: batch-scrub whole exports, keeping their format and compression."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from promote.errors import PromoteError
from promote.cli.args import at_least


def run(args: argparse.Namespace) -> int:
    from promote.batch.output import check_report_path, plan_outputs
    from promote.batch.progress import progress_bar
    from promote.batch.run import ScrubOptions, print_summary, scrub_exports
    from promote.batch.workers import keep_batch_gc
    from promote.fsutil import atomic_write_text

    from promote.scrubbing import use_engine

    if args.engine != "fast" and args.dask:
        raise PromoteError("--engine reference runs on this machine only", hint="drop --dask")
    use_engine(args.engine)
    report_path = check_report_path(args.report, args.inputs) if args.report else None
    if not args.force and not args.resume:
        existing = [str(target) for _, target in plan_outputs(args.inputs, args.output)
                    if target != "-" and Path(target).is_file()]
        if existing:
            raise PromoteError("the output is already there", where=existing[0],
                               hint="pass --force to replace it, or choose another -o")

    # default: all cores (ScrubOptions)
    chosen = {"workers": args.workers} if args.workers is not None else {}
    options = ScrubOptions(
        window=args.window, block_bytes=int(args.block_mb * (1 << 20)) or None, policy_path=args.policy,
        key_file=args.key_file, dask=args.dask, resume=args.resume, strict=args.strict, **chosen,
    )
    keep_batch_gc()  # this process ends after the run
    with progress_bar(enabled=sys.stderr.isatty() and args.output != "-") as progress:
        report = scrub_exports(args.inputs, args.output, options, progress=progress)
    print_summary(report)
    if report_path is not None:
        atomic_write_text(report_path, json.dumps(report.model_dump(mode="json"), indent=2) + "\n")
    return 0



def add_parser(commands: argparse._SubParsersAction) -> None:
    scrub = commands.add_parser("scrub", help="batch-scrub trace exports, keeping their format",
                                description="Batch-scrub trace exports, keeping their format (docs/cli.md, "
                                            "docs/scrub-policy.md).")
    scrub.add_argument("inputs", nargs="+", metavar="INPUT", help="trace exports; - for stdin")
    scrub.add_argument("-o", "--output", required=True,
                       help="output file (one input), folder (several), or -")
    scrub.add_argument("--workers", type=at_least(1, int), help="worker processes (default: all cores)")
    scrub.add_argument("--window", type=at_least(1, int), default=1000,
                       help="records per block at most; placeholders are consistent within a "
                            "trace inside a block")
    scrub.add_argument("--block-mb", type=at_least(0, float), default=1.0,
                       help="MB of input per block (cut between traces where possible; default 1); "
                            "0: --window alone")
    scrub.add_argument("--policy", type=Path, help="scrub policy file (default: the bundled policy)")
    scrub.add_argument("--key-file", type=Path, help="HMAC key: placeholders stable across traces and runs")
    scrub.add_argument("--report", help="write a JSON report (counts, never values)")
    scrub.add_argument("--dask", metavar="SCHEDULER", help="run on a Dask cluster: an address, or 'local'")
    scrub.add_argument("--resume", action="store_true",
                       help="skip inputs an interrupted run already finished")
    scrub.add_argument("--strict", action="store_true", help="stop at the first bad record")
    scrub.add_argument("--force", action="store_true", help="replace an output that is already there")
    scrub.add_argument("--engine", choices=("fast", "reference"), default="fast",
                       help="fast (default), or reference: plain Presidio text by text, none of the speed "
                            "machinery, the same output (slow; for debugging)")
    scrub.set_defaults(handler=run)
