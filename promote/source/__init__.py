"""The one way from an export to scrubbed turns, for every front end (docs/architecture.md, "From an
export to a case").

`read_traces` streams export files into traces with their turns (`promote.source.traces` states the one
rule for a trace spread over records or files); `scrub_trace` turns one into the `ScrubbedTrace` that
`promote traces`, `draft`, `check` and the terminal UI show (`promote.source.scrub`); `ScrubQueue` scrubs
the traces of a stream in the background, the one asked for first (`promote.source.queue`).
The scrubbing names load on first use: reading must not wait for the case model or the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from promote.source.traces import SETTLE, WINDOW, read_traces

if TYPE_CHECKING:
    from promote.source.queue import ScrubQueue
    from promote.source.scrub import Replacement, ScrubbedTrace, scrub_info, scrub_trace

_LATER = {"Replacement": "promote.source.scrub", "ScrubbedTrace": "promote.source.scrub",
          "scrub_info": "promote.source.scrub", "scrub_trace": "promote.source.scrub",
          "ScrubQueue": "promote.source.queue"}

__all__ = ["SETTLE", "WINDOW", "read_traces", *sorted(_LATER)]


def __getattr__(name: str) -> Any:
    home = _LATER.get(name)
    if home is None:
        raise AttributeError(f"module 'promote.source' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
