"""The typed messages between the UI and its loader child (`tui.loader`), pickled over the child's pipes.

Up (child → UI): rows as traces are read, scrubbed traces with their rows' snippets, the end of reading
and of scrubbing, a failure. Down (UI → child): which trace to scrub next, stop. The child sends scrubbed
traces only (`ScrubbedTrace.without_raw`: fingerprints, never the raw values), so raw text never reaches
the UI's process. No Textual and no pydantic import here: the child starts reading before either loads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from promote.source.scrub import ScrubbedTrace
    from tui.turn_rows import TurnRow


@dataclass(frozen=True)
class RowsRead:
    """The turns of traces just read (metadata only: no text of the trace)."""

    rows: list[TurnRow]


@dataclass(frozen=True)
class SnippetUpdate:
    """A row's scrubbed input snippet, and the eval-repo case that already holds its turn, if any."""

    key: str
    snippet: str
    promoted: str | None = None


@dataclass(frozen=True)
class TracesScrubbed:
    """Traces scrubbed (a wanted one goes at once), with the snippets of their rows."""

    updates: list[SnippetUpdate]
    traces: list[ScrubbedTrace]


@dataclass(frozen=True)
class ReadDone:
    """Every export is read."""

    skipped: int
    """Records that could not be read."""


@dataclass(frozen=True)
class LoadFailed:
    """Reading stopped: what the UI says (scrubbed where it quotes the input)."""

    error: str


@dataclass(frozen=True)
class RecoveriesFound:
    """The sources (`trace:<id>:<turn>`, `case:<path>`) with unsaved edits from an earlier run
    (`tui.recovery.pending_recoveries` of the eval repo): the browser marks their rows ✎."""

    sources: frozenset[str]


@dataclass(frozen=True)
class ScrubDone:
    """Every trace read is scrubbed: the child's last message."""


@dataclass(frozen=True)
class Want:
    """Down: scrub this trace next (the SME opened one of its turns)."""

    trace_id: str


@dataclass(frozen=True)
class Stop:
    """Down: stop reading and scrubbing, and exit."""


Up = RowsRead | TracesScrubbed | RecoveriesFound | ReadDone | LoadFailed | ScrubDone
Down = Want | Stop
