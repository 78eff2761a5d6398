"""What the speed goal leaves for scrubbing once the text is analysed: a lower bound (a benchmark).

The goal of issues 11 and 12 is `promote scrub --workers 1` (b) within 1.5x of the NER floor (d) of
`benchmarks/speed/scrub_bench`. Any scrubber built on this engine has to analyse the texts it writes, so this
runs a third child beside those two, on the same export:

  (e) analysis  start-up, the engine with its model, the file read as the floor reads it (JSON per line,
                every string attribute), then the engine's analyzer (spaCy NER and the tuned Presidio
                recognizers) over exactly the texts (b) analyses on this file, in the batches (b) makes:
                nothing else (no plans, placeholders, learning, output check, record rewriting, writing)

The texts are recorded from an in-process run of (b) first (`--record`, into benchmarks/out/). (e)/(d) is
what the analysis alone costs against the floor; 1.5 (d) - (e) is the time the goal leaves for everything
else a fail-closed scrub does, against (b) - (e), what it takes now. The three children run alternately
`--repeat` times (this host drifts; see `benchmarks/speed/scrub_ratio`); (e) is also split into its time in
spaCy's `nlp.pipe` (NER) and in the batch recognizers (`recognize`, `settle`). It also says how many of the
tokens of those texts, as written, are in a sentence seen before, which NER by sentence does not run again
(`scrubbers.speed.sentences`), and how many sentences they hold. NER reads them masked
(`scrubbers.speed.masking`), where more sentences repeat: what NER runs is fewer still.

    .venv/bin/python -m benchmarks.speed.scrub_bound --size-mb 100 --repeat 2 \
        --json benchmarks/out/scrub_bound.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.gen_exports import generate
from benchmarks.speed.scrub_bench import OUT, PYTHON, child_result, iter_spans, measure, string_attributes
from benchmarks.speed.scrub_ratio import GOAL, export_arguments, pair


# --- recording what (b) analyses ----------------------------------------------------------------------
def record(path: str, target: Path) -> dict:
    """Scrub `path` in this process as `promote scrub --workers 1` does, keeping every analyzer call."""
    import promote.batch.run as run
    from scrubbers.analysis.analyzer import Analyzer

    calls: list[tuple[str, list[str]]] = []
    names = ("analyze_batch", "analyze", "analyze_without_ner")
    originals = {name: getattr(Analyzer, name) for name in names}

    def keeping(name: str):  # type: ignore[no-untyped-def]
        def call(self, argument):  # type: ignore[no-untyped-def]
            calls.append((name, list(argument) if name == "analyze_batch" else [argument]))
            return originals[name](self, argument)
        return call

    try:
        for name in originals:
            setattr(Analyzer, name, keeping(name))
        with tempfile.TemporaryDirectory() as out:
            run.scrub_exports([path], str(Path(out) / "out.jsonl"), run.ScrubOptions(workers=1))
    finally:
        for name, original in originals.items():
            setattr(Analyzer, name, original)
    target.write_bytes(pickle.dumps(calls))
    texts = [text for _, batch in calls for text in batch]
    with_ner = [text for name, batch in calls if name != "analyze_without_ner" for text in batch]
    return {"calls": len(calls), "texts": len(texts), "chars": sum(map(len, texts)),
            **sentence_reuse(with_ner)}


def sentence_reuse(texts: list[str]) -> dict:
    """The tokens NER would read in `texts` whole, as written, and those in a sentence seen before
    (`scrubbers.speed.sentences`: what running NER sentence by sentence saves), in the order (b) analyses
    them."""
    import spacy

    from scrubbers.speed.sentences import sentences

    tokenizer = spacy.blank("en").tokenizer
    seen: set[str] = set()
    tokens = again = 0
    for text in texts:
        for piece in sentences(text):
            sentence = text[piece.start:piece.end]
            count = len(tokenizer(sentence))
            tokens += count
            again += count if sentence in seen else 0
            seen.add(sentence)
    return {"ner_tokens": tokens, "ner_tokens_run_before": again, "ner_sentences": len(seen)}


# --- the (e) child ------------------------------------------------------------------------------------
def child_analysis(path: str, recorded: str) -> dict:
    import gc

    from promote.batch.workers import GC_THRESHOLDS

    gc.set_threshold(*GC_THRESHOLDS)  # as (b) and (d) run
    inside = _time_ner_and_recognizers()
    started = time.perf_counter()
    from promote.scrubbing import load_policy, new_engine

    engine = new_engine(load_policy(None))
    loaded = time.perf_counter()
    strings = sum(1 for span in iter_spans(path) for _ in string_attributes(span))
    read = time.perf_counter()
    calls = pickle.loads(Path(recorded).read_bytes())
    analyzer = engine.analyzer
    found = 0
    for name, texts in calls:
        if name == "analyze_batch":
            found += sum(len(detections) for _, detections in analyzer.analyze_batch(texts))
        else:
            found += len(getattr(analyzer, name)(texts[0]))
    return {"strings": strings, "detections": found, "load_seconds": loaded - started,
            "read_seconds": read - loaded, "analysis_seconds": time.perf_counter() - read, **inside}


def _time_ner_and_recognizers() -> dict[str, float]:
    """Time spent in spaCy's `nlp.pipe` (NER, sentence by sentence) and in the batch recognizers
    (`GroupedAnalyzerEngine.recognize` and `settle`), added up in the returned dict as the analysis runs."""
    from spacy.language import Language

    from scrubbers.analysis.presidio_adapter import GroupedAnalyzerEngine

    seconds = {"ner_seconds": 0.0, "recognizer_seconds": 0.0}
    pipe = Language.pipe

    def timed_pipe(self, texts, **options):  # type: ignore[no-untyped-def]
        documents = pipe(self, texts, **options)
        while True:  # a generator: timed document by document, as the caller draws them
            started = time.perf_counter()
            doc = next(documents, None)
            seconds["ner_seconds"] += time.perf_counter() - started
            if doc is None:
                return
            yield doc

    def timed(step):  # type: ignore[no-untyped-def]
        def wrapper(self, *args, **options):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            try:
                return step(self, *args, **options)
            finally:
                seconds["recognizer_seconds"] += time.perf_counter() - started

        return wrapper

    Language.pipe = timed_pipe  # type: ignore[method-assign]
    for name in ("recognize", "settle"):  # `analyze_many` is the two, one after the other
        setattr(GroupedAnalyzerEngine, name, timed(getattr(GroupedAnalyzerEngine, name)))
    return seconds


# --- the comparison -----------------------------------------------------------------------------------
def triple(path: str, recorded: Path, label: str) -> tuple[float, float, float, float, float]:
    """Wall s of (b), (d) and (e), run one after the other ((b) and (d) as `scrub_ratio` runs them), and
    the s of (e) in NER and in the recognizers."""
    scrub, floor, _, _ = pair(path, f"bound.{label}")
    analysis = measure([PYTHON, "-m", "benchmarks.speed.scrub_bound", "--child", path, str(recorded)],
                       f"bound.{label}.analysis")
    inside = child_result(analysis)
    return scrub, floor, analysis["wall_seconds"], inside["ner_seconds"], inside["recognizer_seconds"]


def main(argv: list[str] | None = None) -> int:
    parser = export_arguments(__doc__.splitlines()[0], repeat=2)
    parser.add_argument("--child", nargs=2, metavar=("EXPORT", "RECORDED"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child_analysis(*args.child)))
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    meta = generate(args.size_mb, args.seed)
    recorded = OUT / f"scrub_bound.{args.size_mb}mb.texts.pickle"
    texts = record(meta["path"], recorded)
    runs = [triple(meta["path"], recorded, f"{args.size_mb}mb.{n}") for n in range(args.repeat)]
    print(f"{args.size_mb} MB, {meta['spans']} spans; (b) analyses {texts['texts']} texts of "
          f"{texts['chars']} characters in {texts['calls']} calls; of their {texts['ner_tokens']} tokens "
          f"as written, {texts['ner_tokens_run_before'] / texts['ner_tokens']:.1%} are in a sentence seen "
          f"before ({texts['ner_sentences']} sentences; NER reads them masked, fewer):")
    print("| run | (b) scrub --workers 1 s | (d) floor s | (e) analysis s: all / NER / recognizers | (b)/(d) "
          "| (e)/(d) | goal's budget beyond analysis, 1.5 (d) - (e) s | (b) - (e) s |")
    print("|---|---|---|---|---|---|---|---|")
    for number, (scrub, floor, analysis, ner, recognizers) in enumerate(runs, 1):
        print(f"| {number} | {scrub:.2f} | {floor:.2f} | {analysis:.2f} / {ner:.2f} / {recognizers:.2f} "
              f"| {scrub / floor:.2f}× | {analysis / floor:.2f}× | {GOAL * floor - analysis:.1f} "
              f"| {scrub - analysis:.1f} |")
    bound = statistics.median(run[2] / run[1] for run in runs)
    print(f"median (e)/(d): {bound:.2f}× (the goal: (b)/(d) at most {GOAL}×)")
    if args.json:
        Path(args.json).write_text(json.dumps({"size_mb": args.size_mb, "spans": meta["spans"], **texts,
                                               "runs": runs, "median_analysis_ratio": bound, "goal": GOAL},
                                              indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
