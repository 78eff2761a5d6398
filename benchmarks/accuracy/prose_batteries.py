"""Damage and recall on the prose batteries (`corpora/data/prose/`): agent-register text with no personal
value (any change is damage) and with planted values (recall per type).

    .venv/bin/python -m benchmarks.accuracy.prose_batteries [--root DIR]

`--root` scores the `scrubbers` of another checkout (a `git worktree` of an older commit) with this one's
batteries, for a figure before and after a change. A planted value leaks when one of its words of two or
more characters (generic address and mail words aside) stands in the output more often than in the text
without it, or when its digits (six or more) survive in the output's digits.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "corpora" / "data" / "prose"
_WORD = re.compile(r"\w+")
_PLACEHOLDER = re.compile(r"<[A-Z_]+_\d+>")
# words a value shares with ordinary text: street and mail words, titles, particles
_GENERIC = frozenset("""
street st road rd avenue ave lane ln drive dr way apt apartment unit flat floor suite block box po no
rue calle via ul rua at dot com org net co uk gmail yahoo outlook mr mrs ms van der den de da dos di bin al
""".split())


def _load(name: str) -> list[dict]:
    with (DATA / f"{name}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _count(word: str, text: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE))


def _digits(text: str) -> str:
    return re.sub(r"\D", "", _PLACEHOLDER.sub(" ", text))


def leaked(value: str, text: str, out: str) -> bool:
    rest = text.replace(value, " ")
    words = {w for w in _WORD.findall(value) if len(w) >= 2 and w.lower() not in _GENERIC}
    if any(_count(w, out) > _count(w, rest) for w in words):
        return True
    digits = _digits(value)
    return len(digits) >= 6 and digits in _digits(out) and digits not in _digits(rest)


def batteries() -> list[str]:
    """The batteries in `corpora/data/prose/`, by file name."""
    return sorted(path.stem for path in DATA.glob("*.jsonl"))


def score(names: list[str], scrub) -> dict:  # type: ignore[no-untyped-def]
    """Per battery: texts changed (keep) or values found by type (leak), and what went wrong: the keep
    texts changed (text, output) and the values missed (value, type, output)."""
    figures = {}
    for name in names:
        records = _load(name)
        outs = [scrub(r["text"]) for r in records]
        if name.startswith("keep"):
            wrong = [(record["text"], out) for record, out in zip(records, outs) if out != record["text"]]
            figures[name] = {"texts": len(records), "changed": len(wrong), "wrong": wrong}
            continue
        found, planted, missed = Counter(), Counter(), []
        for record, out in zip(records, outs):
            for value, kind in record["values"]:
                planted[kind] += 1
                hidden = not leaked(value, record["text"], out)
                found[kind] += hidden
                if not hidden:
                    missed.append((value, kind, out))
        figures[name] = {"values": sum(planted.values()), "found": sum(found.values()), "wrong": missed,
                         "by_type": {k: f"{found[k]}/{planted[k]}" for k in sorted(planted)}}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", help="a checkout whose `scrubbers` to score (default: this one)")
    parser.add_argument("--battery", action="append", choices=batteries())
    parser.add_argument("--misses", type=int, default=0, metavar="N",
                        help="also print up to N changed keep texts and missed values per battery")
    args = parser.parse_args()
    if args.root:
        sys.path.insert(0, str(Path(args.root).resolve()))
        for module in [m for m in sys.modules if m == "scrubbers" or m.startswith("scrubbers.")]:
            del sys.modules[module]
    from scrubbers import ScrubEngine

    engine = ScrubEngine()
    figures = score(args.battery or batteries(), lambda text: engine.scrub_text(text, engine.new_context()))
    for name, figure in figures.items():
        if "changed" in figure:
            share = figure["changed"] / figure["texts"]
            print(f"{name}: {figure['changed']} of {figure['texts']} texts changed ({share:.1%})")
        else:
            share = figure["found"] / figure["values"]
            print(f"{name}: {figure['found']} of {figure['values']} values found ({share:.1%})")
            print("  " + ", ".join(f"{kind} {ratio}" for kind, ratio in figure["by_type"].items()))
        for wrong in figure["wrong"][:args.misses]:
            print("    " + " | ".join(repr(part) for part in wrong))


if __name__ == "__main__":
    main()
