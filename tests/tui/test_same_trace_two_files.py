"""The same trace id in two exports stays two traces, the second named by its file (never merged)."""

from __future__ import annotations

import queue
import shutil

from tests.tui.conftest import EXPORT
from tui.loader import _QueueHandoff, _read
from tui.pipe import RowsRead


class _Queue:
    def __init__(self) -> None:
        self.traces: list = []

    def put(self, trace) -> None:
        self.traces.append(trace)

    def close(self) -> None:
        pass


def rows_read(paths) -> list:
    """Every row the loader child's reader sends for `paths` (no scrubbing)."""
    import threading

    results: queue.Queue = queue.Queue()
    handoff = _QueueHandoff()
    handoff.set(_Queue())
    _read(paths, handoff, results, threading.Event(), threading.Event())
    rows = []
    while not results.empty():
        message = results.get()
        if isinstance(message, RowsRead):
            rows += message.rows
    return rows


def test_the_same_trace_in_two_exports_is_listed_twice_named_by_file(tmp_path):
    first, second = tmp_path / "monday.otlp.jsonl", tmp_path / "tuesday.otlp.jsonl"
    shutil.copy(EXPORT, first)
    shutil.copy(EXPORT, second)
    once = rows_read([first])
    twice = rows_read([first, second])
    assert len(twice) == 2 * len(once)
    ids = {row.trace_id for row in once}
    assert {row.trace_id for row in twice if row.export == first} == ids
    assert {row.trace_id for row in twice if row.export == second} == {f"{i}~tuesday.otlp.jsonl" for i in ids}
