"""Luhn-valid digit runs in text: payment cards (13 to 19 digits) and other checksummed identifiers.

A run is digits with single spaces or dashes allowed between them (`4111 1111 1111 1111`,
`4111-1111-1111-1111`). Inside a longer run, every stretch of whole digit groups is tried, so a card
followed by more digits (`... 1111 12 months`) is still found.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_RUN = re.compile(r"(?<!\d)\d(?:[ -]?\d)*(?!\d)")
_GROUP = re.compile(r"\d+")
CARD_DIGITS = (13, 19)


def luhn_valid(digits: str) -> bool:
    """The Luhn (mod 10) checksum of a digit string."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def luhn_numbers(text: str, min_digits: int, max_digits: int) -> Iterator[tuple[int, int, int]]:
    """(start, end, digit count) of each Luhn-valid stretch of `min_digits`..`max_digits` digits."""
    for run in _RUN.finditer(text):
        groups = list(_GROUP.finditer(run.group()))
        for first in range(len(groups)):
            digits = ""
            for last in range(first, len(groups)):
                digits += groups[last].group()
                if len(digits) > max_digits:
                    break
                if len(digits) >= min_digits and luhn_valid(digits):
                    yield run.start() + groups[first].start(), run.start() + groups[last].end(), len(digits)
                    break
