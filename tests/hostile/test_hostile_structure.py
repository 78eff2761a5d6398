"""Structure that turned rules off (issue 11): no exemption can be switched on by the data itself.

Each row is a tool result a trace could hold; it is scrubbed whole (a short JSON string) and spliced (the
same result padded past the splicing threshold, so the member-by-member walk is checked to follow the
same single rule), and none of the planted values may be left in any form.
"""

from __future__ import annotations

import json

import pytest

from corpora.planting import VALUES, leaked

ROWS = {
    "a result shaped like a schema node": {"type": "object", "title": VALUES["name"],
                                           "description": f"SSN {VALUES['ssn']}, {VALUES['email']}, card "
                                                          f"{VALUES['card']}"},
    "a response key beside personal keys": {"response": "ok", "ssn": "512447723", "phone": "4155550134",
                                            "email": VALUES["email"], "name": VALUES["name"]},
    "personal keys under an exempt parent": {"document": {"ssn": "512447723", "phone": "4155550134",
                                                          "card_number": "4111111111111111",
                                                          "email": VALUES["email"]}},
    "a name shaped like an identifier": {"employee": {"name": "gregory_hallman", "id": 7}},
    "a name as a JSON object key": {"balances": {VALUES["name"]: {"pto_hours": 62.5}}},
    "an e-mail as a JSON object key": {VALUES["email"]: {"pto_hours": 62.5}},
    "a fake placeholder under a personal key": {"name": "<GREGORY_HALLMAN>", "ssn": "<SSN_512447723>"},
}
PLANTED = {"name": VALUES["name"], "email": VALUES["email"], "ssn": VALUES["ssn"], "card": VALUES["card"]}
EXTRA = ("512447723", "4155550134", "4111111111111111", "gregory_hallman", "GREGORY_HALLMAN")


def _padded(value: dict) -> str:
    return json.dumps({"result": value, "notes": ["The balance is 62.5 hours as of 2026-06-29."] * 40})


@pytest.mark.parametrize("row", ROWS)
@pytest.mark.parametrize("shape", ["whole", "spliced"])
def test_no_exemption_lets_a_value_through(engine, row: str, shape: str) -> None:
    text = json.dumps(ROWS[row]) if shape == "whole" else _padded(ROWS[row])
    assert (len(text) > 1000) == (shape == "spliced")
    out = engine.scrub_value(text, engine.new_context(), key="gcp.vertex.agent.tool_response")
    assert leaked(out, PLANTED, EXTRA) == []
    assert ("62.5" in out) == ("62.5" in text)  # figures stay
    json.loads(out)


def test_a_schema_in_a_tool_declaration_keeps_its_labels(engine) -> None:
    declaration = {"tools": [{"function_declarations": [{"name": "get_employee_context",
                                                         "description": "Look up",
                   "parameters": {"type": "OBJECT", "properties": {"employee_id": {"type": "STRING",
                                  "title": "Employee Id", "description": "Employee Id"}}}}]}]}
    for text in (json.dumps(declaration), json.dumps({**declaration, "padding": ["x" * 50] * 30})):
        assert engine.scrub_value(text, engine.new_context(), key="gcp.vertex.agent.llm_request") == text
