"""`promote check`: score agent traces against golden cases with the deterministic evaluators.

Exit 0 when every paired case passed and every gate was met, 1 when a case failed or a gate was
missed, 2 on bad input (one line naming the file and the problem).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    from promote.check import check_paths, render_report, write_junit

    report = check_paths(args.cases, args.trace, turn=args.turn, min_pass_rates=dict(args.min_pass_rate),
                         policy=args.policy, junit=args.junit)
    if args.junit is not None:
        write_junit(report, args.junit)
    if args.json:
        print(json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        print(render_report(report), end="")
    return 0 if report.ok else 1


def _gate(text: str) -> tuple[str, float]:
    label, sep, rate = text.partition("=")
    try:
        value = float(rate.rstrip("%")) / (100 if rate.endswith("%") else 1)
    except ValueError:
        value = -1.0
    if not sep or not label or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not LABEL=RATE, a rate from 0 to 1 (or 0% to 100%)")
    return label, value


def add_parser(commands: argparse._SubParsersAction) -> None:
    from promote.cli.args import at_least

    check = commands.add_parser("check", help="score agent traces against golden cases (deterministic)")
    check.add_argument("cases", nargs="+", metavar="CASE|DIR",
                       help="case files or folders (recursive *.yaml)")
    check.add_argument("--trace", nargs="+", action="extend", required=True, metavar="FILE",
                       help="trace exports (any format `promote traces` reads)")
    check.add_argument("--turn", type=at_least(0, int), metavar="N",
                       help="pair cases no trace id or input pairs with the N-th turn read (0-based)")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument("--junit", type=Path, metavar="FILE", help="also write the report as JUnit XML")
    check.add_argument("--min-pass-rate", type=_gate, action="append", default=[], metavar="LABEL=R",
                       help="fail unless LABEL passes at least this share of its conclusive results")
    check.add_argument("--policy", type=Path, help="scrub policy file (default: the bundled policy)")
    check.set_defaults(handler=run)
