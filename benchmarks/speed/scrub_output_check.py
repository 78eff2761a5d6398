"""What the output check costs (issue 11; a benchmark, not a test).

`promote scrub --workers 1` on a generated ADK-shaped export (benchmarks/gen_exports.py), twice in one
process with one engine: once as shipped, once with the output check switched off (`ScrubEngine.leaks`
answering False), alternating and keeping the fastest of `--repeat` runs each, after a warm-up run that
loads the model and fills the caches. The difference is the check's cost; both outputs are compared
(the check must not have redacted anything on clean generated data that the rules had not).

    .venv/bin/python -m benchmarks.speed.scrub_output_check --sizes 10,100
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from benchmarks.gen_exports import DEFAULT_SEED, generate, export_path


def _run(source: Path, target: Path) -> tuple[float, dict]:
    from promote.batch.run import ScrubOptions, scrub_exports

    started = time.perf_counter()
    report = scrub_exports([str(source)], str(target), ScrubOptions(workers=1))
    return time.perf_counter() - started, report.model_dump()


def measure(size_mb: int, repeat: int) -> dict:
    from scrubbers import ScrubEngine

    generate(size_mb, DEFAULT_SEED)
    source = export_path(size_mb, DEFAULT_SEED)
    shipped = ScrubEngine.leaks
    timings: dict[str, list[float]] = {"with check": [], "without check": []}
    reports: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        _run(source, Path(folder) / "warm.jsonl")
        for _ in range(repeat):
            for label in timings:
                ScrubEngine.leaks = shipped if label == "with check" else (lambda self, text, ctx: False)
                try:
                    seconds, report = _run(source, Path(folder) / f"{label}.jsonl")
                finally:
                    ScrubEngine.leaks = shipped
                timings[label].append(seconds)
                reports[label] = report
        same = (Path(folder) / "with check.jsonl").read_bytes() == (
            Path(folder) / "without check.jsonl"
        ).read_bytes()
    best = {label: min(values) for label, values in timings.items()}
    return {"size_mb": size_mb, "seconds": best,
            "ratio": round(best["with check"] / best["without check"], 3),
            "output_check_redacted": reports["with check"]["output_check_redacted"], "same_output": same}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10", help="comma-separated sizes in MB (default 10)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        print(json.dumps(measure(size, args.repeat)), flush=True)


if __name__ == "__main__":
    main()
