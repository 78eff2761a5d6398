"""The ways an e-mail address is written out ("jdoe at example dot com", "jdoe [at] example [dot] com",
"jdoe @ example . com"), shared by the recognizer that finds them in text and the trace's memory of
addresses it holds.

A trace that holds an address (a tool result's `email`) knows it however it is written out later, even
where the recognizer, which has no such knowledge, must keep "stay at home dot com": the address's own
words, in order, with an "at" and "dot"s between them, are that address. Such a form is the same value
as the address, so it gets the address's placeholder.
"""

from __future__ import annotations

import regex

OPEN, CLOSE = r"[\[\(\{<]", r"[\]\)\}>]"
AT_SEPARATOR = rf"[ \t]*{OPEN}[ \t]*(?:at|@)[ \t]*{CLOSE}[ \t]*|[ \t]+at[ \t]+|[ \t]*@[ \t]*"
"""What stands for the "@": "[at]", "(at)", " at ", " @ " (brackets of any kind)."""
DOT_WORD = rf"(?:[ \t]*{OPEN}[ \t]*(?:dot|\.)[ \t]*{CLOSE}[ \t]*|[ \t]+dot[ \t]+)"
"""A dot spelled out: "[dot]", "(.)", " dot "."""
DOT = rf"(?:{DOT_WORD}|[ \t]*\.[ \t]*)"
"""A dot spelled out or written, with or without spaces around it."""

_AT = regex.compile(rf"(?i){AT_SEPARATOR}")
_DOTS = regex.compile(rf"(?i){DOT}")
_ADDRESS = regex.compile(r"[^\s@]+@[^\s@]+\.[^\s@]+")
_PATTERN_CACHE_SIZE = 20_000
_PATTERNS: dict[str, regex.Pattern | None] = {}


def plain_address(written: str) -> str:
    """An address as it reads when written out ("J Dot Doe [at] Example (dot) com" → "j.doe@example.com");
    any other text, case-folded."""
    text = written.strip().casefold()
    if "@" in text and " " not in text:
        return text
    at = _AT.search(text)
    if at is None:
        return text
    box, domain = text[: at.start()], text[at.end():]
    return f"{_DOTS.sub('.', box)}@{_DOTS.sub('.', domain)}"


def written_out(address: str) -> regex.Pattern | None:
    """The matcher of `address` written out in any of the ways above (and as itself), case ignored; None
    for a value that is no address. Compiled once per address (the traces of a run share their cast)."""
    if address in _PATTERNS:
        return _PATTERNS[address]
    pattern = None
    folded = address.strip().casefold()
    if _ADDRESS.fullmatch(folded):
        box, _, domain = folded.partition("@")
        pattern = regex.compile(rf"(?i)(?<![\w.+@-])(?:{_labels(box)})(?:{AT_SEPARATOR})(?:{_labels(domain)})"
                                r"(?![\w@-])")
    if len(_PATTERNS) >= _PATTERN_CACHE_SIZE:
        _PATTERNS.clear()
    _PATTERNS[address] = pattern
    return pattern


def _labels(part: str) -> str:
    """A mailbox or domain as a pattern: its dot-separated labels, with any form of dot between them."""
    return DOT.join(regex.escape(label) for label in part.split("."))


def written_forms(address: str) -> list[str]:
    """Case-folded ways of writing `address` out, for the output check's plain substring search."""
    folded = address.strip().casefold()
    if not _ADDRESS.fullmatch(folded):
        return []
    box, _, domain = folded.partition("@")
    forms = []
    for at, dot in ((" at ", " dot "), (" [at] ", " [dot] "), ("(at)", "(dot)"), (" @ ", " . ")):
        forms += [box + at + domain.replace(".", dot), box.replace(".", dot) + at + domain.replace(".", dot)]
    return list(dict.fromkeys(forms))
