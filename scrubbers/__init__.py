"""Scrubbing engine: Presidio tuned for LLM-agent traces (text and JSON in, text and JSON out).

`scrubbers._offline` must run before anything imports Presidio, so it is imported first here.
"""

from scrubbers import _offline  # noqa: F401  (side effect: tldextract uses its bundled snapshot)
from scrubbers.context import ScrubContext
from scrubbers.engine import REDACTED, ScrubEngine
from scrubbers.policy import LoadedPolicy, ScrubPolicy, load_policy
from scrubbers.report import Finding, ScrubReport
from scrubbers.residual import residual_scan

__all__ = [
    "REDACTED",
    "Finding",
    "LoadedPolicy",
    "ScrubContext",
    "ScrubEngine",
    "ScrubPolicy",
    "ScrubReport",
    "load_policy",
    "residual_scan",
]
