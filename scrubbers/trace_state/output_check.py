"""The output check: nothing a trace is known to hold is written, whatever rule missed it.

Every string about to be written is searched for every value its trace is known to hold, in all the
forms the scrubber reads through (disguises taken off, base64 decoded, digits however separated); the
caller redacts a field with a hit whole and counts it.
"""

from __future__ import annotations

from scrubbers.speed import SizedCache, digit_runs, word_tokens
from scrubbers.structure.disguise import view_of
from scrubbers.trace_state.context import ScrubContext

CHECKED_MAX = 20_000
"""Output-check answers kept per trace (histories repeat in every model call)."""
READ_CHARS = 2_000_000
"""Characters of texts whose output-check readings are kept."""


class OutputCheck:
    """Whether a text about to be written holds a value its trace is known to hold, in any form: read
    through its disguises, base64 decoded, digits however separated. One per engine."""

    def __init__(self) -> None:
        # what `_read` reads off each text, kept for texts every trace writes again (prompts, tool
        # declarations)
        self._readings = SizedCache(READ_CHARS, lambda text, readings: len(text))

    def leaks(self, text: str, ctx: ScrubContext) -> bool:
        # answers are kept for the trace's current known values only (a new one empties them)
        found = ctx.checked.get(text)
        if found is not None:
            return found
        values, numbers = ctx.output_matchers()
        if values is None and numbers is None or not text:
            return False
        # what is read off a text is kept across traces: most texts written (tool declarations,
        # prompts, placeholders numbered from 1 in every trace) are written by many traces
        runs, readings = self._read(text)
        found = numbers is not None and numbers.search(text, runs)
        if not found and values is not None:
            for reading, words in readings:
                if values.search(reading, words):
                    found = True
                    break
        if len(ctx.checked) > CHECKED_MAX:
            ctx.checked.clear()
        ctx.checked[text] = found
        return found

    def _read(self, text: str) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, frozenset[str]], ...]]:
        """The text's digit runs, and (case-folded reading, its word tokens) of its view and of what its
        base64 decodes to."""
        read = self._readings.get(text)
        if read is None:
            view = view_of(text)
            folded = (view.text.casefold(), *(decoded.text.casefold() for decoded in view.decoded))
            read = (digit_runs(text), tuple((reading, word_tokens(reading)) for reading in folded))
            self._readings.put(text, read)
        return read
