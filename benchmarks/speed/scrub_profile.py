"""Where `promote scrub --workers 1` spends its time, by phase, on one generated ADK-shaped export.

    .venv/bin/python -m benchmarks.speed.scrub_profile --size-mb 30              # phases, collector tuned
    .venv/bin/python -m benchmarks.speed.scrub_profile --size-mb 30 --gc default # Python's default collector
    .venv/bin/python -m benchmarks.speed.scrub_profile --size-mb 10 --overhead 8 # all but the analysis

Each phase is timed by wrapping the engine method that does it (inclusive wall time, in this process):
NER (spaCy `nlp.pipe`, sentence by sentence on the masked texts: `scrubbers.speed.sentences`; with tokenising
and the rest of the analysis but the recognizers and the masking), Presidio's recognizers (pattern,
phone, ours, NER's, context), masking (stand-ins for what the recognizers found before NER reads a text:
`scrubbers.speed.masking`), plans (decoding and walking strings),
learning (remembering values before scrubbing), applying (placeholders, rebuilding and re-encoding
changed JSON); the rest is reading, cutting, slot walks, record encoding and writing, and start-up.
`--gc default` leaves the collector thresholds of the run at Python's defaults, to measure what
`promote.batch.workers.GC_THRESHOLDS` buys; `--gc-young N` runs with N young objects as the first
threshold instead of the tuned one. The collector's own time is reported beside the phases (it overlaps
them): its collections during the run, and the one the next allocation starts after the run, when
`batch_gc` has put this process's defaults back (the command keeps the run's settings and has none).

    .venv/bin/python -m benchmarks.speed.scrub_profile --size-mb 100 --gc-young 100000   # the old threshold

It also counts the sentences NER runs (and their characters) and the texts whose masked reading reached
past a stand-in, which NER reads again as written. `--policy FILE` scrubs with another policy: one with
`ner_reads_masked: false` shows what NER runs without masking.

`--recognizers` times each recognizer (its gate included) over one run, with the texts it read and the
texts it found something in: where the recognizers' share of the analysis goes.

`--overhead N` times everything but the analysis: the file is scrubbed once to fill the detection cache,
then N more times, each by a fresh engine handed a copy of that cache (so no NER and no recognizer runs;
plans, learning, applying, reading and writing are as in a cold run), and the fastest is reported. On
this shared machine single runs vary by ±10 %; the minimum of several is what stays put.
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from benchmarks.gen_exports import DEFAULT_SEED, generate


def _timed(owner: Any, name: str, phase: str, totals: Counter) -> None:
    original = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            totals[phase] += time.perf_counter() - started

    setattr(owner, name, wrapper)


def _collections(totals: Counter, stage: list[str]) -> Callable[[str, dict], None]:
    """A `gc.callbacks` entry adding each collection's count and time to `totals` under `stage[0]`."""
    started: list[float] = []

    def on_collection(phase: str, info: dict) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            totals[f"{stage[0]} collections"] += 1
            totals[f"{stage[0]} collector"] += time.perf_counter() - started[0]

    return on_collection


def _count_ner_reading(totals: Counter) -> None:
    """Counts the sentences NER runs (and their characters), and the texts whose masked reading
    reached past a stand-in, so that NER read them again as written (`scrubbers.speed.masking`)."""
    import scrubbers.analysis.analyzer as analysis
    from scrubbers.speed.sentences import SentenceEntities

    run_sentences, place_entities = SentenceEntities._run, analysis._place_entities

    def counted_run(self: Any, *args: Any) -> Any:
        cuts, keyed, ran = run_sentences(self, *args)
        totals["NER sentences"] += len(ran)
        totals["NER characters"] += sum(len(doc.text) for doc in ran.values())
        return cuts, keyed, ran

    def counted_place(*args: Any) -> bool:
        placed = place_entities(*args)
        totals["texts read again"] += not placed
        return placed

    SentenceEntities._run = counted_run  # type: ignore[method-assign]
    analysis._place_entities = counted_place


def profile(path: str, gc_default: bool, gc_young: int | None = None,
            policy: Path | None = None) -> dict[str, float]:
    import gc

    import promote.batch.run as run
    import promote.batch.workers as workers
    import scrubbers.analysis.analyzer as analysis
    from scrubbers.analysis.analyzer import Analyzer
    from scrubbers.speed.detector import Detector
    from scrubbers.engine import ScrubEngine
    from scrubbers.analysis.presidio_adapter import GroupedAnalyzerEngine

    totals: Counter = Counter()
    _timed(Detector, "prepare", "analysis", totals)
    _timed(Analyzer, "_presidio", "recognizers", totals)  # a text alone
    _timed(GroupedAnalyzerEngine, "recognize", "recognizers", totals)  # a batch
    _timed(GroupedAnalyzerEngine, "settle", "recognizers", totals)
    _timed(analysis, "mask", "masking", totals)
    _timed(ScrubEngine, "_plans_of", "plans", totals)
    _timed(ScrubEngine, "_remember", "learning", totals)
    _timed(ScrubEngine, "_apply", "applying", totals)
    _timed(ScrubEngine, "leaks", "output check", totals)
    _timed(run, "make_engine", "engine start", totals)
    _count_ner_reading(totals)
    if gc_default:
        run.batch_gc = contextlib.nullcontext  # type: ignore[assignment]
    if gc_young is not None:
        workers.GC_THRESHOLDS = (gc_young, *workers.GC_THRESHOLDS[1:])
    stage = ["run"]
    counting = _collections(totals, stage)
    gc.callbacks.append(counting)
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        report = run.scrub_exports([path], str(Path(out) / "out.jsonl"),
                                   run.ScrubOptions(workers=1, policy_path=policy))
        total = time.perf_counter() - started
        stage[0] = "after"
        garbage = [{"n": n} for n in range(10_000)]  # allocations enough to start a pending collection
        del garbage
    gc.callbacks.remove(counting)
    phases = {
        "NER": totals["analysis"] - totals["recognizers"] - totals["masking"],
        "Presidio recognizers": totals["recognizers"],
        "masking for NER": totals["masking"],
        "plans": totals["plans"],
        "learning": totals["learning"],
        "applying": totals["applying"],
        "output check": totals["output check"],
        "engine start": totals["engine start"],
    }
    phases["rest"] = total - sum(phases.values())
    counts = {name: totals[name] for name in ("run collections", "run collector", "after collections",
                                              "after collector", "NER sentences", "NER characters",
                                              "texts read again")}
    return {"total": total, "spans": report.spans, **phases, **counts}


