"""The same trace id in two exports stays two traces, the second named by its file (never merged)."""

from __future__ import annotations

import shutil

from tests.tui.conftest import EXPORT
from tui.trace_store import TraceStore


def test_the_same_trace_in_two_exports_is_listed_twice_named_by_file(tmp_path):
    first, second = tmp_path / "monday.otlp.jsonl", tmp_path / "tuesday.otlp.jsonl"
    shutil.copy(EXPORT, first)
    shutil.copy(EXPORT, second)
    once = [row for rows in TraceStore().read_rows([first]) for row in rows]
    twice = [row for rows in TraceStore().read_rows([first, second]) for row in rows]
    assert len(twice) == 2 * len(once)
    ids = {row.trace_id for row in once}
    assert {row.trace_id for row in twice if row.export == first} == ids
    assert {row.trace_id for row in twice if row.export == second} == {f"{i}~tuesday.otlp.jsonl" for i in ids}
