"""Around the data (issue 11): the lines `draft`, `traces` and `check` print about input
they could not read pass the same scrubber as data.

Each export is a real fixture trace with a made-up person's e-mail where an id goes (the reader quotes
the bad id) and their name in the span names (the turn rebuilder quotes span names when no convention
fits); the commands are run through the command line, and what they print must name the file and the
problem without the planted values.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpora.planting import VALUES, leaked, spans_of
from promote.cli.main import main
from tests.conftest import ROOT, TRACES

PLANTED = {"name": VALUES["name"], "email": VALUES["email"]}
CASE = ROOT / "fixtures" / "cases" / "golden" / "hr.policy_carryover_004.yaml"


def _docs() -> list[dict]:
    return [json.loads(line) for line in (TRACES / "adk2.otlp.jsonl").read_text().splitlines()]


def _write(docs: list[dict], path: Path) -> Path:
    path.write_text("".join(json.dumps(doc) + "\n" for doc in docs))
    return path


@pytest.fixture(scope="module")
def unreadable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every span has the e-mail as its span id and the name in its span name: nothing can be read."""
    docs = _docs()
    for doc in docs:
        for span in spans_of(doc):
            span["spanId"], span["name"] = VALUES["email"], f"lookup for {VALUES['name']}"
    return _write(docs, tmp_path_factory.mktemp("errors") / "unreadable.otlp.jsonl")


@pytest.fixture(scope="module")
def without_turns(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Readable spans named after the person, with no attribute of any agent convention: no turn."""
    docs = _docs()
    for doc in docs:
        for span in spans_of(doc):
            span["name"], span["attributes"] = f"lookup for {VALUES['name']}", []
    return _write(docs, tmp_path_factory.mktemp("errors") / "noturns.otlp.jsonl")


@pytest.fixture(scope="module")
def one_bad_span(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = _docs()
    spans_of(docs[0])[0]["spanId"] = VALUES["email"]  # skipped, quoted in the skip reason
    return _write(docs, tmp_path_factory.mktemp("errors") / "onebad.otlp.jsonl")


def _run(capsys: pytest.CaptureFixture, *args: object) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("command", ["draft", "traces", "check"])
def test_an_unreadable_export_is_reported_without_its_values(capsys, unreadable: Path, command: str) -> None:
    args = {"draft": ("draft", unreadable, "--trace", "6ba1f49a"), "traces": ("traces", unreadable),
            "check": ("check", CASE, "--trace", unreadable)}[command]
    code, out, err = _run(capsys, *args)
    assert code == 2 and f"{unreadable}" in err and "first problem" in err, err  # where and what stay
    assert leaked(out + err, PLANTED) == [], err
    code, out, err = _run(capsys, "traces", unreadable, "--no-scrub")  # the raw line, when asked for
    assert VALUES["email"] in err


@pytest.mark.parametrize("command", ["draft", "traces"])
def test_a_trace_without_turns_is_explained_without_its_values(capsys, without_turns: Path,
                                                               command: str) -> None:
    args = (
        ("draft", without_turns, "--trace", "6ba1f49a") if command == "draft" else ("traces", without_turns)
    )
    code, out, err = _run(capsys, *args)
    assert code in (1, 2) and "span(s)" in err, err  # the reason names what the spans carry
    assert leaked(out + err, PLANTED) == [], err
    code, out, err = _run(capsys, "traces", without_turns, "--no-scrub")
    assert VALUES["name"] in err  # the reason does quote the span names: the scrubber took them out


@pytest.fixture(scope="module")
def one_bad_jaeger_span(tmp_path_factory: pytest.TempPathFactory) -> Path:
    doc = json.loads((TRACES / "adk2.jaeger.json").read_text())
    doc["data"][0]["spans"][0]["spanID"] = VALUES["email"]
    path = tmp_path_factory.mktemp("errors") / "onebad.jaeger.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("export", ["one_bad_span", "one_bad_jaeger_span"])
@pytest.mark.parametrize("command", ["traces", "check"])
def test_skip_reasons_are_listed_without_their_values(capsys, request, export: str, command: str) -> None:
    path = request.getfixturevalue(export)
    args = ("traces", path, "--json") if command == "traces" else ("check", CASE, "--trace", path, "--json")
    code, out, err = _run(capsys, *args)
    listed = json.loads(out)["skipped"]
    assert listed and all(skip["where"].startswith(str(path)) for skip in listed), listed
    assert leaked(out + err, PLANTED) == []
    code, out, err = _run(capsys, *args[:-1])  # the text report too
    assert "skipped" in out + err and leaked(out + err, PLANTED) == []
    code, out, err = _run(capsys, "traces", path, "--json", "--no-scrub")
    assert VALUES["email"] in out  # the reader does quote the bad id
