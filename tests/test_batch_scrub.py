"""`promote scrub` on the real ADK fixture exports: nothing personal survives, nothing else changes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from promote.batch.run import ScrubOptions, scrub_exports
from promote.ingest import iter_spans, open_export
from tests.conftest import TRACES, run_cli


def fixture_exports() -> list[Path]:
    files = json.loads((TRACES / "expected.json").read_text())["files"]
    return [TRACES / name for name in sorted(files)]


def decompressed_text(path: Path) -> str:
    """The content of an export as text, whatever its framing (for grep-style leak checks)."""
    export = open_export(path)
    return "\n".join(record.raw.decode("utf-8", "replace") for record in export.records()
                     if hasattr(record, "raw"))


def slot_text(path: Path) -> str:
    """Every string value of an export, one a line (a binary framing's length bytes are not text)."""
    export = open_export(path)
    return "\n".join(str(slot.value) for record in export.records() if hasattr(record, "raw")
                     for slot, _ in export.slots(record))


def needles(value: str) -> set[str]:
    # A value may sit in the file as itself or JSON-escaped inside a JSON string (once or twice).
    once = json.dumps(value)[1:-1]
    return {value, once, json.dumps(once)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}


@pytest.fixture(scope="module")
def scrubbed(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Path]:
    """Every fixture export scrubbed once, in one multi-file run on 2 workers."""
    out = tmp_path_factory.mktemp("scrubbed")
    inputs = [str(p) for p in fixture_exports()]
    report = scrub_exports(inputs, str(out), ScrubOptions(workers=2))
    assert report.entities
    # spans are counted without building them (Export.count_spans): the same count the ingester reads
    assert {f.input: f.spans for f in report.files} == {p: sum(1 for _ in iter_spans([p])) for p in inputs}
    return {Path(source): out / Path(source).name for source in inputs}


def test_no_planted_personal_value_survives_in_any_output(scrubbed, expected_traces) -> None:
    planted = {item["value"] for item in expected_traces["planted_pii"]}
    for source, output in scrubbed.items():
        text = decompressed_text(output)
        leaked = sorted(v for v in planted if any(n in text for n in needles(v)))
        assert leaked == [], f"{output.name} still holds {len(leaked)} planted value(s)"


def test_every_keep_value_present_in_the_input_survives(scrubbed, expected_traces) -> None:
    for source, output in scrubbed.items():
        before, after = slot_text(source), slot_text(output)
        for keep in expected_traces["keep"]:
            if any(n in before for n in needles(keep)):
                assert any(n in after for n in needles(keep)), f"{keep!r} damaged in {output.name}"


def test_output_keeps_format_compression_and_everything_not_personal(scrubbed) -> None:
    for source, output in scrubbed.items():
        before, after = open_export(source), open_export(output)
        assert (after.format, after.compression) == (before.format, before.compression)
        spans_before, spans_after = list(iter_spans([source])), list(iter_spans([output]))
        assert len(spans_after) == len(spans_before)
        for old, new in zip(spans_before, spans_after):
            assert (new.trace_id, new.span_id, new.parent_span_id, new.name, new.start_ns, new.end_ns) == (
                old.trace_id, old.span_id, old.parent_span_id, old.name, old.start_ns, old.end_ns)
            assert new.attributes.keys() == old.attributes.keys()
            for key, value in old.attributes.items():
                if not isinstance(value, str):
                    assert new.attributes[key] == value, key


def test_rebuilt_turns_are_the_same_except_for_placeholders(scrubbed) -> None:
    from promote.listing import list_traces

    source = TRACES / "adk2.otlp.jsonl"
    before = list_traces([source]).traces
    after = list_traces([scrubbed[source]]).traces
    assert [t.trace_id for t in after] == [t.trace_id for t in before]
    for old, new in zip(before, after):
        assert len(new.turns) == len(old.turns)
        for old_turn, new_turn in zip(old.turns, new.turns):
            assert [c.name for c in new_turn.tool_calls] == [c.name for c in old_turn.tool_calls]
            assert [c.span_id for c in new_turn.tool_calls] == [c.span_id for c in old_turn.tool_calls]
            assert (new_turn.input_tokens, new_turn.output_tokens) == (
                old_turn.input_tokens, old_turn.output_tokens
            )
            assert new_turn.span_ids == old_turn.span_ids
            assert (new_turn.final_response is None) == (old_turn.final_response is None)


def test_two_workers_and_one_worker_write_the_same_bytes(tmp_path: Path) -> None:
    source = str(TRACES / "adk2.otlp.jsonl")
    scrub_exports([source], str(tmp_path / "one.jsonl"), ScrubOptions(workers=1, window=2))
    scrub_exports([source], str(tmp_path / "two.jsonl"), ScrubOptions(workers=2, window=2))
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_dask_local_cluster_writes_the_same_bytes_as_the_local_path(tmp_path: Path) -> None:
    inputs = [str(TRACES / "adk2.otlp.jsonl.gz"), str(TRACES / "adk2.otlp.pb")]
    scrub_exports(inputs, str(tmp_path / "local"), ScrubOptions(workers=1, window=3))
    scrub_exports(inputs, str(tmp_path / "dask"), ScrubOptions(workers=1, window=3, dask="local"))
    for name in ("adk2.otlp.jsonl.gz", "adk2.otlp.pb"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def _with_bad_line(tmp_path: Path) -> Path:
    lines = (TRACES / "adk2.otlp.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "export.jsonl"
    path.write_bytes(lines[0] + b"Maria Gonzalez 123-45-6789 {not json\n" + b"".join(lines[1:]))
    return path


def test_a_bad_line_is_redacted_whole_and_reported(tmp_path: Path) -> None:
    source = _with_bad_line(tmp_path)
    report = scrub_exports([str(source)], str(tmp_path / "out.jsonl"), ScrubOptions(workers=1))
    out_lines = (tmp_path / "out.jsonl").read_bytes().splitlines()
    assert len(out_lines) == len(source.read_bytes().splitlines())
    assert out_lines[1] == b"{}"
    assert b"Maria" not in (tmp_path / "out.jsonl").read_bytes()
    assert report.skipped == [{"where": f"{source}:2", "why": report.skipped[0]["why"]}]
    assert "Maria" not in json.dumps(report.model_dump())


def test_strict_stops_at_the_first_bad_line_with_exit_2_and_no_output(tmp_path: Path) -> None:
    source = _with_bad_line(tmp_path)
    result = run_cli("scrub", str(source), "-o", str(tmp_path / "out.jsonl"), "--strict", "--workers", "1")
    assert result.returncode == 2
    assert result.stderr.decode().count("\n") == 1 and f"{source}:2" in result.stderr.decode()
    assert b"Maria" not in result.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_an_interrupted_run_leaves_no_half_file_and_resume_skips_finished_inputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import promote.batch.run as run

    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    shutil.copy(TRACES / "adk2.otlp.jsonl", first)
    shutil.copy(TRACES / "adk1.otlp.jsonl", second)
    out = tmp_path / "out"
    real = run._scrub_one
    calls: list[str] = []

    def failing_on_second(source, *args, **kwargs):
        calls.append(Path(source).name)
        if Path(source).name == "b.jsonl" and calls.count("b.jsonl") == 1:
            raise KeyboardInterrupt
        return real(source, *args, **kwargs)

    monkeypatch.setattr(run, "_scrub_one", failing_on_second)
    with pytest.raises(KeyboardInterrupt):
        scrub_exports([str(first), str(second)], str(out), ScrubOptions(workers=1))
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".promote")) == ["a.jsonl"]
    report = scrub_exports([str(first), str(second)], str(out), ScrubOptions(workers=1, resume=True))
    assert [f.resumed for f in report.files] == [True, False]
    assert calls == ["a.jsonl", "b.jsonl", "b.jsonl"]
    assert (out / "b.jsonl").exists()


def test_stdin_to_stdout_gives_the_same_bytes_as_files(tmp_path: Path) -> None:
    source = TRACES / "adk2.otlp.jsonl.gz"
    scrub_exports([str(source)], str(tmp_path / "out.gz"), ScrubOptions(workers=1))
    result = run_cli("scrub", "-", "-o", "-", "--workers", "1", stdin=source.read_bytes())
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == (tmp_path / "out.gz").read_bytes()


def test_names_under_personal_keys_are_caught_in_later_blocks_of_the_same_trace(tmp_path: Path) -> None:
    # One span per line: the HRIS result naming the employee and the reply greeting her by first name
    # land in different blocks; the first name must still go.
    source = TRACES / "adk1.otlp.jsonl"
    report = scrub_exports([str(source)], str(tmp_path / "out.jsonl"), ScrubOptions(workers=1, window=1))
    assert report.records > 1
    text = decompressed_text(tmp_path / "out.jsonl")
    for name in ("Maria Gonzalez", "Maria", "Dana Whitfield", "Dana"):
        assert not any(n in text for n in needles(name)), name


def test_blocks_are_cut_by_size_between_traces_and_report_split_traces(tmp_path: Path) -> None:
    # A 1 MB default would keep these ~120 kB in one block; 20 kB blocks cut it into several. Cuts fall
    # between traces where the size allows, so fewer traces are split than there are block borders.
    source = str(TRACES / "adk2.otlp.jsonl")
    one = scrub_exports([source], str(tmp_path / "one.jsonl"), ScrubOptions(workers=1, block_bytes=20_000))
    two = scrub_exports([source], str(tmp_path / "two.jsonl"), ScrubOptions(workers=2, block_bytes=20_000))
    assert one.blocks > 1 and one.blocks == two.blocks
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    whole = scrub_exports([source], str(tmp_path / "whole.jsonl"), ScrubOptions(workers=1))
    assert whole.blocks == 1 and whole.split_traces == 0
    assert one.split_traces == two.split_traces
    text = decompressed_text(tmp_path / "one.jsonl")
    for name in ("Maria Gonzalez", "Maria"):
        assert not any(n in text for n in needles(name)), name


def test_block_jobs_cross_processes_as_bytes_and_decode_to_the_same_documents() -> None:
    import pickle

    from promote.batch.blocks import cut_blocks
    from promote.ingest import Record

    export = open_export(TRACES / "adk2.otlp.jsonl")
    job = next(cut_blocks(export, 1000, None, None))
    shipped = pickle.loads(pickle.dumps(job))
    records = [item for item in shipped.items if isinstance(item, Record)]
    assert records and all(record.doc is None for record in records)
    originals = [item for item in job.items if isinstance(item, Record)]
    assert [export.decode(r.raw) for r in records] == [r.doc for r in originals]
    assert len(pickle.dumps(job)) < 1.2 * sum(len(r.raw) for r in originals)


def test_a_run_leaves_the_callers_garbage_collector_settings_as_they_were(tmp_path: Path) -> None:
    import gc

    before = gc.get_threshold()
    scrub_exports([str(TRACES / "adk2.otlp.jsonl")], str(tmp_path / "out.jsonl"), ScrubOptions(workers=1))
    assert gc.get_threshold() == before


def test_the_command_keeps_the_runs_collector_settings_and_collects_nothing_after_it(tmp_path: Path) -> None:
    # The defaults put back after a run make the next allocation collect everything the run left (0.4 s
    # after a 10 MB scrub); the command's process ends after the run, so it keeps the run's settings.
    import subprocess
    import sys

    script = (
        "import gc, sys\n"
        "from promote.cli.main import main\n"
        "from promote.batch.workers import GC_THRESHOLDS\n"
        "collected = []\n"
        "code = main(['scrub', sys.argv[1], '-o', sys.argv[2], '--workers', '1'])\n"
        "gc.callbacks.append(lambda phase, info: collected.append(info['generation']))\n"
        "garbage = [dict(n=n) for n in range(5000)]\n"
        "print(code, gc.get_threshold() == GC_THRESHOLDS, collected)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(TRACES / "adk2.otlp.jsonl"),
                           str(tmp_path / "out.jsonl")], capture_output=True, text=True, timeout=300)
    assert done.stdout.split("\n")[-2] == "0 True []", done.stderr


@pytest.mark.parametrize("option", [["--block-mb", "-1"], ["--workers", "0"], ["--window", "0"],
                                    ["--window", "x"]])
def test_a_bad_number_option_is_a_one_line_usage_error_not_a_crash(tmp_path: Path, option: list[str]) -> None:
    result = run_cli("scrub", str(TRACES / "adk2.otlp.jsonl"), "-o", str(tmp_path / "out.jsonl"), *option)
    assert result.returncode == 2
    assert option[0] in result.stderr.decode() and "Traceback" not in result.stderr.decode()
    assert not (tmp_path / "out.jsonl").exists()
