"""`promote validate`: schema, the portable-v1 rules and residual PII, for case files and folders."""

from __future__ import annotations

import argparse
import json
import sys


def run(args: argparse.Namespace) -> int:
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


def add_parser(commands: argparse._SubParsersAction) -> None:
    validate = commands.add_parser("validate", help="validate cases: schema, portable-v1 rules, residual PII")
    validate.add_argument("paths", nargs="+", metavar="PATH", help="case files or folders (recursive *.yaml)")
    validate.add_argument("--json", action="store_true", help="print the report as JSON")
    validate.add_argument("--no-pii-scan", action="store_true", help="skip the residual-PII scan")
    validate.set_defaults(handler=run)
