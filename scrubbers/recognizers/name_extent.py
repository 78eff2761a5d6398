"""Where a person's name found in part ends: the words right beside it that can only be more of it.

A recognizer, or NER reading a text with the values already found masked, often finds part of a name:
"Betsey" beside the "Johnson" the name lists found reads, masked, "Betsey John", and NER takes "John" for
the whole name; in chat a surname follows in lower case ("Kylie minogue"). A neighbour joins the name when
it is on the same line, right next to it, and can be nothing else: a capitalised word that is no English
word, no frequent word and no place ("Betsey"), a lower-case surname on the lists that is no frequent
word ("minogue"), or, beside a name found in capitals in English text, a given name before it or a
surname after it in capitals too ("EVA MENDES"). Before a name found in lower case, a lower-case given
name joins, across a particle too ("ana maria dos santos"). Words the policy allows never join.
"""

from __future__ import annotations

import regex

from scrubbers.recognizers.lexicon import Lexicon

_MAX_WORDS = 2
# the particles of names in several languages that stand between a given name and a surname
_PARTICLES = frozenset({"da", "das", "de", "do", "dos", "del", "della", "di", "du", "van", "von", "bin",
                        "binti", "ibn", "wa", "la", "le"})
_BEFORE = regex.compile(r"(?<![\p{L}\p{M}\p{N}_@/\\.'’-])(?P<word>[\p{L}\p{M}][\p{L}\p{M}'’-]*)[ \t]$")
_CAPITALS_WORD = regex.compile(r"\b\p{Lu}{3,}\b")
_IRISH_OR_ITALIAN = regex.compile(r"\p{Lu}['’]\p{Lu}\p{Ll}")
_AFTER = regex.compile(r"[ \t](?P<word>[\p{L}\p{M}][\p{L}\p{M}'’-]*)(?![\p{L}\p{M}\p{N}_@/\\-])")


def widen_name(text: str, start: int, end: int, lex: Lexicon, not_names: frozenset[str]) -> tuple[int, int]:
    """[start, end) of a PERSON found, with the neighbours that can only be more of the name."""
    shape = _case_shape(text[start:end])
    for _ in range(_MAX_WORDS):
        before = _BEFORE.search(text, max(0, start - 40), start)
        if before and before.group("word") in _PARTICLES:  # "ana maria dos <Santos>": across a particle
            further = _BEFORE.search(text, max(0, before.start("word") - 40), before.start("word"))
            if further and _given_name_before(further.group("word"), lex, shape):
                start = further.start("word")
                continue
        if not before or not (_given_name_before(before.group("word"), lex, shape) or _more_of_a_name(
                text, before.group("word"), lex, not_names, shape, lex.first)):
            break
        start = before.start("word")
    for _ in range(_MAX_WORDS):
        after = _AFTER.match(text, end)
        if not after or not _more_of_a_name(text, after.group("word"), lex, not_names, shape, lex.last):
            break
        end = after.end("word")
    return start, end


def _given_name_before(word: str, lex: Lexicon, shape: str) -> bool:
    """A given name of the lists in lower case before a name found in lower case ("maria" in "maria josé
    da conceição", "ana" in "ana maria dos santos"), even one a dictionary also holds as a word ("maria"):
    in a run of lower-case names it is one more."""
    # three letters that are also a word ("per" before "diem") say too little
    return (shape == "lower" and word.islower() and len(word) >= (4 if lex.is_word(word) else 3)
            and word.capitalize() in lex.first)


def _case_shape(surface: str) -> str:
    """"upper" for "MENDES", "lower" for "kylie", "" for anything else."""
    letters = [c for c in surface if c.isalpha()]
    if len(letters) < 2:
        return ""
    if all(c.isupper() for c in letters):
        return "upper"
    return "lower" if all(c.islower() for c in letters) else ""


def _more_of_a_name(text: str, word: str, lex: Lexicon, not_names: frozenset[str], shape: str,
                    names_on_this_side: frozenset[str]) -> bool:
    if word in not_names or len(word) < 2 or word.capitalize() in lex.places:
        return False
    if word in lex.places and not (shape == "upper" and word.capitalize() in names_on_this_side):
        return False  # an airport code ("LAX"); but "JIM" before a shouted "JONES" is a given name
    if ("'" in word or "’" in word) and not _IRISH_OR_ITALIAN.match(word):
        return False  # "I'm", "you're"; "O'Neil" and "D'Angelo" are names
    if lex.is_frequent_word(word) or lex.is_word(word):
        return False
    if word[0].isupper() and not word.isupper():
        return True  # "Betsey": capitalised, and no word of English
    if shape == "upper" and word.isupper():
        # a given name before, a surname after a name found in capitals: "EVA" in "EVA MENDES"; after it,
        # also a surname the lists do not hold, of four letters or more ("ADEBAYO OGUNLESI"): no word of
        # English stands there in a shout of English words
        known = word.capitalize() in names_on_this_side
        unknown_surname = names_on_this_side is lex.last and len(word) >= 4
        return (known or unknown_surname) and _shouted_english(text, lex)
    if word.islower():
        return word.capitalize() in lex.last  # "minogue"
    return False


def _shouted_english(text: str, lex: Lexicon) -> bool:
    """Are most words in capitals of 3+ letters (the first 100, names aside) frequent English words? The
    name lists hold words of every language ("Mong", "Esta"), which a Tagalog or Spanish shout beside a
    name is full of; short words ("NO", "ME", "LA") are frequent in English text too, so they do not count."""
    shouted = _CAPITALS_WORD.findall(text, 0, 1_000)[:100]
    if len(shouted) <= 3:
        return True  # a name alone ("ADEBAYO OGUNLESI" on a line of its own): no other language shows
    words = [w for w in shouted if not lex.is_name(w.capitalize())]
    return sum(lex.is_frequent_word(w) for w in words) * 5 >= len(words) * 3
