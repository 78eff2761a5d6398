"""Salted fingerprints of the raw values a trace held: the write gate's known-value check without the values.

`save_case(..., known_values=...)` refuses a case that still holds a value its source trace held. Where
the raw values must not travel (the terminal UI's process only ever sees scrubbed data), the process
that scrubbed the trace hands over `ValueFingerprints` instead: a random salt, the values' lengths and
the salted hashes of the lower-cased values. The check is the same (whole words, any case): each piece
of a case string that could be a value (the right length, not inside a word) is hashed and looked up.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

MIN_KNOWN_VALUE = 3
"""Shorter values are not checked (they would match everywhere), as with raw known values."""

_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class ValueFingerprints:
    salt: bytes
    lengths: frozenset[int]
    digests: frozenset[bytes]

    @classmethod
    def of(cls, values: Iterable[str], salt: bytes | None = None) -> ValueFingerprints:
        salt = os.urandom(16) if salt is None else salt
        kept = {v.strip().lower() for v in values if isinstance(v, str) and len(v.strip()) >= MIN_KNOWN_VALUE}
        return cls(salt=salt, lengths=frozenset(len(v) for v in kept),
                   digests=frozenset(_digest(salt, v) for v in kept))

    def __bool__(self) -> bool:
        return bool(self.digests)

    def found_in(self, text: str) -> bool:
        """Whether `text` holds one of the values as a whole word (case-insensitive)."""
        lowered = text.lower()
        size = len(lowered)
        word = [bool(_WORD.match(char)) for char in lowered]
        for start in range(size):
            if start and word[start - 1]:
                continue
            for length in self.lengths:
                end = start + length
                if end > size or (end < size and word[end]):
                    continue
                if _digest(self.salt, lowered[start:end].strip()) in self.digests:
                    return True
        return False


def _digest(salt: bytes, value: str) -> bytes:
    return hashlib.blake2b(value.encode("utf-8"), key=salt, digest_size=16).digest()
