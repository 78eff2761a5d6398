"""The deterministic checks a case may carry beyond its expected data (the seed-002 vocabulary).

`reply`, `tool_results` and `forbidden_tools` are fields of `Case`; `promote check` runs them (with the
expectations the rest of the case already states) against an agent turn, and no judge is needed for any
of them. Regexes are compiled here, so a pattern that does not compile is a schema error of the case.
"""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from promote.case.patterns import pattern_problem
from promote.case.types import Text
from promote.models import EditableModel as _Model


class LuhnRange(_Model):
    """A length range of digit runs that must not pass the Luhn checksum in the reply."""

    min_digits: int = Field(ge=2, le=64)
    """Shortest digit run to test, e.g. 9 for a Canadian SIN, 15 for an IMEI."""
    max_digits: int = Field(ge=2, le=64)
    """Longest digit run to test (at least `min_digits`)."""

    @model_validator(mode="after")
    def _ordered(self) -> LuhnRange:
        if self.max_digits < self.min_digits:
            raise ValueError(f"max_digits {self.max_digits} is below min_digits {self.min_digits}")
        return self


class ReplyChecks(_Model):
    """What the agent's reply must and must not carry."""

    contains: list[Text] = Field(default_factory=list)
    """Texts the reply must contain, every one, case-insensitively."""
    matches: list[Text] = Field(default_factory=list)
    """Regular expressions the reply must match somewhere (DOTALL: `.` matches line breaks); anchor one
    with `^...$` for a full match."""
    lacks: list[Text] = Field(default_factory=list)
    """Texts the reply must not contain, none of them, case-insensitively."""
    not_matches: list[Text] = Field(default_factory=list)
    """Regular expressions the reply must match nowhere (DOTALL)."""
    no_payment_card: bool = False
    """True: the reply holds no payment card number (13 to 19 digits, spaces or dashes allowed between
    them, passing the Luhn checksum)."""
    no_luhn_number: LuhnRange | None = None
    """The reply holds no digit run of this length range that passes the Luhn checksum."""

    @field_validator("matches", "not_matches")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for index, pattern in enumerate(patterns):
            problem = pattern_problem(pattern)
            if problem is not None:  # the message never quotes the pattern: it may hold a value
                raise ValueError(f"item {index}: {problem}")
        return patterns


class ToolResultCheck(_Model):
    """A text the result of a tool must contain."""

    tool: Text
    """The tool's name."""
    contains: Text
    """Text some result of that tool contains, case-insensitively."""
