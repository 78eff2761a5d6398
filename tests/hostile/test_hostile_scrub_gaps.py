"""The scrubber's last gaps (issue 40), as classes: a value the trace holds, planted where earlier rounds
let it through, in a real google-adk export through `promote scrub`.

- a known full name or e-mail glued into an identifier by `-`, `_`, `.`, `+` or `@` (a host or instance
  id, a function name, a scope version, a conversation id, a session id, an attribute key);
- a personal number as an `intValue` (or a string) inside an `arrayValue` under a personal key;
- a name in a text longer than `ner_max_chars` (NER does not read it; the other recognizers do);
- an e-mail cut across sibling fields.

The placements here are not the ones the issue's reporter used (those are held out): other attributes,
other joints, other orders.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promote.batch.run import ScrubOptions, scrub_exports
from tests.conftest import TRACES, string_leaves

FIRST, LAST = "maria", "gonzalez"  # the name the fixture trace's user message and tool result hold
LONG_NAME = "Marisol Quintanilla-Obregón"


def _string(value: str) -> dict:
    return {"stringValue": value}


def _planted() -> tuple[dict, list[str]]:
    record = json.loads((TRACES / "adk2.otlp.jsonl").read_text().splitlines()[0])
    resource_spans = record["resourceSpans"][0]
    span = resource_spans["scopeSpans"][0]["spans"][-1]
    attributes = span["attributes"]
    values = []

    def plant(key: str, value: dict, shown: str) -> None:
        attributes.append({"key": key, "value": value})
        values.append(shown)

    for key, value in [("host.name", f"wks+{FIRST}.{LAST}"), ("code.namespace", f"svc.{FIRST}_{LAST}.tools"),
                       ("thread.name", f"worker@{FIRST}-{LAST}"),
                       ("session.id", f"{FIRST.title()}{LAST.title()}")]:
        plant(key, _string(value), value)
    resource_spans["scopeSpans"][0]["scope"]["version"] = f"1.0.0-{FIRST}-{LAST}"
    values.append(f"1.0.0-{FIRST}-{LAST}")
    attributes.append({"key": f"debug.{FIRST}_{LAST}.enabled", "value": {"boolValue": True}})
    values.append(f"debug.{FIRST}_{LAST}.enabled")
    plant("employee.phone_numbers", {"arrayValue": {"values": [{"intValue": "4155550134"},
                                                               _string("415 555 0199")]}}, "4155550134")
    values.append("415 555 0199")
    plant("beneficiary.tax_id", {"arrayValue": {"values": [{"intValue": 512447723}]}}, "512447723")
    long_text = "lorem ipsum dolor " * 12_000 + f"please call {LONG_NAME} about the payroll change."
    plant("tool.output.long", _string(long_text), LONG_NAME)
    plant("contact.email_local", _string(f"{FIRST}.{LAST}"), f"{FIRST}.{LAST}")
    attributes.append({"key": "contact.email_host", "value": _string("acme-retail.com")})
    return record, values


@pytest.fixture(scope="module")
def scrubbed(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, list[str]]:
    folder = tmp_path_factory.mktemp("gaps")
    record, values = _planted()
    source = folder / "planted.otlp.jsonl"
    source.write_text(json.dumps(record) + "\n")
    output = folder / "scrubbed.otlp.jsonl"
    scrub_exports([str(source)], str(output), ScrubOptions(workers=1))
    return source.read_text(), output.read_text(), values


def _everything(text: str) -> str:
    """Every string and number of the export (keys too), JSON inside strings decoded, lower-cased."""
    leaves = []
    for line in text.splitlines():
        record = json.loads(line)
        leaves += list(string_leaves(record))
        leaves += [str(number) for number in _numbers(record)]
    return "\n".join(leaves).casefold()


def _numbers(node):  # type: ignore[no-untyped-def]
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _numbers(value)
    elif isinstance(node, list):
        for item in node:
            yield from _numbers(item)
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield node


def test_every_planted_value_was_in_the_export(scrubbed) -> None:
    before, _, values = scrubbed
    everything = _everything(before)
    for value in values:
        assert value.casefold() in everything, value


def test_no_planted_value_is_left_in_any_form(scrubbed) -> None:
    _, after, values = scrubbed
    everything = _everything(after)
    leaks = [value for value in values if value.casefold() in everything]
    assert leaks == []
    assert f"{FIRST}.{LAST}@acme-retail.com" not in everything
    assert "quintanilla" not in everything


def test_what_is_no_value_of_the_trace_survives(scrubbed) -> None:
    _, after, _ = scrubbed
    everything = _everything(after)
    assert "lorem ipsum dolor" in everything and "about the payroll change" in everything
    assert "hr_policy_advisor" in everything
