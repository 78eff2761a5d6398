"""Streams read exactly what a file read does: stdin, a FIFO and process substitution (`/dev/fd/N`).

Before, a FIFO was opened to sniff its format, closed, and opened again: the second open lost what the
first had read (process substitution) or waited forever for a writer (a named FIFO).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from promote.ingest import open_export
from tests.conftest import ROOT, TRACES, run_cli

FILES = sorted(p.name for p in TRACES.iterdir() if p.is_file()
               and p.name not in ("README.md", "expected.json"))


def _spans(source: str) -> list[tuple]:
    export = open_export(source)
    found = []
    for record in export.records():
        if hasattr(record, "doc"):
            found.extend((s.trace_id, s.span_id, s.name, s.start_ns, len(s.attributes))
                         for s in export.spans(record))
    return found


def _feed_fifo(path: Path, data: bytes) -> threading.Thread:
    def write() -> None:
        with open(path, "wb") as out:
            out.write(data)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("name", FILES)
def test_a_fifo_reads_the_same_spans_as_the_file(name: str, tmp_path: Path) -> None:
    fifo = tmp_path / "export"
    os.mkfifo(fifo)
    writer = _feed_fifo(fifo, (TRACES / name).read_bytes())
    assert _spans(str(fifo)) == _spans(str(TRACES / name))
    writer.join(timeout=10)


def _pipe_run(args: list[str], data: bytes, tmp_path: Path) -> subprocess.CompletedProcess:
    """`promote ARGS` with `@in` replaced by a FIFO that a writer thread fills (like `<(cat file)`)."""
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    writer = _feed_fifo(fifo, data)
    argv = [str(fifo) if arg == "@in" else arg for arg in args]
    done = subprocess.run([sys.executable, "-m", "promote.cli", *argv], capture_output=True, cwd=ROOT,
                          timeout=300)
    writer.join(timeout=10)
    return done


@pytest.mark.parametrize("name", ["adk2.otlp.jsonl", "adk2.otlp.pb", "adk2.jaeger.json",
                                  "adk2.otlp.jsonl.gz"])
def test_traces_through_a_fifo_lists_what_the_file_lists(name: str, tmp_path: Path) -> None:
    data = (TRACES / name).read_bytes()
    from_file = run_cli("traces", "--json", "--no-scrub", str(TRACES / name))
    through_fifo = _pipe_run(["traces", "--json", "--no-scrub", "@in"], data, tmp_path)
    through_stdin = run_cli("traces", "--json", "--no-scrub", "-", stdin=data)
    assert from_file.returncode == through_fifo.returncode == through_stdin.returncode == 0, (
        through_fifo.stderr
    )
    expected = json.loads(from_file.stdout)["traces"]
    assert json.loads(through_fifo.stdout)["traces"] == expected
    assert json.loads(through_stdin.stdout)["traces"] == expected


def test_scrub_through_a_fifo_writes_every_record(tmp_path: Path) -> None:
    data = (TRACES / "adk2.otlp.jsonl").read_bytes()
    out_file, out_fifo = tmp_path / "file.jsonl", tmp_path / "fifo.jsonl"
    assert (
        run_cli("scrub", str(TRACES / "adk2.otlp.jsonl"), "-o", str(out_file), "--workers", "1").returncode
        == 0
    )
    done = _pipe_run(["scrub", "@in", "-o", str(out_fifo), "--workers", "1"], data, tmp_path)
    assert done.returncode == 0, done.stderr
    assert out_fifo.read_bytes() == out_file.read_bytes()


def test_draft_reads_stdin(tmp_path: Path) -> None:
    data = (TRACES / "adk2.otlp.jsonl").read_bytes()
    trace = json.loads(run_cli("traces", "--json", str(TRACES / "adk2.otlp.jsonl")).stdout)["traces"][0][
        "trace_id"
    ]
    done = run_cli("draft", "-", "--trace", trace, "--by", "sme", stdin=data)
    assert done.returncode == 0, done.stderr
    assert b"format: portable-v1" in done.stdout
