"""Scrubbing engine: Presidio tuned for LLM-agent traces (text and JSON in, text and JSON out).

`scrubbers._offline` must run before anything imports Presidio, so it is imported first here. The
public names load on first use (PEP 562): importing a light submodule (`scrubbers.yaml_limits`) must
not load spaCy, which takes seconds (the terminal UI shows its first rows before it is needed).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from scrubbers import _offline  # noqa: F401  (side effect: tldextract uses its bundled snapshot)

if TYPE_CHECKING:
    from scrubbers.trace_state.context import ScrubContext
    from scrubbers.engine import REDACTED, ScrubEngine
    from scrubbers.policy import LoadedPolicy, ScrubPolicy, load_policy
    from scrubbers.report import Finding, ScrubReport
    from scrubbers.residual import residual_scan
    from scrubbers.roles import Role

_HOMES = {
    "REDACTED": "scrubbers.engine",
    "Finding": "scrubbers.report",
    "LoadedPolicy": "scrubbers.policy",
    "ScrubContext": "scrubbers.trace_state.context",
    "ScrubEngine": "scrubbers.engine",
    "ScrubPolicy": "scrubbers.policy",
    "ScrubReport": "scrubbers.report",
    "load_policy": "scrubbers.policy",
    "residual_scan": "scrubbers.residual",
    "Role": "scrubbers.roles",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'scrubbers' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
