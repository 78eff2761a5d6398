"""Scrubbing engine: Presidio tuned for LLM-agent traces (text and JSON in, text and JSON out).

Its rooms (each `__init__` says what it owns): `structure/` (how a value is read: plans, key rules,
decoding, disguises, joins), `analysis/` (what is personal in one text: the analyzer and the Presidio
adapter; its recognizers in `recognizers/`), `trace_state/` (what one trace knows and lets out:
placeholders, known values, the output check) and `speed/` (what makes it fast, used only through
`scrubbers.speed`). Here: the engine that runs them (`engine`), its plain reference (`reference`), the
policy and its loader (`policy`, `policies/`), the counts (`report`), roles of trace parts (`roles`), the
residual scan of a case about to be written (`residual`) and YAML size limits (`yaml_limits`).
docs/architecture.md follows one string through them.

`scrubbers._offline` must run before anything imports Presidio, so it is imported first here. The
public names load on first use (PEP 562): importing a light submodule (`scrubbers.yaml_limits`) must
not load spaCy, which takes seconds (the terminal UI shows its first rows before it is needed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrubbers import _offline  # noqa: F401  (side effect: tldextract uses its bundled snapshot)
from scrubbers._lazy import lazy_names

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

__getattr__ = lazy_names(__name__, _HOMES, globals())
