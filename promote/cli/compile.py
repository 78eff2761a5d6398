"""`promote compile`: write each routed backend's artifacts for golden cases, or check they are in sync."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    from promote.compile.run import compile_paths, parse_targets, render_log

    report = compile_paths(args.paths, Path(args.out), targets=parse_targets(args.target),
                           policy_path=Path(args.policy) if args.policy else None, check=args.check,
                           pii_scan=not args.no_pii_scan)
    print(render_log(report))
    if args.check and report.stale:
        for line in report.stale:
            print(f"{Path(args.out) / line.path}: {line.result} (run promote compile without --check)",
                  file=sys.stderr)
        return 1
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    compile_ = commands.add_parser(
        "compile",
        help="write each routed backend's artifacts (ADK eval, RAGAS, numeric oracle, safety probe)",
    )
    compile_.add_argument("paths", nargs="+", metavar="CASE|DIR",
                          help="case files or folders (recursive *.yaml)")
    compile_.add_argument("-o", "--out", required=True, metavar="DIR", help="the folder the artifacts go to")
    compile_.add_argument("--target", metavar="T,T",
                          help="only these targets (default: all): adk,ragas,numeric,safety")
    compile_.add_argument("--policy", metavar="FILE",
                          help="suite policy (default: the repo's evals/policy.yaml, else the shipped one)")
    compile_.add_argument("--check", action="store_true",
                          help="write nothing; exit 1 naming each stale, missing or orphaned artifact")
    compile_.add_argument("--no-pii-scan", action="store_true",
                          help="skip the residual-PII scan of the cases (promote validate runs it too)")
    compile_.set_defaults(handler=run)
