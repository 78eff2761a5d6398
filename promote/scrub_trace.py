"""Scrub what is said *about* an export (a skip reason, an error that quotes it) like its data.

The traces themselves are scrubbed by `promote.source.scrub` (one placeholder context per trace, each
part by its role); the notes and errors a front end prints about an export pass here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from promote.errors import PromoteError
from promote.trace_model import Skipped


def scrub_messages(messages: Iterable[Skipped], engine: Any) -> list[Skipped]:
    """Skip notes whose reasons passed the same scrubber as data (a reason may quote a bad value)."""
    ctx = engine.new_context()
    return [Skipped(where=item.where, why=engine.scrub_text(item.why, ctx)) for item in messages]


def scrubbed_error(error: PromoteError, engine: Any) -> PromoteError:
    """The same error (same type, exit code and place) with what it says passed through the scrubber."""
    ctx = engine.new_context()
    clean = copy.copy(error)
    clean.what = engine.scrub_text(error.what, ctx)
    clean.hint = engine.scrub_text(error.hint, ctx) if error.hint else error.hint
    clean.args = (str(clean),)
    return clean


@contextmanager
def errors_scrubbed(engine: Callable[[], Any] | None) -> Iterator[None]:
    """An error raised inside that quotes the input (`PromoteError.quotes_input`) leaves scrubbed by
    `engine()` (made only then: loading the model is for the error path alone); None: as it is
    (`--no-scrub`)."""
    try:
        yield
    except PromoteError as error:
        if engine is None or not error.quotes_input:
            raise
        raise scrubbed_error(error, engine()) from None
