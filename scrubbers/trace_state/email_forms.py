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
DOT = rf"(?:{DOT_WORD}|\.(?=[\p{{L}}\p{{N}}])|[ \t]+\.[ \t]+)"
"""A dot spelled out or written: glued to the labels on both sides, or spaced on both ("example . com");
a dot with a space after it only ends the sentence ("at example.com. Thanks")."""

_LABEL = r"[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?"
_BOX = r"[\p{L}\p{N}](?:[\p{L}\p{N}._%+-]{0,62}[\p{L}\p{N}])?"
WRITTEN = regex.compile(
    rf"(?i)(?<![\w.+@-])(?P<box>{_BOX}(?:{DOT_WORD}{_BOX})*)(?P<at>{AT_SEPARATOR})"
    rf"(?P<domain>{_LABEL}(?:{DOT}{_LABEL})+)(?![\w-])")
"""An address, written out or not: a mailbox, something standing for the "@", and a domain of two labels
or more (search it with `overlapped=True`: "reach me at j.doe42{at}…" first matches "me at j.doe42")."""
GATE = regex.compile(
    rf"(?i)[ \t]at[ \t]|[ \t]@|@[ \t]|{OPEN}[ \t]*(?:at|@)[ \t]*{CLOSE}"
    rf"|@[\p{{L}}\p{{N}}.-]*(?:[ \t]+dot[ \t]|[ \t]*{OPEN}[ \t]*(?:dot|\.)|[ \t]+\.)"
    rf"|(?:[ \t]dot[ \t]|{CLOSE})[\p{{L}}\p{{N}}._%+-]*@")
"""Where a written-out address can be: an "at" word, an "@" with a space or bracket beside it, or a plain
"@" with a dot spelled out after it or before it. A plain address is Presidio's, and most are plain."""

_AT = regex.compile(rf"(?i){AT_SEPARATOR}")
_DOTS = regex.compile(rf"(?i){DOT}")
_ADDRESS = regex.compile(r"[^\s@]+@[^\s@]+\.[^\s@]+")


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


class KnownAddresses:
    """The addresses a trace holds (as `plain_address` gives them), and where a text writes one out: a
    trace that holds an address knows it in any of these forms, with no cue needed."""

    def __init__(self) -> None:
        self._addresses: set[str] = set()
        # each address's first domain label: every form of the address holds it as it is
        self._labels: set[str] = set()

    def add(self, written: str) -> None:
        """Remember an address, however it was written."""
        address = plain_address(written)
        self._addresses.add(address)
        if "@" in address:
            self._labels.add(address.partition("@")[2].partition(".")[0])

    def written_in(self, text: str) -> list[tuple[int, int]]:
        """Where `text` writes out one of the addresses."""
        if not self._labels:  # a form is found only through its domain label
            return []
        folded = text.casefold()
        if not any(label in folded for label in self._labels) or GATE.search(text) is None:
            return []
        return [m.span() for m in WRITTEN.finditer(text, overlapped=True)
                if plain_address(m.group()) in self._addresses]


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
