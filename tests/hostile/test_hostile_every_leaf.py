"""Every string of a real producer's export is scrubbed, wherever the producer put it (issue 11, fail closed).

A made-up person's name, and an SSN in base64, replace one string leaf at a time of each Langfuse export
(native and OTel) and of kagent's Tempo export, once per distinct key path; the exports are scrubbed in one
run and neither value may be left. The Langfuse codec once offered only the fields it knew as content: a
trace's `release`, an observation's `name`, its `userId` (an employee id, in the fixture itself) and every
unknown field were copied as they were.
"""

from __future__ import annotations

import json
from pathlib import Path

from corpora.planting import DISGUISES, VALUES, leaked, output_text, plant_every_string_path, scrub_all
from promote.batch.run import ScrubOptions, scrub_exports
from tests.conftest import TRACES

PRODUCERS = TRACES / "producers"
EXPORTS = ["langfuse-native.carryover.json", "langfuse-native.tool_error.json",
           "langfuse-otel.tool_error.json", "kagent.tempo.json"]
CARRIERS = {"name": f"Ticket opened by {VALUES['name']} today", "ssn": DISGUISES["base64"](VALUES["ssn"])}


def test_a_value_at_any_string_of_a_producer_export_is_removed(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    planted = plant_every_string_path([PRODUCERS / name for name in EXPORTS], CARRIERS, tmp_path / "in")
    assert len(planted) > 200
    outputs = scrub_all(planted, tmp_path / "out")
    leaks = [(name, "/".join(map(str, shape)), kind) for (name, shape, kind), output in outputs.items()
             if leaked(output_text(output), {kind: VALUES[kind]}, (CARRIERS[kind],))]
    assert leaks == []


def test_the_langfuse_observation_user_id_is_scrubbed(tmp_path: Path) -> None:
    source = PRODUCERS / "langfuse-native.carryover.json"
    assert '"userId": "E-44213"' in source.read_text()  # each observation carries the user (v2 API)
    out = tmp_path / source.name
    scrub_exports([str(source)], str(out), ScrubOptions(workers=1))
    text = out.read_text()
    assert "E-44213" not in text and "<USER_ID_1>" in text
    before, after = json.loads(source.read_text()), json.loads(text)
    assert [o["name"] for o in after["observations"]] == [o["name"] for o in before["observations"]]
