"""A `name` that names a thing is no person (issue 36): kagent's Helm tools list releases as objects with
`name`, `namespace`, `chart` and `app_version`; their names, namespaces and versions must survive (before,
`jaeger` and `kagent` became `<PERSON_n>`, `2.14.1` an IP address, and no case could be drafted)."""

from __future__ import annotations

import json

from promote.scrubbing import engine

# what kagent's `helm_list_releases` tool returns (the shape of `helm list -o json`)
RELEASES = [
    {"name": "jaeger", "namespace": "observability", "revision": "3",
     "updated": "2026-06-29 16:02:00 +0000 UTC", "status": "deployed", "chart": "jaeger-4.4.7",
     "app_version": "2.14.1"},
    {"name": "kagent", "namespace": "kagent", "revision": "1", "updated": "2026-06-28 09:12:44 +0000 UTC",
     "status": "deployed", "chart": "kagent-0.5.5", "app_version": "0.5.5"},
]


def test_helm_releases_keep_their_names_namespaces_and_versions() -> None:
    scrubber = engine()
    ctx = scrubber.new_context()
    result = json.dumps(RELEASES)
    assert scrubber.scrub_value(result, ctx, key="gen_ai.tool.call.result") == result
    reply = "jaeger (chart jaeger-4.4.7, app 2.14.1) and kagent are deployed in observability and kagent."
    assert scrubber.scrub_text(reply, ctx) == reply


def test_a_person_beside_a_namespace_still_goes() -> None:
    scrubber = engine()
    out = scrubber.scrub_value({"name": "Dana Whitfield", "namespace": "hr"}, scrubber.new_context(), key="x")
    assert "Dana" not in json.dumps(out)


def test_digits_of_two_fields_glued_make_no_value_but_a_card_cut_in_two_still_goes() -> None:
    scrubber = engine()
    versions = json.dumps({"chart": "jaeger-4.4.7", "app_version": "2.14.1"})
    assert scrubber.scrub_value(versions, scrubber.new_context(), key="gen_ai.tool.call.result") == versions
    card = json.dumps({"card_first": "41111111", "card_last": "11111111"})
    out = scrubber.scrub_value(card, scrubber.new_context(), key="gen_ai.tool.call.result")
    assert "41111111" not in out and "11111111" not in out
