"""The compile log says, per case, where each concern went (issue 39): ADK's trajectory with `ignore_args`
for names and order, the argument rules to ADK's custom metric running `promote check`'s code."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import FIXTURES, run_cli


def test_the_compile_log_names_where_each_case_argument_rules_went(tmp_path: Path) -> None:
    golden = FIXTURES / "cases" / "golden"
    done = run_cli("compile", str(golden), "-o", str(tmp_path / "out"), "--target", "adk")
    assert done.returncode == 0, done.stderr.decode()
    routing = [line for line in done.stdout.decode().splitlines() if line.startswith("routing: adk: ")]
    assert routing, done.stdout
    assert any("ADK trajectory (ignore_args)" in line for line in routing)
    assert any("promote_tool_args" in line for line in routing)
