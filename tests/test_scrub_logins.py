"""A log-in or a lower-case name given under a personal key goes wherever its trace writes it; lower-case
code under a `name` key (`gcp.vertex.agent`, `call_llm`) and common words stay where they are."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from promote.scrubbing import engine
from tests.conftest import TRACES


def _scrub(*items: tuple[str, str]) -> list[str]:
    scrubber = engine()
    ctx = scrubber.new_context()
    return scrubber.scrub_many([(ctx, key, value) for key, value in items], learn=True)


@pytest.mark.parametrize(("record", "entity"), [
    ({"username": "ghallman"}, "PERSON"),
    ({"login": "ghallman"}, "USER_ID"),
    ({"user_principal_name": "ghallman"}, "USER_ID"),
    ({"name": "gregory hallman"}, "PERSON"),
])
def test_a_lower_case_value_under_a_personal_key_goes_from_every_text_of_the_trace(record: dict,
                                                                                   entity: str) -> None:
    value = next(iter(record.values()))
    # the user's message and a log line come before the tool result that holds the value
    message, log, result = _scrub(("gen_ai.prompt", f"why is {value} locked out?"),
                                  ("log.message", f"auth failed for {value} from kiosk-7"),
                                  ("tool.result", json.dumps(record)))
    placeholder = f"<{entity}_1>"
    assert message == f"why is {placeholder} locked out?"
    assert log == f"auth failed for {placeholder} from kiosk-7"
    assert value not in result and placeholder in result


def test_common_words_and_code_under_personal_keys_stay_elsewhere() -> None:
    result, message = _scrub(
        ("tool.result", json.dumps({"name": "call_llm", "manager": "gcp.vertex.agent", "login": "checking"})),
        ("gen_ai.prompt", "call_llm ran on gcp.vertex.agent; checking the login"))
    assert message == "call_llm ran on gcp.vertex.agent; checking the login"
    assert "checking" not in result  # under its key it is still removed (fail closed)


def test_a_langfuse_export_keeps_its_system_name_though_a_name_key_holds_it(tmp_path) -> None:
    # Langfuse's OTel export names an observation's scope `gcp.vertex.agent` under `name`: that is code,
    # not a person, and the `gen_ai.system` attributes that hold it stay
    source = TRACES / "producers" / "langfuse-otel.tool_error.json"
    assert source.read_text().count('"gen_ai.system": "gcp.vertex.agent"') >= 2
    out = tmp_path / "out.json"
    done = subprocess.run([sys.executable, "-m", "promote", "scrub", str(source), "-o", str(out),
                           "--workers", "1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    written = out.read_text()
    assert written.count('"gen_ai.system": "gcp.vertex.agent"') == source.read_text().count(
        '"gen_ai.system": "gcp.vertex.agent"')
