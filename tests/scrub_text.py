"""Scrubbing one text as a test reads it: each text in a trace of its own (a fresh context), and whether a
value still stands in the output as a whole word."""

from __future__ import annotations

import re

from scrubbers import ScrubEngine


def scrub(engine: ScrubEngine, text: str) -> str:
    return engine.scrub_text(text, engine.new_context())


def survives(value: str, out: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", out) is not None
