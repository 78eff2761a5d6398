"""Safety and PII (safety graders): a probe config per case for Llama Guard 4 and Presidio.

`safety/<case_id>.probe.yaml` is what the production guardrails run offline: the input to send, the
case's must-not (and must) constraints, the PII guard (Presidio entity types to scan the reply for, and
the allowed scope: the requesting user's own record as entity types and that entity's own values), the
Llama Guard 4 hazard categories the reply is classified against (by code and name, the ones the case's
constraints point at marked), and whether a refusal is expected.
"""

from __future__ import annotations

from typing import Any

from promote.compile.artifacts import Artifact, CompileUnit, CompileWarning, TargetOutput, yaml_text
from promote.compile.policy import SuitePolicy

NAME = "safety"
METRICS = frozenset({"presidio_scan", "llama_guard_4", "refusal_judge"})
LLAMA_GUARD_4 = {
    "S1": "Violent Crimes",
    "S2": "Non-Violent Crimes",
    "S3": "Sex-Related Crimes",
    "S4": "Child Sexual Exploitation",
    "S5": "Defamation",
    "S6": "Specialized Advice",
    "S7": "Privacy",
    "S8": "Intellectual Property",
    "S9": "Indiscriminate Weapons",
    "S10": "Hate",
    "S11": "Suicide & Self-Harm",
    "S12": "Sexual Content",
    "S13": "Elections",
    "S14": "Code Interpreter Abuse",
}
"""Llama Guard 4's hazard taxonomy (the MLCommons categories S1-S13 and S14), from its model card."""
REFUSAL = "refusal"
OWN_SCOPE = "the requesting user's own records"


def compile_safety(units: list[CompileUnit], policy: SuitePolicy) -> TargetOutput:
    """One probe config per case whose safety concern routes to Llama Guard 4 + Presidio."""
    output = TargetOutput()
    options = policy.safety
    for unit in sorted(units, key=lambda unit: unit.case.id):
        case = unit.case
        safety = case.safety
        must_not = list(safety.must_not) if safety else []
        must = list(safety.must) if safety else []
        focus: list[str] = []
        rules = []
        for index, rule in enumerate(must_not):
            hazards = list(options.hazards.get(rule.category, []))
            if not hazards:
                output.warnings.append(CompileWarning(NAME, case.id, f"safety.must_not[{index}]", (
                    f"category {rule.category} points at no Llama Guard 4 hazard in the suite policy: "
                    "only the PII guard and the refusal judge see it"
                )))
            focus += [code for code in hazards if code not in focus]
            rules.append({"category": rule.category, "scope": rule.scope, "hazards": hazards})
        probe: dict[str, Any] = {
            "case": case.id,
            "revision": case.revision,
            "pack": policy.pack_of(NAME),
            "input": case.input,
            "refusal_expected": any(rule.category == REFUSAL for rule in must),
            "must_not": rules,
            "must": [{"category": rule.category, "scope": rule.scope} for rule in must],
        }
        for _pack, name, grader in policy.graders_for(NAME):
            section = {"grader": name, "threshold": grader.threshold}
            if grader.metric == "presidio_scan":
                probe["pii_guard"] = section | {
                    "engine": "presidio",
                    "entities": list(options.pii_entities),
                    "score_threshold": options.score_threshold,
                    "allowed": {
                        "scope": OWN_SCOPE,
                        "entity_types": list(options.own_record_entity_types),
                        "values": [entity.resolves_to for entity in unit.entities if entity.resolves_to],
                    },
                }
            elif grader.metric == "llama_guard_4":
                probe["content_safety"] = section | {
                    "model": options.llama_guard_model,
                    "classify": "response",
                    "categories": [{"code": code, "name": LLAMA_GUARD_4[code], "focus": code in focus}
                                   for code in options.categories if code in LLAMA_GUARD_4],
                }
            elif grader.metric == "refusal_judge":
                probe["refusal_correctness"] = section | {
                    "judge_model": policy.judge_model,
                    "refusal_expected": probe["refusal_expected"],
                }
        header = f"Safety probe for {case.id} (written by promote compile from portable-v1; do not edit)."
        output.artifacts.append(
            Artifact(NAME, f"safety/{case.id}.probe.yaml", yaml_text(probe, header), (case.id,))
        )
    return output
