"""The scrubber on text no one here wrote (issue 12), through `promote scrub` on a real ADK export.

One trace of `fixtures/traces/adk2.otlp.jsonl` (written by google-adk) gets the shapes other producers and
other people's agents send: a reply greeting the user by first name, a stack trace under a home
directory, an international address, a 12-digit card after a card word, names in lower case, in Chinese
and in Vietnamese, Kubernetes resource attributes, a tool argument `output: json`, an Azure endpoint
named after a person, a Helm listing whose line breaks sit next to a replacement.

A second trace holds names known only by the words around them (role nouns, "X here:", "for X;",
"X said", "ask X in billing", a vocative in Devanagari), a phone after "my number is" and one in a
signature block, a card after "pay with", an address after an address cue, a deployment named like its
tenant, and the hotel, card and meeting brands NER takes for people (issue 12, second round).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from promote.batch.run import ScrubOptions, scrub_exports
from tests.conftest import TRACES, string_leaves

REPLY = ("Elena, you have 48.0 hours of PTO left. Thanks for asking, Elena.\n"
         "Namespace: observability\nRevision: 3\nStatus: deployed\n"
         "chart: jaeger-4.4.7\n  - app_version: 2.14.1\n  - owner: Dana Whitfield\n  - status: ok")
USER = ("hi, i'm mei lin. my colleague 王小明 and Nguyễn Văn An need the same. "
        "card number 630427373398 is lost. Ship to Puruntie 82 Apt. 595\n53650 LAPPEENRANTA, "
        "or call me at +358 40 123 4567. Show pods\n- Fetch metadata\n- Check Helm on Kubernetes with gpt-4o")
STACK = ('Traceback (most recent call last):\n  File "/Users/elena.ruiz/src/agent/tools.py", line 42, '
         'in lookup\n    raise KeyError(key)\n  File "C:\\Users\\mlin\\repo\\agent\\main.py", line 7, '
         'in <module>\nKeyError: x')
ENDPOINT = "https://elena-ruiz-openai.openai.azure.com/openai/deployments/elena-gpt4o/chat/completions"
PLANTED = ["Elena", "Dana Whitfield", "mei lin", "王小明", "Nguyễn Văn An", "630427373398", "Puruntie 82",
           "LAPPEENRANTA", "123 4567", "elena.ruiz", "mlin", "elena-ruiz", "elena-gpt4o"]
KEPT = ["48.0 hours", "Namespace: observability\nRevision: 3\nStatus: deployed\nchart: jaeger-4.4.7\n",
        "\n  - app_version: 2.14.1\n  - owner: ", "\n  - status: ok", '"output": "json"',
        "payments-api-7f9c8d-x2x", "Show pods\n- Fetch metadata\n- Check Helm on Kubernetes with gpt-4o",
        "/src/agent/tools.py", "line 42",
        "\\repo\\agent\\main.py", ".openai.azure.com/openai/deployments/", "/chat/completions"]


def _string(value: str) -> dict:
    return {"stringValue": value}


def _trace_with_foreign_shapes() -> dict:
    record = json.loads((TRACES / "adk2.otlp.jsonl").read_text().splitlines()[0])
    resource = record["resourceSpans"][0]["resource"]
    resource["attributes"] += [{"key": "k8s.pod.name", "value": _string("payments-api-7f9c8d-x2x")},
                               {"key": "k8s.namespace.name", "value": _string("payments")}]
    spans = [span for scope in record["resourceSpans"][0]["scopeSpans"] for span in scope["spans"]]
    tool = next(span for span in spans if span["name"].startswith("execute_tool"))
    model = [span for span in spans if span["name"].startswith("generate_content")][-1]
    for attribute in tool["attributes"]:
        if attribute["key"] == "gen_ai.tool.call.arguments":
            attribute["value"] = _string(json.dumps({"output": "json", "query": "pods"}))
    tool["events"] = [{"name": "exception", "timeUnixNano": tool["startTimeUnixNano"],
                       "attributes": [{"key": "exception.stacktrace", "value": _string(STACK)}]}]
    for attribute in model["attributes"]:
        if attribute["key"] == "gen_ai.output.messages":
            attribute["value"] = _string(json.dumps([{"role": "assistant", "finish_reason": "stop",
                                                      "parts": [{"type": "text", "content": REPLY}]}]))
        if attribute["key"] == "gen_ai.input.messages":
            parts = [{"type": "text", "content": USER}]
            attribute["value"] = _string(json.dumps([{"role": "user", "parts": parts}]))
    model["attributes"] += [{"key": "url.full", "value": _string(ENDPOINT)},
                            {"key": "server.address", "value": _string("10.12.0.7")}]
    return record


@pytest.fixture(scope="module")
def scrubbed(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("generalise")
    source = folder / "foreign.otlp.jsonl"
    source.write_text(json.dumps(_trace_with_foreign_shapes()) + "\n")
    output = folder / "scrubbed.otlp.jsonl"
    scrub_exports([str(source)], str(output), ScrubOptions(workers=1))
    return source.read_text(), output.read_text()


def _decoded(text: str) -> str:
    """Every string in the export, JSON strings inside strings decoded too, one per line."""
    return "\n".join(leaf for line in text.splitlines() for leaf in string_leaves(json.loads(line)))


@pytest.mark.parametrize("value", PLANTED)
def test_the_value_is_gone(scrubbed, value):
    before, after = (_decoded(text) for text in scrubbed)
    assert value in before
    assert value not in after


@pytest.mark.parametrize("value", KEPT)
def test_what_is_not_personal_survives(scrubbed, value):
    before, after = (_decoded(text) for text in scrubbed)
    assert value in before
    assert value in after


def test_replacements_keep_the_lines_and_their_labels(scrubbed):
    after = _decoded(scrubbed[1])
    assert re.search(r"<PERSON_\d+>, you have 48\.0 hours", after)
    assert "  - owner: <PERSON_" in after and "\n  - status: ok" in after
    assert "/Users/<USER_NAME_" in after and "C:\\Users\\<USER_NAME_" in after
    assert re.search(r"<CREDIT_CARD_\d+> is lost", after)
    assert "<STREET_ADDRESS_" in after and "https://<USER_NAME_" in after
    assert "<HOSTNAME_1>" in after  # a peer address is a host, not a street address


CUE_USER = ("Mateus here: the checkout pods keep restarting since the upgrade, my number is 0491 570 156. "
            "Book the Lisbon dinner for Ingrid Solberg at 7pm and pay with 601234567890. Please update the "
            "postal address to Wiśniowa 14, 05-090 Raszyn (Poland). Your order number is 48213377.")
CUE_REPLY = ("सविता, your ticket TCK-1042 is closed. Booked! Grand Hyatt in Austin for Yusuf. Confirmed: "
             "Sheraton Grand in Lisbon, join via Google Meet or Webex. Ask Rosalind in billing if anything "
             "is unclear; Ngozi Okafor said the Mastercard Platinum is reissued.\nKind "
             "regards\nTeodora Vasile\n0722 123 456 77")
CUE_HISTORY = ("Employee number E-30358 (Oksana Petrenko) here. hello, i am aditya khatri-bumb from support. "
               "Hey - Maelle de la Tour, quick one: ping Ștefania (on call) about it. I'm Hà Dương, thanks.")
CUE_TOOL = "Reservation\n  guest = Ingrid Solberg\n  hotel = Grand Hyatt\n  city = Austin"
CUE_ENDPOINT = "https://qorvath-openai.openai.azure.com/openai/deployments/qorvath-gpt4o/chat/completions"
CUE_PLANTED = ["Mateus", "0491 570 156", "Ingrid Solberg", "601234567890", "Wiśniowa 14", "05-090 Raszyn",
               "सविता", "Yusuf", "Rosalind", "Ngozi Okafor", "Teodora Vasile", "0722 123 456 77", "qorvath",
               "Oksana Petrenko", "aditya khatri-bumb", "Maelle de la Tour", "Ștefania", "Hà Dương"]
CUE_KEPT = ["here: the checkout pods", ") here. hello, i am ", " from support. Hey - ", "(Poland).",
            "Your order number is 48213377.", "Grand Hyatt in Austin", "Sheraton Grand in Lisbon",
            "Google Meet or Webex", "the Mastercard Platinum is reissued",
            "hotel = Grand Hyatt\n  city = Austin", ".openai.azure.com/openai/deployments/"]


def _trace_with_cued_values() -> dict:
    record = json.loads((TRACES / "adk2.otlp.jsonl").read_text().splitlines()[0])
    spans = [span for scope in record["resourceSpans"][0]["scopeSpans"] for span in scope["spans"]]
    tool = next(span for span in spans if span["name"].startswith("execute_tool"))
    model = [span for span in spans if span["name"].startswith("generate_content")][-1]
    for attribute in tool["attributes"]:
        if attribute["key"] == "gen_ai.tool.call.result":
            attribute["value"] = _string(json.dumps({"output": CUE_TOOL}))
    for attribute in model["attributes"]:
        if attribute["key"] == "gen_ai.output.messages":
            attribute["value"] = _string(json.dumps([{"role": "assistant", "finish_reason": "stop",
                                                      "parts": [{"type": "text", "content": CUE_REPLY}]}]))
        if attribute["key"] == "gen_ai.input.messages":
            attribute["value"] = _string(json.dumps([
                {"role": "user", "parts": [{"type": "text", "content": CUE_HISTORY}]},
                {"role": "user", "parts": [{"type": "text", "content": CUE_USER}]}]))
    model["attributes"] += [{"key": "url.full", "value": _string(CUE_ENDPOINT)}]
    return record


@pytest.fixture(scope="module")
def scrubbed_cues(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("generalise_cues")
    source = folder / "cues.otlp.jsonl"
    source.write_text(json.dumps(_trace_with_cued_values()) + "\n")
    output = folder / "scrubbed.otlp.jsonl"
    scrub_exports([str(source)], str(output), ScrubOptions(workers=1))
    return source.read_text(), output.read_text()


@pytest.mark.parametrize("value", CUE_PLANTED)
def test_a_value_known_by_its_cue_is_gone(scrubbed_cues, value):
    before, after = (_decoded(text) for text in scrubbed_cues)
    assert value in before
    assert value not in after


@pytest.mark.parametrize("value", CUE_KEPT)
def test_brands_venues_and_other_numbers_survive(scrubbed_cues, value):
    before, after = (_decoded(text) for text in scrubbed_cues)
    assert value in before
    assert value in after


def test_cued_values_get_their_labels(scrubbed_cues):
    after = _decoded(scrubbed_cues[1])
    assert re.search(r"my number is <PHONE_NUMBER_\d+>", after)
    assert re.search(r"pay with <CREDIT_CARD_\d+>", after)
    assert re.search(r"postal address to <STREET_ADDRESS_\d+> \(Poland\)", after)
    assert re.search(r"Kind regards\n<PERSON_\d+>\n<PHONE_NUMBER_\d+>", after)
    assert re.search(r"/deployments/<USER_NAME_\d+>/chat", after)
