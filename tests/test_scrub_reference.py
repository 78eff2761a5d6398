"""The reference path (`scrubbers.reference`: plain Presidio text by text, none of the speed machinery)
and the fast engine write the same bytes for every fixture export, through the library and the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from presidio_analyzer import AnalyzerEngine, RecognizerRegistry

from promote.batch import run as batch_run
from promote.batch.workers import make_engine
from promote.cli.main import main
from promote.scrubbing import ENGINE_VARIABLE, use_engine
from scrubbers import ScrubEngine, load_policy
from scrubbers.reference import ReferenceScrubEngine
from tests.test_scrub_fixtures import JSONL_FILES, TRACES, _string_attributes


@pytest.fixture(scope="module")
def engines() -> tuple[ScrubEngine, ReferenceScrubEngine]:
    policy = load_policy()
    return ScrubEngine(policy), ReferenceScrubEngine(policy)


def _scrubbed(engine: ScrubEngine, name: str) -> list:
    text = (TRACES / name).read_text()
    documents = [text] if name.endswith(".json") else [line for line in text.splitlines() if line.strip()]
    attributes: list = []
    for document in documents:
        _string_attributes(json.loads(document), None, attributes)
    contexts: dict = {}
    return engine.scrub_many([(contexts.setdefault(trace, engine.new_context()), key, value["stringValue"])
                              for trace, key, value in attributes])


@pytest.mark.parametrize("name", JSONL_FILES)
def test_the_fast_engine_writes_what_the_reference_path_writes(engines, name):
    fast, reference = engines
    expected = _scrubbed(reference, name)
    assert _scrubbed(fast, name) == expected
    assert any("<PERSON_1>" in value for value in expected) or "nocontent" in name  # it did scrub


def test_the_reference_path_is_plain_presidio(engines):
    plain = engines[1].analyzer.plain
    assert type(plain) is AnalyzerEngine and type(plain.registry) is RecognizerRegistry
    # no gate wraps a recognizer's own `analyze` (`scrubbers.speed.gates`)
    assert all(type(r).analyze.__get__(r) == r.analyze for r in plain.registry.recognizers)


def test_the_reference_engine_is_refused_on_a_dask_cluster(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(ENGINE_VARIABLE, "fast")
    code = main(["scrub", str(TRACES / "adk2.otlp.jsonl"), "-o", str(tmp_path / "out.jsonl"),
                 "--engine", "reference", "--dask", "local"])
    assert code == 2 and "--engine reference runs on this machine only" in capsys.readouterr().err
    assert not (tmp_path / "out.jsonl").exists()


EXPORTS = sorted(path for path in TRACES.rglob("*") if path.is_file() and path.name not in
                 ("README.md", "expected.json", "LICENSE"))


@pytest.fixture(scope="module")
def both_ways(tmp_path_factory) -> dict[str, dict[Path, bytes]]:
    """What `promote scrub` writes for every fixture export with each engine. A run builds its engine
    anew (the model loaded again); here each kind's engine is built once and serves every run, which
    the engine allows (its caches never change an output: `tests/test_scrub_plan_sharing.py`)."""
    scratch = tmp_path_factory.mktemp("both-ways")
    written: dict[str, dict[Path, bytes]] = {}
    built: dict[str, object] = {}

    def engine_of_the_kind(policy, key):
        kind = os.environ.get(ENGINE_VARIABLE) or "fast"
        if kind not in built:
            built[kind] = make_engine(policy, key)
        return built[kind]

    patch = pytest.MonkeyPatch()
    patch.setenv(ENGINE_VARIABLE, "fast")  # `--engine` chooses for the whole process: undone after
    patch.setattr(batch_run, "make_engine", engine_of_the_kind)
    try:
        for kind in ("fast", "reference"):
            for number, source in enumerate(EXPORTS):
                target = scratch / f"{kind}-{number}-{source.name}"
                command = ["scrub", str(source), "-o", str(target), "--workers", "1", "--engine", kind]
                assert main(command) == 0
                written.setdefault(kind, {})[source] = target.read_bytes()
    finally:
        use_engine("fast")
        patch.undo()
    return written


@pytest.mark.parametrize("source", EXPORTS, ids=lambda path: str(path.relative_to(TRACES)))
def test_every_fixture_export_scrubs_to_the_same_bytes_both_ways(source: Path, both_ways) -> None:
    """Every format, producer and compression of `fixtures/traces/`: what `promote scrub` writes with the
    fast engine is what the reference path writes."""
    assert both_ways["fast"][source] == both_ways["reference"][source]


def test_the_sweep_scrubbed(both_ways) -> None:
    assert b"<PERSON_1>" in both_ways["fast"][TRACES / "adk2.otlp.jsonl"]