def overhead(path: str, repeat: int) -> tuple[float, float]:
    """(fastest wall s, its CPU s) of scrubbing `path` with every detection already cached."""
    import gc

    import promote.batch.run as run
    from scrubbers.engine import ScrubEngine

    warm = ScrubEngine()
    real_make_engine = run.make_engine
    try:
        with tempfile.TemporaryDirectory() as out:
            target = str(Path(out) / "out.jsonl")
            run.make_engine = lambda *args, **kwargs: warm  # type: ignore[assignment]
            run.scrub_exports([path], target, run.ScrubOptions(workers=1))
            runs = []
            for _ in range(repeat):
                engine = ScrubEngine()
                engine._detector.cache = warm._detector.cache.copy()
                run.make_engine = lambda *args, **kwargs: engine  # type: ignore[assignment]
                gc.collect()
                started, cpu = time.perf_counter(), time.process_time()
                run.scrub_exports([path], target, run.ScrubOptions(workers=1))
                runs.append((time.perf_counter() - started, time.process_time() - cpu))
                if engine.report.unique_strings:
                    raise SystemExit("the detection cache did not hold every text: use a smaller --size-mb")
    finally:
        run.make_engine = real_make_engine  # type: ignore[assignment]
    return min(runs)


def recognizers(path: str) -> tuple[float, list[tuple[str, float, int, int]]]:
    """One run of the file with each recognizer timed: the run's wall seconds, and (name, seconds, texts
    read, texts it found something in) of each recognizer, slowest first. A recognizer's time includes its
    gate (`scrubbers.speed.gates`): most texts never get past it."""
    import promote.batch.run as run

    spent: Counter = Counter()
    texts: Counter = Counter()
    found: Counter = Counter()

    def timed(analyze: Callable[..., Any], name: str) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            results = analyze(*args, **kwargs)
            spent[name] += time.perf_counter() - started
            texts[name] += 1
            found[name] += bool(results)
            return results

        return wrapper

    real_make_engine = run.make_engine

    def make_engine(*args: Any, **kwargs: Any) -> Any:
        engine = real_make_engine(*args, **kwargs)
        for recognizer in engine.analyzer.engine.registry.recognizers:
            recognizer.analyze = timed(recognizer.analyze, recognizer.name)
        return engine

    run.make_engine = make_engine  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as out:
            started = time.perf_counter()
            run.scrub_exports([path], str(Path(out) / "out.jsonl"), run.ScrubOptions(workers=1))
            total = time.perf_counter() - started
    finally:
        run.make_engine = real_make_engine  # type: ignore[assignment]
    return total, [(name, seconds, texts[name], found[name]) for name, seconds in spent.most_common()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=30)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--gc", choices=("tuned", "default"), default="tuned")
    parser.add_argument("--gc-young", type=int, metavar="N", help="first collector threshold (see above)")
    parser.add_argument("--overhead", type=int, metavar="N", help="time N runs without analysis (see above)")
    parser.add_argument("--recognizers", action="store_true", help="time each recognizer (see above)")
    parser.add_argument("--policy", type=Path, help="scrub policy file (default: the bundled one)")
    args = parser.parse_args(argv)
    meta = generate(args.size_mb, args.seed)
    if args.recognizers:
        total, rows = recognizers(meta["path"])
        print(f"{meta['path']}: the recognizers took {sum(row[1] for row in rows):.2f} s of {total:.2f} s")
        print("| recognizer | s | texts read | texts with a finding |\n|---|---|---|---|")
        for name, seconds, read, hits in rows:
            print(f"| {name} | {seconds:.3f} | {read} | {hits} |")
        return 0
    if args.overhead:
        wall, cpu = overhead(meta["path"], args.overhead)
        print(f"{meta['path']}: everything but the analysis, fastest of {args.overhead}: {wall:.3f} s "
              f"(CPU {cpu:.3f} s)")
        return 0
    result = profile(meta["path"], args.gc == "default", args.gc_young, args.policy)
    print(f"{meta['path']}: {result['spans']} spans in {result['total']:.2f} s "
          f"({result['spans'] / result['total']:.0f} spans/s), collector {args.gc}")
    for phase in ("NER", "Presidio recognizers", "masking for NER", "plans", "learning", "applying",
                  "output check", "engine start", "rest"):
        print(f"  {phase:22s} {result[phase]:7.2f} s  {100 * result[phase] / result['total']:5.1f} %")
    print(f"  collector, in the phases above: {result['run collections']:.0f} collections in the run, "
          f"{result['run collector']:.2f} s; after the run {result['after collections']:.0f}, "
          f"{result['after collector']:.2f} s")
    print(f"  NER ran {result['NER sentences']:.0f} sentences ({result['NER characters']:.0f} characters); "
          f"{result['texts read again']:.0f} texts were read again as written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
