"""`promote check` as CI runs it: exit codes, JSON, JUnit XML a test reporter reads, bad input."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.conftest import GOLDEN_CASES, TRACES, run_cli

EXPECTED = json.loads((TRACES / "expected.json").read_text(encoding="utf-8"))
PLANTED = [item["value"] for item in EXPECTED["planted_pii"]]


def _without_search_tool(tmp_path: Path) -> Path:
    """adk2.otlp.json with the carryover turn's search_hr_policy call removed (a real export, edited)."""
    scenarios = EXPECTED["runs"]["adk2"]["scenarios"]
    carryover = next(s["trace_id"] for s in scenarios if s["scenario"] == "carryover")
    request = json.loads((TRACES / "adk2.otlp.json").read_text(encoding="utf-8"))
    removed = 0
    for resource in request["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            kept = [span for span in scope["spans"] if not (
                span["name"] == "execute_tool search_hr_policy" and span["traceId"] == carryover)]
            removed += len(scope["spans"]) - len(kept)
            scope["spans"] = kept
    assert removed == 1
    out = tmp_path / "dropped.otlp.json"
    out.write_text(json.dumps(request), encoding="utf-8")
    return out


def test_seed_cases_pass_and_junit_parses(tmp_path: Path) -> None:
    junit = tmp_path / "check.xml"
    result = run_cli("check", str(GOLDEN_CASES), "--trace", str(TRACES / "adk2.otlp.jsonl"),
                     "--junit", str(junit), "--min-pass-rate", "tools=1.0", "--min-pass-rate", "figures=100%")
    assert result.returncode == 0, result.stderr.decode()
    out = result.stdout.decode()
    assert "3 case(s) checked: 3 passed, 0 failed" in out and "gate tools >= 1: met" in out
    root = ET.fromstring(junit.read_bytes())
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [
        "benefits.plan_coverage_001", "hr.policy_carryover_004", "wfm.accrual_balance_007", "gates"]
    for element in [root, *suites]:
        assert {"tests", "failures", "errors", "skipped", "time"} <= set(element.attrib)
    for suite in suites:
        assert int(suite.get("tests")) == len(suite.findall("testcase")) > 0
        for case in suite.findall("testcase"):
            assert case.get("name") and case.get("classname") == suite.get("name") and case.get("time")
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in suites)
    assert root.get("failures") == "0"
    # benefits: pii-guard is inconclusive (no record of the requester), which JUnit reads as skipped.
    skipped = [(c.get("classname"), c.get("name")) for c in root.iter("testcase")
               if c.find("skipped") is not None]
    assert skipped == [("benefits.plan_coverage_001", "pii-guard")]


def test_a_dropped_tool_exits_1_in_json_and_junit(tmp_path: Path) -> None:
    junit = tmp_path / "check.xml"
    export = _without_search_tool(tmp_path)
    result = run_cli("check", str(GOLDEN_CASES / "hr.policy_carryover_004.yaml"), "--trace", str(export),
                     "--json", "--junit", str(junit), "--min-pass-rate", "tool-order=0.5")
    assert result.returncode == 1, result.stderr.decode()
    report = json.loads(result.stdout)
    (case,) = report["cases"]
    found = {r["label"]: r["verdict"] for r in case["results"]}
    assert found["tools"] == "fail" and found["tool-order"] == found["tool-args"] == "inconclusive"
    assert case["passed"] is False and report["ok"] is False
    assert report["gates"] == [{"label": "tool-order", "minimum": 0.5, "rate": None, "met": False}]
    root = ET.fromstring(junit.read_bytes())
    failures = [(c.get("classname"), c.get("name")) for c in root.iter("testcase")
                if c.find("failure") is not None]
    assert failures == [("hr.policy_carryover_004", "tools"), ("gates", "tool-order >= 0.5")]
    assert root.get("failures") == "2"
    assert not [value for value in PLANTED if value.encode() in result.stdout + junit.read_bytes()]


def test_bad_input_exits_2_with_one_line(tmp_path: Path) -> None:
    bad_case = tmp_path / "wfm.broken_001.yaml"
    bad_case.write_text("format: portable-v1\nid: wfm.broken_001\ntitle: t\ninput: x\nreply: {contains: 3}\n")
    trace = str(TRACES / "adk2.otlp.jsonl")
    cases = str(GOLDEN_CASES)
    for args, says in [
        (["check", cases, "--trace", str(tmp_path / "missing.jsonl")], "missing.jsonl"),
        (["check", str(bad_case), "--trace", trace], f"{bad_case}:5"),
        (["check", cases, "--trace", trace, "--min-pass-rate", "tool=1"], "unknown label tool"),
        (["check", cases, "--trace", str(TRACES / "adk2-default.otlp.jsonl")], "pass --turn N"),
    ]:
        result = run_cli(*args)
        assert result.returncode == 2, (args, result.stdout)
        lines = result.stderr.decode().splitlines()
        assert len(lines) == 1 and says in lines[0], lines
        assert "Traceback" not in result.stderr.decode()
