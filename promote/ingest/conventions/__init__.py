"""Tracing conventions the turn builder can read, one module each, detected per trace.

Order matters: OpenInference under ADK also carries ADK's keys, ADK 2 also carries GenAI keys, and
Monocle can add GenAI keys beside its own, so the more specific convention is tried first. Langfuse's
own fields come last: an OTel-ingested Langfuse export carries them beside the original attributes, so
they only decide the convention of native observations; under every other convention they fill in
what the span's attributes lack (Langfuse's ingestion moves message content into them).
"""

from __future__ import annotations

from dataclasses import replace

from promote.ingest.conventions import adk1, adk2, genai, langfuse, monocle, openinference
from promote.ingest.conventions.base import Convention, RootReading
from promote.trace_model import Span


def _langfuse_root_content(span: Span) -> RootReading:
    """What a Langfuse observation's own fields say about a turn, less the agent: its name is the
    producer's span name, which the span's own convention already read (`Agent workflow` is none)."""
    return replace(langfuse.read_root(span), agent=None)


def _with_langfuse_fields(convention: Convention) -> Convention:
    """`convention`, whose readers fall back on a Langfuse observation's own input, output and usage."""
    return replace(
        convention,
        model_readers=(*convention.model_readers, langfuse.read_model),
        tool_readers=(*convention.tool_readers, langfuse.read_tool),
        root_readers=(*convention.root_readers, _langfuse_root_content),
    )


CONVENTIONS: tuple[Convention, ...] = (
    *(_with_langfuse_fields(c) for c in (monocle.CONVENTION, openinference.CONVENTION, adk2.CONVENTION,
                                         adk1.CONVENTION, genai.CONVENTION)),
    langfuse.CONVENTION,
)


def detect_convention(spans: list[Span]) -> Convention | None:
    """The convention the spans of one trace were written under, or None for non-agent traces."""
    return next((c for c in CONVENTIONS if c.detect(spans)), None)


__all__ = ["CONVENTIONS", "Convention", "detect_convention"]
