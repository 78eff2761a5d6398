"""The oracle payload keeps each figure's source: the tool and JSON path it was read from, or derived."""

from __future__ import annotations

import json
from pathlib import Path

from promote.compile.run import compile_paths

from tests.conftest import GOLDEN_CASES

HERO = GOLDEN_CASES / "hr.policy_carryover_004.yaml"


def test_each_figure_carries_its_source_into_the_oracle_payload(tmp_path: Path) -> None:
    text = HERO.read_text(encoding="utf-8")
    edits = {
        "    tolerance: 0\n  - {name: current_balance":
            "    tolerance: 0\n    source: {tool: search_hr_policy, path: '$.chunks[0].text'}\n"
            "  - {name: current_balance",
        "{name: current_balance, value: 62.5, unit: h, oracle: ukg-accrual-engine, tolerance: 0}":
            "{name: current_balance, value: 62.5, unit: h, oracle: ukg-accrual-engine, tolerance: 0, "
            "source: {tool: get_employee_context, path: $.pto_balance_hours}}",
        "{name: at_risk, value: 22.5, unit: h, oracle: ukg-accrual-engine, tolerance: 0}":
            "{name: at_risk, value: 22.5, unit: h, oracle: ukg-accrual-engine, tolerance: 0, "
            "source: {derived: true}}",
    }
    for old, new in edits.items():
        assert old in text
        text = text.replace(old, new)
    (tmp_path / HERO.name).write_text(text, encoding="utf-8")
    compile_paths([tmp_path / HERO.name], tmp_path / "out", targets=["numeric"], pii_scan=False)
    payload = json.loads((tmp_path / "out" / "numeric" / "hr.policy_carryover_004.oracle.json").read_text())
    assert [(figure["name"], figure["source"]) for figure in payload["figures"]] == [
        ("carryover_cap", {"tool": "search_hr_policy", "path": "$.chunks[0].text"}),
        ("current_balance", {"tool": "get_employee_context", "path": "$.pto_balance_hours"}),
        ("at_risk", "derived"),
    ]


def test_a_figure_without_a_source_says_so() -> None:
    payload = json.loads((Path("fixtures/compiled/golden/numeric/hr.policy_carryover_004.oracle.json"))
                         .read_text(encoding="utf-8"))
    assert [figure["source"] for figure in payload["figures"]] == [None, None, None]
