"""Messages that travel up from workers and widgets to the screens (attributes down, messages up)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message

from tui.trace_store import ScrubbedTrace, TurnRow


@dataclass
class TurnsRead(Message):
    """The reader thread rebuilt these turns (metadata only)."""

    rows: list[TurnRow]


@dataclass
class TurnsScrubbed(Message):
    """The scrubber thread finished these traces: (row key, snippet, promoted path) per turn."""

    updates: list[tuple[str, str, str | None]]
    traces: list[ScrubbedTrace]


@dataclass
class LoadProgressed(Message):
    """Where loading is: turns read, traces scrubbed, and whether each stage is done."""

    turns: int
    traces: int
    scrubbed: int
    reading_done: bool
    scrubbing_done: bool
    error: str | None = None


@dataclass
class CaseEdited(Message):
    """A tab changed one top-level field of the case (the value is already a model value)."""

    field: str
    value: Any


@dataclass
class JumpToField(Message):
    """The problems panel asks to show the editor of a field path (`numeric[0].oracle`)."""

    field: str
