"""The JUnit XML of a check report, for CI test reporters (Jenkins, GitLab, GitHub Actions).

One `<testsuite>` per case (its id), one `<testcase>` per evaluator label: a failing result carries
`<failure>`, an inconclusive one `<skipped>` (neither passes nor fails, as JUnit consumers read it).
Cases not paired get one skipped `pairing` test; the gates get a `gates` suite of their own.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

from promote.check.report import CheckReport
from promote.errors import PromoteError
from promote.fsutil import atomic_write_bytes


def junit_xml(report: CheckReport) -> bytes:
    """The report as JUnit XML (UTF-8, with an XML declaration)."""
    root = ET.Element("testsuites", name="promote check")
    for case in report.cases:
        suite = _suite(root, case.case_id, file=case.path)
        for result in case.results:
            test = _test(suite, case.case_id, result.label)
            if result.verdict == "fail":
                ET.SubElement(test, "failure", message=result.reason, type="fail").text = result.reason
            elif result.verdict == "inconclusive":
                ET.SubElement(test, "skipped", message=f"inconclusive: {result.reason}")
    for unpaired in report.unpaired:
        suite = _suite(root, unpaired.case_id, file=unpaired.path)
        test = _test(suite, unpaired.case_id, "pairing")
        ET.SubElement(test, "skipped", message=f"not paired: {unpaired.why}")
    if report.gates:
        suite = _suite(root, "gates")
        for gate in report.gates:
            test = _test(suite, "gates", f"{gate.label} >= {gate.minimum:g}")
            if not gate.met:
                reached = "no conclusive result" if gate.rate is None else f"pass rate {gate.rate:.3f}"
                ET.SubElement(test, "failure", message=reached, type="gate").text = reached
    _count(root)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def write_junit(report: CheckReport, path: Path) -> None:
    """Write the JUnit XML atomically."""
    atomic_write_bytes(path, junit_xml(report))


def refuse_junit_over_inputs(path: Path, inputs: Iterable[str | Path]) -> None:
    """The report must not replace what it reports on: a `--junit` path that is (or links to, or is a
    hard link of) a case or trace file is bad input, refused before anything runs."""
    target = _identity(Path(path))
    if target is None:
        return
    for given in inputs:
        if _identity(Path(given)) == target:
            raise PromoteError("--junit names one of the inputs (a case or trace file, or a link to one)",
                               where=str(path), hint="write the JUnit report to a new file")


def _identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file a path reaches, None when there is none yet."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _suite(root: ET.Element, name: str, **attributes: str) -> ET.Element:
    return ET.SubElement(root, "testsuite", name=name, **attributes)


def _test(suite: ET.Element, classname: str, name: str) -> ET.Element:
    return ET.SubElement(suite, "testcase", classname=classname, name=name, time="0")


def _count(root: ET.Element) -> None:
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root:
        counts = {
            "tests": len(suite),
            "failures": sum(test.find("failure") is not None for test in suite),
            "errors": 0,
            "skipped": sum(test.find("skipped") is not None for test in suite),
        }
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", "0")
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", "0")
