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
