"""Every bad input through every command that reads exports: exit 2 and one line naming the file.

Each row broke the contract before (exit 3 "internal error", a misleading message, or exit 0 with a
copied file); the inputs are made from a real fixture export, one defect at a time.
"""

from __future__ import annotations

import gzip
import json
import signal
from pathlib import Path

import pytest

from promote.cli.main import main
from tests.conftest import TRACES

FIRST_LINE = (TRACES / "adk2.otlp.jsonl").read_bytes().split(b"\n")[0]
TRACE_ID = "6ba1f49a4e0b98a257a16cb62edefd94"


def _doc() -> dict:
    return json.loads(FIRST_LINE)


def _spans(doc: dict) -> list:
    return doc["resourceSpans"][0]["scopeSpans"][0]["spans"]


def _with(change) -> bytes:
    doc = _doc()
    change(doc)
    return json.dumps(doc).encode() + b"\n"


def _truncated(name: str) -> bytes:
    data = (TRACES / name).read_bytes()
    return data[: len(data) // 3]


BAD_INPUTS: dict[str, tuple[bytes, str]] = {
    "spans-a-string": (_with(lambda d: d["resourceSpans"][0]["scopeSpans"][0].update(spans="oops")),
                       "not a list"),
    "span-a-list": (_with(lambda d: _spans(d).__setitem__(0, ["x"])), "not an object"),
    "resource-a-number": (_with(lambda d: d["resourceSpans"].__setitem__(0, 5)), "not an object"),
    "events-not-objects": (_with(lambda d: _spans(d)[0].update(events=["e", 3])), "not an object"),
    "nested-5000-deep": (FIRST_LINE[:-1] + b', "x": ' + b"[" * 5000 + b"]" * 5000 + b"}\n", "nested"),
    "resource-spans-null": (b'{"resourceSpans": null}\n', "holds no spans"),
    "zstd-cut-early": (_truncated("adk2.otlp.jsonl.zst"), "truncated"),
    "garbage": (b"\x00\x01\x02 not a trace \xff\n" * 10, "no trace data"),
    "empty": (b"", "empty file"),
}


@pytest.fixture(autouse=True)
def _keep_signal_handlers():
    """main() installs a SIGTERM handler for the process; put pytest's back afterwards."""
    saved = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, saved)


def _run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, list[str]]:
    code = main(list(args))
    err = capsys.readouterr().err
    return code, [line for line in err.splitlines() if line.strip()]


@pytest.mark.parametrize("defect", sorted(BAD_INPUTS))
def test_every_command_gives_exit_2_and_one_line(defect: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture) -> None:
    data, expected = BAD_INPUTS[defect]
    export = tmp_path / f"{defect}.jsonl"
    export.write_bytes(data)
    out = tmp_path / "out.jsonl"
    for args in (
        ["traces", "--json", "--no-scrub", str(export)],
        ["scrub", str(export), "-o", str(out), "--workers", "1"],
        ["draft", str(export), "--trace", TRACE_ID, "--by", "sme"],
    ):
        code, lines = _run(capsys, *args)
        assert code == 2, (args[0], lines)
        assert len(lines) == 1 and str(export) in lines[0], (args[0], lines)
        assert expected in lines[0], (args[0], lines)
        assert "internal error" not in lines[0] and "content capture" not in lines[0]
    assert not out.exists(), "scrub must not write an output for an input it cannot read"


def test_a_truncated_gzip_keeps_the_spans_before_the_cut_and_says_where_it_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    whole = gzip.decompress((TRACES / "adk2.otlp.jsonl.gz").read_bytes())
    lines = whole.split(b"\n")
    cut = tmp_path / "cut.jsonl.gz"
    full = gzip.compress(whole)
    cut.write_bytes(full[: len(full) * 2 // 3])
    code = main(["traces", "--json", "--no-scrub", str(cut)])
    listing = json.loads(capsys.readouterr().out)
    assert code == 0 and listing["traces"]
    [problem] = listing["skipped"]
    assert problem["where"].startswith(f"{cut}:") and "ends early" in problem["why"]
    number = int(problem["where"].rsplit(":", 1)[1])
    assert 1 < number < len(lines)


def test_a_record_that_cannot_be_read_is_not_blamed_on_content_capture(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    lines = (TRACES / "adk2.otlp.jsonl").read_bytes().split(b"\n")
    broken = tmp_path / "bad-utf8.jsonl"
    broken.write_bytes(b"\n".join([lines[0][:50] + b"\xff" + lines[0][50:], *lines[1:]]))
    code, err = _run(capsys, "draft", str(broken), "--trace", TRACE_ID, "--by", "sme")
    assert code == 2 and len(err) == 1
    assert "content capture" not in err[0] and "could not be read" in err[0]
    code, err = _run(capsys, "draft", str(TRACES / "adk2-nocontent.otlp.jsonl"), "--trace", "1b6a", "--by",
                     "sme")
    assert code == 2 and "content capture off" in err[0]


LAUGHS = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['x'] * 9)}]\n"
    for prev, name in zip([None, "a", "b", "c", "d", "e", "f", "g"], "abcdefgh")
)
BAD_POLICIES = {
    "alias-bomb": (LAUGHS + "allow_terms: [*h]\n", "aliases"),
    "not-yaml": ("entities: [PERSON\n", "invalid YAML"),
    "unknown-key": ("nonsense_setting: 1\n", "policy.yaml:1"),
    "bad-regex": ("patterns:\n  - {name: x, entity: X, regex: '(['}\n", "policy.yaml:"),
    "a-folder": (None, "folder"),
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("defect", sorted(BAD_POLICIES))
def test_a_bad_policy_is_one_line_for_every_command(defect: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture) -> None:
    text, expected = BAD_POLICIES[defect]
    policy = tmp_path / "policy.yaml"
    if text is None:
        policy.mkdir()
    else:
        policy.write_text(text)
    source = str(TRACES / "adk2.otlp.jsonl")
    for args in (
        ["traces", source, "--policy", str(policy)],
        ["scrub", source, "-o", str(tmp_path / "out.jsonl"), "--policy", str(policy), "--workers", "1"],
        ["draft", source, "--trace", TRACE_ID, "--by", "sme", "--policy", str(policy)],
    ):
        code, lines = _run(capsys, *args)
        assert code == 2 and len(lines) == 1, (args[0], lines)
        assert expected in lines[0] and lines[0].count(str(policy)) == 1, (args[0], lines)


@pytest.mark.timeout(60)
def test_a_case_file_alias_bomb_is_refused_not_expanded(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture) -> None:
    case = tmp_path / "hr.bomb_001.yaml"
    case.write_text(
        "format: portable-v1\nid: hr.bomb_001\ntitle: t\ninput: i\n" + LAUGHS + "metadata: {x: *h}\n"
    )
    code, lines = _run(capsys, "validate", str(case))
    assert code == 2 and any("aliases" in line for line in lines)
