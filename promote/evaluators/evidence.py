"""What an evaluator reads: one turn as the trace recorded it and as the scrubber rewrote it.

Evaluators compare against the raw turn (a sandbox run's ids and figures are the real values) and quote
only the scrubbed turn in their reasons. A case holds scrubbed text, so a case value that carries a
scrub placeholder (`<PERSON_1>`) is compared with the scrubbed turn, whose placeholders were numbered
the same way (one placeholder context per trace, reading order).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from promote.case.rules import PLACEHOLDER_RE
from promote.trace_model import ToolCall, Trace, Turn

NO_REPLY = "the trace carries no reply (message content was not captured)"


@dataclass(frozen=True)
class Evidence:
    """One paired turn, raw and scrubbed (same shape, same order of calls)."""

    trace: Trace
    turn: Turn
    scrubbed_trace: Trace
    scrubbed: Turn

    def calls_of(self, name: str) -> list[tuple[ToolCall, ToolCall]]:
        """(raw, scrubbed) calls of one tool, in call order."""
        both = zip(self.turn.tool_calls, self.scrubbed.tool_calls, strict=True)
        return [(raw, clean) for raw, clean in both if raw.name == name]

    @property
    def called(self) -> list[str]:
        """Tool names in call order (as traced: for comparing, never for showing)."""
        return [call.name for call in self.turn.tool_calls]

    @property
    def called_shown(self) -> list[str]:
        """Tool names in call order as the scrubber left them: a tool named after a person is shown as
        its placeholder (`<PERSON_3>`), as `promote traces` shows it."""
        return [call.name for call in self.scrubbed.tool_calls]

    def reply_for(self, probe: str) -> str | None:
        """The reply to test `probe` (a text or pattern from the case) against: scrubbed when the probe
        holds a placeholder, raw otherwise; None when the trace has no reply."""
        if self.turn.final_response is None:
            return None
        return self.scrubbed.final_response if has_placeholder(probe) else self.turn.final_response


def has_placeholder(value: Any) -> bool:
    """True when a case value (any JSON) holds a scrub placeholder."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return bool(PLACEHOLDER_RE.search(text))


def as_text(value: Any) -> str:
    """A tool result as text for contains-checks: strings as they are, JSON as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def quoted(text: str, limit: int = 60) -> str:
    """Case text for a reason, shortened."""
    flat = " ".join(str(text).split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
