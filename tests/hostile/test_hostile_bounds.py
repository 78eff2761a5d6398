"""Bounded everything: no case file, however built, crashes (exit 3), hangs or eats memory.

Deep nesting in block and flow style, huge integers as values and as keys, a tenant written as a
text, a file that never ends (/dev/zero), a FIFO, a catastrophic regex in every place a case holds one:
each command that reads a case answers with one line and exit 1 or 2, quickly.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from promote.case.patterns import PatternTimeout, pattern_problem, search
from promote.cli.main import main
from tests.conftest import GOLDEN_CASES, ROOT, TRACES

HERO = GOLDEN_CASES / "hr.policy_carryover_004.yaml"
NAME = "hr.policy_carryover_004.yaml"


def _hostile(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cases" / NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _hero_with(append: str = "", replace: tuple[str, str] | None = None) -> str:
    text = HERO.read_text(encoding="utf-8")
    if replace:
        assert replace[0] in text
        text = text.replace(*replace)
    return text + append


HOSTILE = {
    "flow-depth": _hero_with("\nparams2: " + "[" * 5000 + "]" * 5000 + "\n"),
    "flow-depth-in-metadata": _hero_with(replace=("metadata:", "metadata:\n  deep: " + "{a: " * 3000
                                                  + "1" + "}" * 3000 + "\nmetadata_old:")),
    "block-depth": _hero_with("\nmetadata2:\n" + "".join(" " * i + "k:\n" for i in range(1, 600))),
    "big-int-value": _hero_with(replace=("revision: 7", "revision: " + "9" * 5000)),
    "big-int-in-params": _hero_with(replace=("params:", "params:\n  n: " + "7" * 5000 + "\nparams_old:")),
    "big-int-key": _hero_with("\n" + "1" * 5000 + ": x\n"),
    "huge-int-under-limit": _hero_with(replace=("revision: 7", "revision: " + "9" * 4000)),
    "tenant-text": _hero_with(replace=("tenant:", "tenant: some-string\ntenant_old:")),
    "tenant-list": _hero_with(replace=("tenant:", "tenant: [a, b]\ntenant_old:")),
    "entities-text": _hero_with(replace=("entities:", "entities: just-text\nentities_old:")),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["validate", "compile", "check"])
def test_a_hostile_case_is_one_line_never_a_crash(tmp_path, capsys, name, command) -> None:
    case = _hostile(tmp_path, HOSTILE[name])
    argv = {"validate": ["validate", str(case)],
            "compile": ["compile", str(case), "-o", str(tmp_path / "out")],
            "check": ["check", str(case), "--trace", str(TRACES / "adk2.otlp.jsonl")]}[command]
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (1, 2), (code, err[-600:])
    assert "internal error" not in err and "Traceback" not in err


def test_a_hostile_case_is_refused_by_pr(tmp_path, monkeypatch) -> None:
    from promote.repo.pr import PrOptions, open_pull_request
    from promote.errors import PromoteError
    from tests.pr_helpers import make_eval_repo

    repo = make_eval_repo(tmp_path, monkeypatch)
    for name in ("flow-depth", "big-int-value", "tenant-text", "block-depth"):
        case = _hostile(tmp_path / name, HOSTILE[name])
        with pytest.raises(PromoteError):
            open_pull_request([case], repo.root, PrOptions(dry_run=True))
    assert repo.branches() == ["main"]


def _promote(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "promote", *args], capture_output=True, cwd=ROOT,
                          timeout=timeout)


@pytest.mark.parametrize("command", ["validate", "check"])
def test_dev_zero_is_refused_before_reading(command) -> None:
    started = time.monotonic()
    extra = ["--trace", str(TRACES / "adk2.otlp.jsonl")] if command == "check" else []
    done = _promote(command, "/dev/zero", *extra)
    assert done.returncode == 2, done.stderr[-400:]
    assert b"not a regular file" in done.stderr and time.monotonic() - started < 60


def test_a_fifo_is_refused_not_waited_on(tmp_path) -> None:
    fifo = tmp_path / "hr.policy_carryover_004.yaml"
    os.mkfifo(fifo)
    done = _promote("validate", str(fifo), timeout=60)
    assert done.returncode == 2 and b"not a regular file" in done.stderr, done.stderr[-400:]


def test_a_file_over_the_size_limit_is_refused_without_reading_it_whole(tmp_path) -> None:
    big = tmp_path / "hr.policy_carryover_004.yaml"
    with big.open("wb") as out:
        out.truncate(2 << 30)  # 2 GiB, sparse: reading it whole would take the memory limit below
    code = ("import resource,sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30));"
            "from promote.cli.main import main; sys.exit(main(['validate', '--no-pii-scan', sys.argv[1]]))")
    done = subprocess.run([sys.executable, "-c", code, str(big)], capture_output=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and b"larger than" in done.stderr, done.stderr[-400:]


# --- regexes ------------------------------------------------------------------------------------------

CATASTROPHIC = [r"(a+)+$", r"(a*)*b", r"^(\w+\s?)*$", r"(?:a+b?)*c", r"((ab)+)+x", r"(a|aa)+$",
                r"([a-z]+)*!", r"(\d+|x)+y", r"(a{2,})+$"]
FINE = [r"carr(y|ies) (over|into)", r"pto_.*", r"^CA$", r"E-\d{5}", r"(\d+,)*\d+", r"(?:[a-z]+\.)+[a-z]+",
        r"PTO-CA-2026 §4\.2", r"\b(hours?|days?)\b"]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_validate_refuses_a_catastrophic_regex_without_quoting_it(pattern) -> None:
    problem = pattern_problem(pattern)
    assert problem is not None and pattern not in problem


@pytest.mark.parametrize("pattern", FINE)
def test_ordinary_regexes_are_accepted(pattern) -> None:
    assert pattern_problem(pattern) is None


@pytest.mark.parametrize("where", ["reply.matches", "reply.not_matches", "match-rule"])
def test_a_case_holding_a_catastrophic_regex_fails_validation(tmp_path, capsys, where) -> None:
    insert = {"reply.matches": "reply:\n  matches: ['(a+)+$']\n",
              "reply.not_matches": "reply:\n  not_matches: ['(a|aa)+$']\n",
              "match-rule": None}[where]
    if insert is None:
        text = _hero_with(replace=("topic: exact", "topic: 'regex:(\\w+\\s?)*$'"))
    else:
        text = _hero_with("\n" + insert)
    case = _hostile(tmp_path, text)
    assert main(["validate", "--no-pii-scan", str(case)]) == 1
    out = capsys.readouterr().out
    assert "backtrack" in out and "(a+)+" not in out and "(a|aa)" not in out


def test_a_pattern_that_runs_too_long_in_check_times_out() -> None:
    slow = r"(a|aa)+$"  # accepted only if validation were skipped: check must still end
    started = time.monotonic()
    with pytest.raises(PatternTimeout):
        search(slow, "a" * 60 + "!", timeout=0.2)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("content", ["fifo", "deep", "big-int"])
def test_the_eval_repos_own_yaml_files_are_read_with_the_same_bounds(tmp_path, content) -> None:
    from promote.errors import PromoteError
    from promote.eval_repo import load_catalog, load_config

    config, catalog = tmp_path / "promote.yaml", tmp_path / "entities.yaml"
    for path in (config, catalog):
        if content == "fifo":
            os.mkfifo(path)
        else:
            path.write_text("agents: " + "[" * 3000 + "]" * 3000 + "\n" if content == "deep"
                            else "default: {pillar: " + "9" * 5000 + "}\n")
    for load, path in ((load_config, config), (load_catalog, catalog)):
        with pytest.raises(PromoteError):
            load(path)


@pytest.mark.parametrize("where", ["reply.matches", "reply.not_matches", "regex-rule"])
def test_check_ends_on_a_pattern_that_slipped_past_validation(where) -> None:
    """A case built in code (or by an older promote) can hold a pattern validate refuses today:
    check still ends, and says why instead of a verdict."""
    from promote.case.checks import ReplyChecks
    from promote.case.model import ArgRule
    from promote.check import check_cases
    from promote.check.run import load_case_model
    from promote.listing import list_traces
    from promote.scrubbing import engine

    slow = r"^(a|aa)+$"
    case = load_case_model(HERO)
    trace = next(t for t in list_traces([TRACES / "adk2.otlp.jsonl"]).traces
                 if any(c.name == "search_hr_policy" for turn in t.turns for c in turn.tool_calls))
    trace = trace.model_copy(deep=True)
    turn = trace.turns[0]
    bomb = "a" * 60 + "!"
    if where == "regex-rule":
        call = next(c for c in turn.tool_calls if c.name == "search_hr_policy")
        call.args = {**call.args, "topic": bomb}
        rule = ArgRule.model_construct(kind="regex", pattern=slow, tolerance=None, values=None)
        expected = case.expected_tools.calls[1]
        object.__setattr__(expected, "match", {**expected.match, "topic": rule})  # past validation
        label = "tool-args"
    else:
        turn.final_response = bomb
        field = where.split(".")[1]
        object.__setattr__(case, "reply", ReplyChecks.model_construct(**{field: [slow]}))
        label = {"matches": "reply-match", "not_matches": "reply-not-match"}[field]
    started = time.monotonic()
    report = check_cases([("hero", case)], [trace], engine=engine())
    assert time.monotonic() - started < 60
    result = next(r for r in report.cases[0].results if r.label == label)
    assert result.verdict in ("inconclusive", "fail") and "did not finish" in result.reason, result
