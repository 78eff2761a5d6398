"""The word lists behind the name recognizers, read once per process from `data/lexicon.json.gz`
(built by `tools/build_lexicon.py` from names-dataset, wordfreq, SCOWL's dictionaries, geonames and
airportsdata)."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources
from typing import NamedTuple


class Lexicon(NamedTuple):
    first: frozenset[str]
    """Given names in a country's top 2,000 that are not also common English words."""
    last: frozenset[str]
    """Surnames likewise."""
    ambiguous: frozenset[str]
    """Names that are also common words ("Will", "Hope", "Show"): a name only with a cue."""
    english: frozenset[str]
    """Lower-case English words of Zipf frequency >= 3, but for names no dictionary writes in lower case."""
    words: frozenset[str]
    """Lower-case English words of Zipf frequency >= 3 ("billing", "rose"), names or not, but for names no
    dictionary writes in lower case ("justin", "emily": frequent only because people bear them)."""
    proper: frozenset[str]
    """Words of `english` no dictionary writes in lower case ("obama", "rihanna", "aclu"): proper nouns."""
    places: frozenset[str]
    """Countries, cities of 15,000+ people, US states, IATA airport codes."""
    popular_first: frozenset[str]
    """Given names in a country's top 200: as often a person as a big city of the same name ("Sofia")."""
    big_places: frozenset[str]
    """Countries, US states and cities of 250,000+ people: a place first, even where also a surname."""
    countries: frozenset[str]
    """Country names: a place, even when some people bear the name ("France", "Brazil")."""
    first_lower: frozenset[str]
    """`first` in lower case, for names typed in lower case in chat."""
    last_lower: frozenset[str]
    """`last` in lower case."""

    def is_name(self, word: str) -> bool:
        """A clean given name or surname (not a common word)."""
        return word in self.first or word in self.last

    def is_any_name(self, word: str) -> bool:
        return word in self.first or word in self.last or word in self.ambiguous

    def is_frequent_word(self, word: str) -> bool:
        """A word of English text at least as often as about once in a million words, names or not."""
        return word.lower() in self.words

    def is_word(self, word: str) -> bool:
        """A common English word (in any case)."""
        return word.lower() in self.english

    def is_dictionary_word(self, word: str) -> bool:
        """A common English word that dictionaries write in lower case: "Metadata", "Fetch", not "Obama"."""
        return word.lower() in self.english and word.lower() not in self.proper


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    raw = resources.files("scrubbers.recognizers").joinpath("data/lexicon.json.gz").read_bytes()
    data = json.loads(gzip.decompress(raw))
    first = frozenset(data["first"])
    return Lexicon(first=first, last=frozenset(data["last"]), ambiguous=frozenset(data["ambiguous"]),
                   english=frozenset(data["english"]),
                   words=frozenset(data["words"]), proper=frozenset(data["proper"]),
                   places=frozenset(data["places"]),
                   popular_first=frozenset(data["popular_first"]), big_places=frozenset(data["big_places"]),
                   countries=frozenset(data["countries"]),
                   first_lower=frozenset(name.lower() for name in first),
                   last_lower=frozenset(name.lower() for name in data["last"]))
