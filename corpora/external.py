"""Labelled PII text others wrote (`corpora/data/`), and how a scrubber's output on it is scored.

The scoring is the shared development tool's (`pii_external.py`), so figures agree with it:
- entity recall per label: a value leaks when a piece of it survives as a whole word in the output
  (PERSON: any name token of 2+ characters, particles aside; addresses: any token holding a digit, or
  the street line whole; every other label: the value whole);
- damage: words of 3+ letters outside every labelled span that no longer occur.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
SETS = ("synth_v2", "wnut17_train", "wnut17_dev")
_PARTICLES = frozenset(
    "van der den de del della di da du la le von bin al el dos das y e of the jr sr".split())
_WORD = re.compile(r"\w+")


def load(name: str) -> list[dict]:
    """The records of one set (`SETS`)."""
    with (DATA / f"{name}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _pieces(value: str, label: str) -> list[str]:
    tokens = _WORD.findall(value)
    if label == "PERSON":
        return [t for t in tokens if len(t) >= 2 and t.lower() not in _PARTICLES]
    return [t for t in tokens if any(c.isdigit() for c in t)]


def leaked(value: str, label: str, out: str, out_words: Counter) -> bool:
    """Does a piece of the personal value `value` survive in the output `out`?"""
    value = value.strip()
    if label in ("ADDRESS", "STREET_ADDRESS"):
        street = value.splitlines()[0].strip(" ,") if value else ""
        return (len(street) >= 6 and street in out) or any(out_words[p] > 0 for p in _pieces(value, label))
    if label == "PERSON":
        return any(out_words[p] > 0 for p in _pieces(value, label))
    return value in out


def score(records: list[dict], outputs: list[str]) -> dict:
    """Recall overall and per label, and damage, of `outputs` (one per record, in order)."""
    found, total = Counter(), Counter()
    kept_words = damaged = 0
    for record, out in zip(records, outputs):
        text, out_words = record["text"], Counter(_WORD.findall(out))
        for start, end, label in record["pii"]:
            total[label] += 1
            found[label] += not leaked(text[start:end], label, out, out_words)
        inside = [(start, end) for start, end, _ in record["entities"]]
        outside = Counter(m.group() for m in re.finditer(r"[^\W\d_]{3,}", text)
                          if not any(s <= m.start() < e for s, e in inside))
        kept_words += sum(outside.values())
        damaged += sum(max(0, n - out_words[w]) for w, n in outside.items())
    return {"recall": sum(found.values()) / max(sum(total.values()), 1),
            "by_label": {label: (found[label] / total[label], total[label]) for label in sorted(total)},
            "damage": damaged / max(kept_words, 1)}
