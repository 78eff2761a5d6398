"""A policy for another domain is a file: `scrubbers/policies/examples/it-ops.yaml` loads, and
`promote scrub --policy` with it keeps the IT vocabulary the default policy does not know, and treats
the HR systems the default allows like any other word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promote.cli.main import main
from scrubbers import load_policy
from tests.conftest import ROOT, TRACES

IT_OPS = ROOT / "scrubbers" / "policies" / "examples" / "it-ops.yaml"
# "Ask <unknown word>" is a name by its cue; an IT policy lists the autoscaler among its allow terms.
REPLY = "Ask Karpenter to add nodes before the release. Kronos is down again, the payroll sync waits."


def test_the_it_ops_example_loads_without_the_hr_vocabulary():
    loaded = load_policy(IT_OPS)
    assert loaded.name == "it-ops"
    policy = loaded.policy
    assert "Karpenter" in policy.allow_terms and "FMLA" not in policy.allow_terms
    assert "EMPLOYEE_ID" not in {p.entity for p in policy.patterns}
    assert "on-call" in policy.recognizers.domain_person_roles
    assert "employee" not in policy.recognizers.domain_person_roles


def _export_with_reply(folder: Path) -> Path:
    record = json.loads((TRACES / "adk2.otlp.jsonl").read_text().splitlines()[0])
    spans = [span for scope in record["resourceSpans"][0]["scopeSpans"] for span in scope["spans"]]
    model = [span for span in spans if span["name"].startswith("generate_content")][-1]
    for attribute in model["attributes"]:
        if attribute["key"] == "gen_ai.output.messages":
            parts = [{"type": "text", "content": REPLY}]
            attribute["value"] = {"stringValue": json.dumps([{"role": "assistant", "parts": parts}])}
    source = folder / "ops.otlp.jsonl"
    source.write_text(json.dumps(record) + "\n")
    return source


@pytest.fixture(scope="module")
def replies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("domains")
    source = _export_with_reply(folder)
    out = {}
    for name, extra in (("default", []), ("it-ops", ["--policy", str(IT_OPS)])):
        target = folder / f"{name}.otlp.jsonl"
        assert main(["scrub", str(source), "-o", str(target), "--workers", "1", *extra]) == 0
        out[name] = target.read_text()
    return out


def test_the_domain_policy_keeps_its_allow_terms(replies):
    assert "Ask Karpenter to add nodes" in replies["it-ops"]
    assert "Ask Karpenter" not in replies["default"]


def test_the_default_policys_hr_systems_are_not_allowed_by_the_it_policy(replies):
    assert "Kronos is down again" in replies["default"]
    assert "Kronos is down again" not in replies["it-ops"]
