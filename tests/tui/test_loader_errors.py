"""The loader child's read errors reach the UI scrubbed, like the data (a bad id is quoted in them)."""

from __future__ import annotations

import json
import queue

from corpora.planting import VALUES, leaked, spans_of
from tests.conftest import TRACES
from tui.loader import serve
from tui.pipe import LoadFailed


def test_a_read_error_that_quotes_the_export_reaches_the_ui_scrubbed(tmp_path) -> None:
    docs = [json.loads(line) for line in (TRACES / "adk2.otlp.jsonl").read_text().splitlines()]
    for doc in docs:
        for span in spans_of(doc):
            span["spanId"], span["name"] = VALUES["email"], f"lookup for {VALUES['name']}"
    export = tmp_path / "unreadable.otlp.jsonl"
    export.write_text("".join(json.dumps(doc) + "\n" for doc in docs))
    results: queue.Queue = queue.Queue()
    serve([export], None, queue.Queue(), results)
    errors = []
    while not results.empty():
        message = results.get()
        if isinstance(message, LoadFailed):
            errors.append(message.error)
    assert errors and "unreadable.otlp.jsonl" in errors[0]  # the file is still named
    assert leaked(" ".join(errors), {"name": VALUES["name"], "email": VALUES["email"]}) == []
