"""A member added to any JSON object of a real export is scrubbed: its key and its value (issue 11).

A made-up person's name as a key (`{"Gregory Hallman": "x"}`), and an SSN written as a number under
`ssn`, are added to each distinct object (list indices folded) of the first documents of every JSON
export format: OTLP JSON and JSON lines of ADK 1.x, 2.x and OpenInference, Jaeger, Tempo, the console
exports of Monocle, and Langfuse's native and OTel exports. Each copy is scrubbed in one run and neither
value may be left in any form. Sweeping objects instead of strings found what the string sweeps could
not: Langfuse's codec offered neither the keys nor the numbers of its content and metadata, the console
codec offered an unknown `context` member without its key (so a number under `ssn` stayed), and Jaeger
did the same for a process that is no object.
"""

from __future__ import annotations

import json
from pathlib import Path

from corpora.planting import VALUES, leaked, output_text, plant_every_object_path, scrub_all
from promote.batch.run import ScrubOptions, scrub_exports
from tests.conftest import TRACES

SSN_NUMBER = 512447723
MEMBERS = {"name key": (VALUES["name"], "x"), "ssn number": ("ssn", SSN_NUMBER)}
LOOKED_FOR = {"name key": {"name": VALUES["name"]}, "ssn number": {"ssn": VALUES["ssn"]}}
EXPORTS = ["adk2.otlp.jsonl", "adk2.otlp.json", "adk1.otlp.jsonl", "openinference.otlp.jsonl",
           "adk2-nocontent.otlp.jsonl", "adk2.jaeger.json", "adk2.tempo.json"]
PRODUCERS = sorted(path.name for path in (TRACES / "producers").glob("*.json")
                   if path.name != "expected.json")


def test_a_member_added_to_any_object_is_scrubbed(tmp_path: Path) -> None:
    assert VALUES["ssn"].replace("-", "") == str(SSN_NUMBER)
    sources = [TRACES / name for name in EXPORTS] + [TRACES / "producers" / name for name in PRODUCERS]
    assert any("langfuse" in name for name in PRODUCERS) and any("monocle" in name for name in PRODUCERS)
    (tmp_path / "in").mkdir()
    planted = plant_every_object_path(sources, MEMBERS, tmp_path / "in")
    assert len(planted) > 400
    outputs = scrub_all(planted, tmp_path / "out")
    leaks = [(name, "/".join(map(str, shape)), kind) for (name, shape, kind), output in outputs.items()
             if leaked(output_text(output), LOOKED_FOR[kind])]
    assert leaks == []


def test_a_figure_under_a_key_of_no_rule_stays_where_personal_numbers_go(tmp_path: Path) -> None:
    """The other side of offering every number: one under a key no rule makes personal is written as
    it was, in a Langfuse observation's input beside the SSN that is not."""
    source = TRACES / "producers" / "langfuse-native.carryover.json"
    doc = json.loads(source.read_text())
    doc["observations"][0]["input"] = {"ssn": SSN_NUMBER, "figures": {"pto_balance_hours": 62.5}}
    planted = tmp_path / source.name
    planted.write_text(json.dumps(doc))
    out = tmp_path / "out.json"
    scrub_exports([str(planted)], str(out), ScrubOptions(workers=1))
    scrubbed = json.loads(out.read_text())["observations"][0]["input"]
    assert scrubbed["figures"] == {"pto_balance_hours": 62.5}
    assert scrubbed["ssn"] != SSN_NUMBER and str(SSN_NUMBER) not in out.read_text()
