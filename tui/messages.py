"""Messages that travel up from workers and widgets to the screens (attributes down, messages up)."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:  # names only: the browser's first rows come before the core's models are imported
    from promote.source.scrub import ScrubbedTrace
    from tui.pipe import SnippetUpdate
    from tui.turn_rows import TurnRow


@dataclass
class TurnsRead(Message):
    """The loader read these turns (metadata only)."""

    rows: list[TurnRow]


@dataclass
class TurnsScrubbed(Message):
    """The loader scrubbed these traces: each row's snippet (and promoted case) with them."""

    updates: list[SnippetUpdate]
    traces: list[ScrubbedTrace]


@dataclass
class RecoveriesPending(Message):
    """The loader found recovery files of these sources (`trace:<id>:<turn>`, `case:<path>`)."""

    sources: frozenset[str]


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
    """A tab changed one top-level field of the case.

    `value` is the field's new value as the tab reads its controls (data or model objects); the screen
    validates the whole case with it (`Case.model_validate`), so a value the model refuses becomes a
    problem at that field, never a substitute. `invalid` names what the tab shows but could not read
    (`numeric[0].tolerance`: "tolerance must be a number"): the case keeps its last valid value there,
    and saving is refused until the text is fixed.
    """

    field: str
    value: Any
    invalid: dict[str, str] = dataclass_field(default_factory=dict)


@dataclass
class JumpToField(Message):
    """The problems panel asks to show the editor of a field path (`numeric[0].oracle`)."""

    field: str


@dataclass
class RedactSuspect(Message):
    """The problems panel asks to redact the suspect of this problem everywhere in the case."""

    field: str
    message: str
