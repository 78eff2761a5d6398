"""Markdown tables of `scrub_accuracy --json` runs: per set, main beside held-out, default Presidio
beside ours (the tables of `docs/perf-history.md`).

    .venv/bin/python -m benchmarks.accuracy.scrub_accuracy_tables benchmarks/out/acc_*.json
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f} %"


def tables(paths: list[Path]) -> str:
    runs: dict[str, dict[str, dict]] = defaultdict(dict)
    for path in paths:
        data = json.loads(path.read_text())
        runs[data["corpus"].get("set", "hr")][data["corpus"]["phrasing"]] = data
    out = []
    for name in sorted(runs):
        phrasings = [p for p in ("main", "heldout") if p in runs[name]]
        columns = [(p, e["engine"], e) for p in phrasings for e in runs[name][p]["engines"]]
        corpus = runs[name][phrasings[0]]["corpus"]
        out.append(f"#### Set `{name}` ({corpus['traces']} traces, {corpus['strings']} strings per phrasing, "
                   f"seed {corpus['seed']})\n")
        out.append("| | " + " | ".join(f"{engine}, {p}" for p, engine, _ in columns) + " |")
        out.append("|---" * (len(columns) + 1) + "|")
        types = list(columns[0][2]["recall_by_type"])
        for t in types:
            cells = []
            for _, _, e in columns:
                cell = e["recall_by_type"][t]
                cells.append(f"{_pct(cell['recall'])} of {cell['total']}" if cell["total"] else "–")
            out.append(f"| recall {t} | " + " | ".join(cells) + " |")
        for t in types:  # strict: the exact value occurs nowhere in the output string (older runs: n/a)
            cells = [_pct(e["recall_by_type"][t].get("recall_strict"))
                     if e["recall_by_type"][t]["total"] else "–" for _, _, e in columns]
            out.append(f"| strict recall {t} | " + " | ".join(cells) + " |")
        for key, label in (("recall", "**recall overall**"), ("recall_strict", "strict recall"),
                           ("precision", "**precision**"), ("keep_damage", "**keep damage**")):
            out.append(f"| {label} | " + " | ".join(_pct(e[key]) for _, _, e in columns) + " |")
        labels = [t for t in types if any(t in e["precision_by_label"] for _, _, e in columns)]
        for t in labels:  # precision of the replacements written under a PII type's own placeholder
            cells = [_pct(e["precision_by_label"][t]["precision"]) if t in e["precision_by_label"] else "–"
                     for _, _, e in columns]
            out.append(f"| precision {t} | " + " | ".join(cells) + " |")
        worst = []
        for _, _, e in columns:
            damage = e["keep_damage_by_category"].items()
            rows = sorted(((v["rate"] or 0, c) for c, v in damage if v["total"]), reverse=True)[:3]
            worst.append(", ".join(f"{c} {100 * r:.1f}" for r, c in rows if r) or "none")
        out.append("| keep damage, worst (%) | " + " | ".join(worst) + " |")
        out.append("| strings/s | " + " | ".join(str(e["strings_per_s"]) for _, _, e in columns) + " |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(tables([Path(p) for p in sys.argv[1:]]))
