"""E-mail addresses written out to keep them from bots go; hosts, versions and times after "at" stay."""

from __future__ import annotations

import pytest

from promote.scrubbing import engine

REMOVED = [
    ("write to jdoe42 at example dot com please", "jdoe42 at example dot com"),
    ("mail: jdoe42 [at] example [dot] com", "jdoe42 [at] example [dot] com"),
    ("jdoe42(at)example(dot)com", "jdoe42(at)example(dot)com"),
    ("jdoe42 @ example . com", "jdoe42 @ example . com"),
    ("JDOE42 AT EXAMPLE DOT COM", "JDOE42 AT EXAMPLE DOT COM"),
    ("reach me at j.doe42{at}example{dot}org", "j.doe42{at}example{dot}org"),
    ("j dot doe at example dot co dot uk", "j dot doe at example dot co dot uk"),
    ("my email is jdoe at example dot com", "jdoe at example dot com"),
    ("email me: jdoe42 at example.com", "jdoe42 at example.com"),
    ("contact maria.garcia at acme-retail dot com or 801-555-0154", "maria.garcia at acme-retail dot com"),
    ("it is j dot doe@example.com", "j dot doe@example.com"),
    ("mail jdoe42@example[dot]com", "jdoe42@example[dot]com"),
    ("mail jdoe42@example dot com", "jdoe42@example dot com"),
    # the dot that ends the sentence is no dot of the domain (these were kept whole, or cut to "jdoe42")
    ("email me: jdoe42 at example.com. Thanks", "jdoe42 at example.com"),
    ("email: jdoe42 at example dot com. Thanks", "jdoe42 at example dot com"),
]
KEPT = [
    "stay at home dot com",
    "log in at portal.acme.com",
    "release v2.1 at docs.example.com",
    "meet at 5 dot 30",
    "I worked at a dot com startup",
    "ping me at slack dot com",
    "Your PTO balance is 62.5 hours at 9.00 a.m.",
    "write to jdoe42@example.com",  # Presidio's own recognizer takes it (one placeholder, not two)
]


@pytest.mark.parametrize(("text", "address"), REMOVED)
def test_a_spelled_out_address_is_replaced_whole(text: str, address: str) -> None:
    scrubbed = engine().scrub_text(text, engine().new_context())
    assert address not in scrubbed and "<EMAIL_ADDRESS_1>" in scrubbed
    assert scrubbed == text.replace(address, "<EMAIL_ADDRESS_1>").replace("801-555-0154", "<PHONE_NUMBER_1>")


@pytest.mark.parametrize("text", KEPT)
def test_hosts_times_and_plain_words_after_at_stay(text: str) -> None:
    scrubbed = engine().scrub_text(text, engine().new_context())
    if "@" in text:
        assert scrubbed == "write to <EMAIL_ADDRESS_1>"
    else:
        assert scrubbed == text


def test_the_switch_turns_it_off() -> None:
    from scrubbers.recognizers.registry import build_recognizers

    policy = engine().policy
    off = policy.model_copy(update={"recognizers": policy.recognizers.model_copy(
        update={"spelled_emails": False})})
    assert "SpelledEmailRecognizer" in {type(r).__name__ for r in build_recognizers(policy)}
    assert "SpelledEmailRecognizer" not in {type(r).__name__ for r in build_recognizers(off)}


IN_URLS = [  # Presidio's mailbox pattern takes the URL's host and path in, and checks that as the domain
    "https://hr-api.internal/v1/people?email={}&fields=pto",  # an internal host: its check failed, it leaked
    "https://x.example/?email={}",
    "https://acme.com/u?mail={}&x=1",  # a public host: the URL went into the placeholder with the address
    "GET /api/users?email={}",
    "mailto:{}",
]


@pytest.mark.parametrize("url", IN_URLS)
def test_an_address_in_a_url_goes_and_the_url_stays(url: str) -> None:
    address = "ghallman@acme-retail.com"
    scrubbed = engine().scrub_text(url.format(address), engine().new_context())
    assert scrubbed == url.format("<EMAIL_ADDRESS_1>")


@pytest.mark.parametrize("text", ["logo@2x.png and /img/icon@2x.png", "pip install pkg@1.2.3"])
def test_file_names_and_versions_with_an_at_stay(text: str) -> None:
    assert engine().scrub_text(text, engine().new_context()) == text


