"""Errors a user can act on: where (file and line), what is wrong, and what to do.

Every bad-input path raises `PromoteError`; the CLI prints `str(error)` on one line and exits 2.
Nothing else should reach the user as a traceback.
"""

from __future__ import annotations


class PromoteError(Exception):
    """Bad input or a refused operation, reported as `where: what (hint)` on one line."""

    exit_code = 2

    def __init__(self, what: str, *, where: str | None = None, hint: str | None = None,
                 quotes_input: bool = False) -> None:
        self.what = what
        self.where = where
        self.hint = hint
        self.quotes_input = quotes_input
        """The message quotes the input (a skip reason, a span name): it passes the scrubber before it is
        shown (`promote.scrub_trace.errors_scrubbed`)."""
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.where}: {self.what}" if self.where else self.what
        if self.hint:
            text += f" ({self.hint})"
        return " ".join(text.split())


def where(path: object, line: int | None = None, column: int | None = None) -> str:
    """Format a location as `path:line:column`, leaving out what is unknown (lines are 1-based)."""
    text = str(path)
    if line is not None:
        text += f":{line}"
        if column is not None:
            text += f":{column}"
    return text
