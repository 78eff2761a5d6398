"""Provenance of a draft (its budgets: `budgets.py`).

Where the case came from, who promoted it, how it was scrubbed.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from promote.case.model import Provenance, Review, ScrubInfo, TraceRef
from promote.errors import PromoteError
from promote.trace_model import Trace, Turn

if TYPE_CHECKING:
    from scrubbers import ScrubEngine


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file's bytes, read in blocks (exports can be large) and once per file version:
    batch drafting asks for it once per turn."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise PromoteError(f"cannot read the export: {exc.strerror}", where=str(path)) from None
    return _sha256_of(path.resolve(), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _sha256_of(path: Path, _mtime_ns: int, _size: int) -> str:
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise PromoteError(f"cannot read the export: {exc.strerror}", where=str(path)) from None
    return digest.hexdigest()


def scrub_info(engine: ScrubEngine, replaced: dict[str, int]) -> ScrubInfo:
    """What `engine` (a `scrubbers.ScrubEngine`) is: Presidio version read at run time, policy and hash."""
    policy = engine.loaded_policy
    return ScrubInfo(
        engine="presidio",
        version=engine.presidio_version,
        policy=f"{policy.name}@sha256:{policy.sha256}",
        replaced=dict(sorted(replaced.items())),
    )


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
