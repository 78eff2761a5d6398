"""Tracing conventions the turn builder can read, one module each, detected per trace.

Order matters: OpenInference under ADK also carries ADK's keys, ADK 2 also carries GenAI keys, and
Monocle can add GenAI keys beside its own, so the more specific convention is tried first.
"""

from __future__ import annotations

from promote.ingest.conventions import adk1, adk2, genai, langfuse, monocle, openinference
from promote.ingest.conventions.base import Convention
from promote.trace_model import Span

CONVENTIONS: tuple[Convention, ...] = (
    monocle.CONVENTION,
    openinference.CONVENTION,
    adk2.CONVENTION,
    adk1.CONVENTION,
    langfuse.CONVENTION,
    genai.CONVENTION,
)


def detect_convention(spans: list[Span]) -> Convention | None:
    """The convention the spans of one trace were written under, or None for non-agent traces."""
    return next((c for c in CONVENTIONS if c.detect(spans)), None)


__all__ = ["CONVENTIONS", "Convention", "detect_convention"]
