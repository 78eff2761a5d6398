"""Traces read and waiting to be scrubbed, scrubbed in the background, the one a person asked for first.

A reader thread `put`s each trace as `read_traces` hands it on; a scrubber thread takes them with
`scrub_next`, a `want`ed one ahead of the others. Raw traces stay in here: what leaves is a
`ScrubbedTrace`, every trace of the run fingerprinted with one salt (a UI session compares them).
"""

from __future__ import annotations

import os
import threading
from collections import deque
from typing import Any

from promote.ingest.sources import file_sha256
from promote.source.scrub import ScrubbedTrace, scrub_trace
from promote.trace_model import Trace


class ScrubQueue:
    """Raw traces waiting to be scrubbed and the scrubbed ones, shared by a reader and a scrubber thread."""

    def __init__(self) -> None:
        self.salt = os.urandom(16)
        """One salt for the fingerprints of every trace of this run."""
        self._lock = threading.Condition()
        self._raw: dict[str, Trace] = {}
        self._order: deque[str] = deque()
        self._scrubbed: dict[str, ScrubbedTrace] = {}
        self._wanted: list[str] = []
        self._ever_wanted: set[str] = set()
        self._digests: dict[str, str | None] = {}
        self.reading_done = False

    def put(self, trace: Trace) -> None:
        """A trace `read_traces` handed on (its spans are not needed any more: dropped)."""
        trace.spans = []
        with self._lock:
            self._raw[trace.trace_id] = trace
            self._order.append(trace.trace_id)
            self._lock.notify_all()

    def close(self) -> None:
        """Reading is over: `scrub_next` returns None once the last trace is scrubbed."""
        with self._lock:
            self.reading_done = True
            self._lock.notify_all()

    def wake(self) -> None:
        with self._lock:
            self._lock.notify_all()

    def want(self, trace_id: str) -> None:
        """Scrub this trace next (a person opened one of its turns)."""
        with self._lock:
            self._wanted.append(trace_id)
            self._ever_wanted.add(trace_id)
            self._lock.notify_all()

    def was_wanted(self, trace_id: str) -> bool:
        with self._lock:
            return trace_id in self._ever_wanted

    def scrubbed(self, trace_id: str) -> ScrubbedTrace | None:
        with self._lock:
            return self._scrubbed.get(trace_id)

    def scrub_next(self, engine: Any, stop: threading.Event | None = None) -> ScrubbedTrace | None:
        """Scrub the next waiting trace (a wanted one first); None once everything is scrubbed."""
        with self._lock:
            while True:
                if stop is not None and stop.is_set():
                    return None
                trace_id = self._next_waiting()
                if trace_id is not None:
                    trace = self._raw.pop(trace_id)
                    break
                if self.reading_done:
                    return None
                self._lock.wait(timeout=0.2)
        done = scrub_trace(trace, engine, salt=self.salt, export_sha256=self._digest(trace.export))
        with self._lock:
            self._scrubbed[trace_id] = done
        return done

    def _digest(self, export: str | None) -> str | None:
        """The export's sha256, worked out once per file (None for a stream: it cannot be read again)."""
        if export is None or export == "-":
            return None
        if export not in self._digests:
            path = os.fspath(export)
            self._digests[export] = file_sha256(path) if os.path.isfile(path) else None
        return self._digests[export]

    def _next_waiting(self) -> str | None:
        while self._wanted:
            wanted = self._wanted.pop()
            if wanted in self._raw:
                return wanted
        while self._order:
            trace_id = self._order.popleft()
            if trace_id in self._raw:
                return trace_id
        return None
