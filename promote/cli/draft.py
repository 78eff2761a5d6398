"""`promote draft`: a draft portable-v1 case from one trace turn (or every matching turn)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from promote.errors import PromoteError


def run(args: argparse.Namespace) -> int:
    from promote.ingest.reader import as_regular_file

    # A draft reads its export twice (the traces, then the sha256 for provenance): a stream is copied.
    with as_regular_file(args.file) as path:
        args.file = str(path)
        return _draft(args)


def _draft(args: argparse.Namespace) -> int:
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



def add_parser(commands: argparse._SubParsersAction) -> None:
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
    draft.set_defaults(handler=run)