def test_an_address_in_a_span_url_attribute_is_scrubbed_from_an_export(tmp_path) -> None:
    # a real ADK trace, its tool span given the URL of the HR API call it made (OTel's `url.full`)
    import json
    import subprocess
    import sys

    from tests.conftest import TRACES

    lines = (TRACES / "adk2.otlp.jsonl").read_text().splitlines()
    url = "https://hr-api.internal/v1/people?email=ghallman@acme-retail.com&fields=pto_balance"
    planted = []
    for line in lines:
        doc = json.loads(line)
        for block in doc["resourceSpans"]:
            for scope in block["scopeSpans"]:
                for span in scope["spans"]:
                    if span["name"].startswith("execute_tool"):
                        span["attributes"].append({"key": "url.full", "value": {"stringValue": url}})
        planted.append(json.dumps(doc))
    export, out = tmp_path / "in.otlp.jsonl", tmp_path / "out.otlp.jsonl"
    export.write_text("\n".join(planted) + "\n")
    assert url in export.read_text()
    done = subprocess.run([sys.executable, "-m", "promote", "scrub", str(export), "-o", str(out),
                           "--workers", "1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    written = out.read_text()
    assert "ghallman@acme-retail.com" not in written and "ghallman" not in written
    assert "https://hr-api.internal/v1/people?email=<EMAIL_ADDRESS_" in written


KNOWN_WRITTEN_OUT = [  # no e-mail word before them and no mark of a mailbox: the recognizer alone keeps them
    "ping mgonzalez at acme-retail.com today",
    "ping mgonzalez at acme-retail dot com today",
    "ping MGONZALEZ AT ACME-RETAIL DOT COM today",
]


@pytest.mark.parametrize("text", KNOWN_WRITTEN_OUT)
def test_an_address_the_trace_holds_is_known_however_it_is_written_out(text: str) -> None:
    scrubber = engine()
    alone = scrubber.scrub_text(text, scrubber.new_context())
    # without the trace's knowledge no e-mail address is read there (its local part may still go as a
    # log-in built from a name: `recognizers/logins.py`)
    assert "<EMAIL_ADDRESS" not in alone and "acme-retail" in alone.lower()
    ctx = scrubber.new_context()
    # the user's message comes before the tool result that holds the address: learnt first, both scrubbed
    message, result = scrubber.scrub_many([(ctx, "gen_ai.prompt", text),
                                           (ctx, "tool.result", '{"email": "mgonzalez@acme-retail.com"}')],
                                          learn=True)
    assert message == "ping <EMAIL_ADDRESS_1> today"
    assert result == '{"email": "<EMAIL_ADDRESS_1>"}'


def test_a_written_out_address_has_the_placeholder_of_the_address() -> None:
    scrubber = engine()
    ctx = scrubber.new_context()
    first = scrubber.scrub_text("mail: maria.gonzalez@acme-retail.com", ctx)
    again = scrubber.scrub_text("or write to maria dot gonzalez [at] acme-retail [dot] com", ctx)
    assert (first, again) == ("mail: <EMAIL_ADDRESS_1>", "or write to <EMAIL_ADDRESS_1>")


def test_other_addresses_and_hosts_after_at_stay_when_the_trace_holds_an_address() -> None:
    scrubber = engine()
    ctx = scrubber.new_context()
    scrubber.scrub_text("mail: mgonzalez@acme-retail.com", ctx)
    kept = ("mgonzalez at acme-retail dot community", "log in at acme-retail.com", "stay at home dot com")
    for text in kept:
        assert scrubber.scrub_text(text, ctx) == text


def test_the_output_check_reads_an_address_written_out() -> None:
    scrubber = engine()
    ctx = scrubber.new_context()
    ctx.remember("EMAIL_ADDRESS", "maria.gonzalez@acme-retail.com")
    assert scrubber.leaks("cc maria dot gonzalez at acme-retail dot com", ctx)
    assert scrubber.leaks("cc maria.gonzalez [at] acme-retail [dot] com", ctx)
    assert not scrubber.leaks("cc maria at home", ctx)


def test_an_address_a_tool_result_holds_goes_from_the_message_that_writes_it_out(tmp_path) -> None:
    # a real ADK trace whose HR tool returns maria.gonzalez@acme-retail.com; the user's message (which
    # comes first) writes it out with a plain "at", which reads as a host to a recognizer alone
    import subprocess
    import sys

    from tests.conftest import TRACES

    phrase = "If I do not use all my PTO this year"
    source = (TRACES / "adk2.otlp.jsonl").read_text()
    assert source.count(phrase) >= 2 and "maria.gonzalez@acme-retail.com" in source
    export, out = tmp_path / "in.otlp.jsonl", tmp_path / "out.otlp.jsonl"
    export.write_text(source.replace(phrase, "Also maria.gonzalez at acme-retail.com. " + phrase))
    done = subprocess.run([sys.executable, "-m", "promote", "scrub", str(export), "-o", str(out),
                           "--workers", "1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    written = out.read_text()
    assert "maria.gonzalez" not in written.lower() and "Also <EMAIL_ADDRESS_" in written
