"""`promote draft`: a draft portable-v1 case from one trace turn (or every matching turn)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from promote.case.ids import ID_PATTERN
from promote.errors import PromoteError


def run(args: argparse.Namespace) -> int:
    if not args.all:
        return _draft(args)  # a stream is read up to the trace, its rest hashed unread (the digest)
    from promote.ingest.sources import as_regular_file

    # --all writes each case as it reads, and each names the export's sha256: a stream is copied first.
    with as_regular_file(args.file) as path:
        args.file = str(path)
        return _draft(args)


def _draft(args: argparse.Namespace) -> int:
    from promote.draft import DraftOptions, draft_all, draft_from_export, draft_text, write_draft
    from promote.draft.export import case_path

    case_id = _case_id(args)
    options = DraftOptions(case_id=case_id, by=args.by, cases_dir=args.cases_dir, policy=args.policy,
                           repo=_repo_start(args))
    if args.all:
        if args.cases_dir is None:
            raise PromoteError("--all writes one case per turn and needs --cases-dir DIR")
        notes = []
        written = draft_all(Path(args.file), cases_dir=args.cases_dir, tool=args.tool, agent=args.agent,
                            options=options, notes=notes, force=args.force)
        for path in written:
            print(f"wrote {path}")
        for item in notes:
            print(f"note: {item.message}", file=sys.stderr)
        return 0
    if args.trace is None:
        raise PromoteError("which trace? pass --trace ID (promote traces FILE lists them) or --all")
    result = draft_from_export(Path(args.file), trace_id=args.trace, turn=args.turn, options=options)
    if args.output is None:
        if result.duplicate_of:
            print(f"note: {result.duplicate_of} already has this input and tool trajectory; "
                  "consider editing it instead", file=sys.stderr)
        sys.stdout.write(draft_text(result))
    else:
        out = case_path(result, args.output)
        if result.duplicate_of:
            existing = Path(result.duplicate_of)
            if not args.force:
                print(f"kept {existing}: it already has this input and tool trajectory "
                      "(edit it, or pass --force to replace it)", file=sys.stderr)
                return 0
            if args.output.is_dir() and re.fullmatch(ID_PATTERN, existing.stem):
                out, result.case.id = existing, existing.stem  # --force replaces it rather than adding a copy
        saved = write_draft(result, out, force=args.force)
        print(f"wrote {saved.path}", file=sys.stderr)
    for item in result.notes:
        print(f"todo: {item.field + ': ' if item.field else ''}{item.message}", file=sys.stderr)
    return 0


def _case_id(args: argparse.Namespace) -> str | None:
    """`--id`, checked against the id pattern; else the stem of `-o NAME.yaml` when it is a valid id."""
    if args.id is not None:
        if not re.fullmatch(ID_PATTERN, args.id):
            raise PromoteError(f"--id {args.id} is not a case id: it must look like <pillar>.<topic>_<NNN> "
                               f"({ID_PATTERN})", hint="e.g. --id hr.pto_carryover_001")
        return args.id
    output = args.output
    if output is not None and output.suffix in (".yaml", ".yml") and not output.is_dir():
        if re.fullmatch(ID_PATTERN, output.stem):
            return output.stem
    return None


def _repo_start(args: argparse.Namespace) -> Path | None:
    """Where the eval repo is looked for: --cases-dir, else the folder of -o, else the current folder."""
    if args.cases_dir is not None:
        return args.cases_dir
    if args.output is not None:
        return args.output if args.output.is_dir() else args.output.parent
    return None


def add_parser(commands: argparse._SubParsersAction) -> None:
    draft = commands.add_parser("draft", help="build a draft portable-v1 case from one trace turn",
                                description="Build a draft portable-v1 case from one trace "
                                            "turn (docs/cli.md).")
    draft.add_argument("file", metavar="FILE", help="a trace export")
    draft.add_argument("--trace", help="trace id (see promote traces FILE)")
    draft.add_argument("--turn", type=int, default=0, help="turn index in the trace (default 0)")
    draft.add_argument("-o", "--output", type=Path,
                       help="write the case here: a file (its name, if a valid id, is the id) or a folder "
                            "(default: print it)")
    draft.add_argument("--id", help="case id (default: <pillar>.<topic>_<NNN>, next free number)")
    draft.add_argument("--by", help="the SME promoting the case (default: git user, else login name)")
    draft.add_argument("--cases-dir", type=Path,
                       help="the eval repo's cases folder (ids, duplicates, entities)")
    draft.add_argument("--policy", type=Path, help="scrub policy file (default: the bundled policy)")
    draft.add_argument("--force", action="store_true",
                       help="overwrite an existing case file; write even when a case with the same input and "
                            "tools exists")
    draft.add_argument("--all", action="store_true", help="draft every matching turn into --cases-dir")
    draft.add_argument("--tool", help="with --all: only turns that call this tool")
    draft.add_argument("--agent", help="with --all: only turns of this agent")
    draft.set_defaults(handler=run)
