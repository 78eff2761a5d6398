"""Around the data (issue 11): skip reasons, ids and session ids pass the same scrubber as the data."""

from __future__ import annotations

import json
from pathlib import Path

from corpora.planting import VALUES, leaked, spans_of
from promote import scrubbing
from promote.listing import list_traces
from promote.scrub_trace import scrub_messages
from promote.source import scrub_trace
from tests.conftest import TRACES


def _planted(tmp_path: Path) -> Path:
    docs = [json.loads(line) for line in (TRACES / "adk2.otlp.jsonl").read_text().splitlines()]
    spans_of(docs[0])[0]["spanId"] = VALUES["email"]  # an e-mail used as a span id: the span cannot be read
    for span in (span for doc in docs for span in spans_of(doc)):
        for attribute in span.get("attributes", ()):
            if attribute["key"] in ("gcp.vertex.agent.session_id", "gen_ai.conversation.id", "session.id"):
                attribute["value"] = {"stringValue": VALUES["email"]}
    target = tmp_path / "planted.otlp.jsonl"
    target.write_text("".join(json.dumps(doc) + "\n" for doc in docs))
    return target


def test_skip_reasons_and_session_ids_are_scrubbed_in_the_listing(tmp_path: Path) -> None:
    engine = scrubbing.engine()
    path = _planted(tmp_path)
    raw = list_traces([path])
    assert any(VALUES["email"] in skip.why for skip in raw.skipped)  # the reader quotes the bad id
    assert any(trace.session_id == VALUES["email"] for trace in raw.traces)
    listing = list_traces([path], scrub=lambda trace: scrub_trace(trace, engine).trace)
    listing.skipped = scrub_messages(listing.skipped, engine)
    text = json.dumps(listing.model_dump(mode="json"))
    assert leaked(text, {"email": VALUES["email"]}) == []
    assert listing.skipped and all(skip.where == before.where
                                   for skip, before in zip(listing.skipped, raw.skipped))
