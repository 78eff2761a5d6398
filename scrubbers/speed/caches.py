"""The engine's bounded caches: detections by text, plans by (key rule, value).

Both are least-recently-used and bounded, so a day of traces keeps memory flat: detections by how many
texts they are kept for, plans by how many characters the planned texts hold.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any, Callable, Generic, TypeVar

Found = TypeVar("Found")


class DetectionCache(Generic[Found]):
    """What the analyzer found in a text, for the last `size` texts (keyed by a 16-byte digest of the
    text, not the text itself: the cache holds no personal data in the clear)."""

    def __init__(self, size: int):
        self.size = size
        self._found: OrderedDict[bytes, Found] = OrderedDict()

    def get(self, text: str) -> Found | None:
        key = text_digest(text)
        found = self._found.get(key)
        if found is not None:
            self._found.move_to_end(key)
        return found

    def put(self, text: str, found: Found) -> None:
        if self.size:
            self._found[text_digest(text)] = found
            while len(self._found) > self.size:
                self._found.popitem(last=False)

    def copy(self) -> DetectionCache[Found]:
        """A cache with the same entries (benchmarks measure everything but the analysis with one)."""
        twin: DetectionCache[Found] = DetectionCache(self.size)
        twin._found = self._found.copy()
        return twin


class SizedCache:
    """Values by key, for as many keys as fit in `budget` (each value weighs what `weight` says)."""

    def __init__(self, budget: int, weight: Callable[[Any, Any], int]):
        self._budget = budget
        self._weight = weight
        self._held = 0
        self._values: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        self._values[key] = value
        self._held += self._weight(key, value)
        while self._held > self._budget:
            self._held -= self._weight(*self._values.popitem(last=False))


class Sightings:
    """Whether a key was seen before, for the last `size` keys (by hash: a collision only means a
    value is treated as seen, which costs memory, never correctness)."""

    def __init__(self, size: int):
        self.size = size
        self._seen: OrderedDict[int, None] = OrderedDict()

    def again(self, key: Any) -> bool:
        """True when `key` was seen before; records it either way."""
        token = hash(key)
        if token in self._seen:
            self._seen.move_to_end(token)
            return True
        self._seen[token] = None
        if len(self._seen) > self.size:
            self._seen.popitem(last=False)
        return False


def text_digest(text: str) -> bytes:
    """A 16-byte digest of a text: the caches key texts by it, so they hold no personal data in the clear."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
