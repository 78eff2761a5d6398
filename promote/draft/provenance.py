"""Provenance of a draft (its budgets: `budgets.py`).

Where the case came from, who promoted it, how it was scrubbed.
"""

from __future__ import annotations

from datetime import UTC, datetime

from promote.case.model import Provenance, Review, ScrubInfo, TraceRef
from promote.ingest.sources import file_sha256
from promote.source.scrub import scrub_info
from promote.trace_model import Trace, Turn

__all__ = ["build_provenance", "file_sha256", "scrub_info"]


def build_provenance(
    trace: Trace, turn: Turn, *, export_sha256: str, scrub: ScrubInfo, promoted_by: str, now: datetime | None
) -> Provenance:
    """Provenance of a fresh draft: trace reference, promoter, time (UTC, whole seconds), scrub info."""
    moment = (now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    reference = TraceRef(
        trace_id=trace.trace_id,
        turn=turn.index,
        span_ids=list(turn.span_ids),
        service=trace.service,
        export_sha256=export_sha256,
        invocation_id=turn.invocation_id,
    )
    return Provenance(
        trace=reference,
        promoted_by=promoted_by,
        promoted_at=moment,
        # Rebuilt so that every field counts as set and is written, defaults included.
        scrubbed=ScrubInfo(**scrub.model_dump()),
        review=Review(state="draft"),
    )
