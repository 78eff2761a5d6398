"""Where a person's name found in part ends: the words right beside it that can only be more of it.

A recognizer, or NER reading a text with the values already found masked, often finds part of a name:
"Betsey" beside the "Johnson" the name lists found reads, masked, "Betsey John", and NER takes "John" for
the whole name; in chat a surname follows in lower case ("Kylie minogue"). A neighbour joins the name when
it is on the same line, right next to it, and can be nothing else: a capitalised word that is no English
word, no frequent word and no place ("Betsey"), or a lower-case surname on the lists that is no frequent
word ("minogue"). Words the policy allows never join.
"""

from __future__ import annotations

import regex

from scrubbers.recognizers.lexicon import Lexicon

_MAX_WORDS = 2
_BEFORE = regex.compile(r"(?<![\p{L}\p{M}\p{N}_@/\\.'’-])(?P<word>[\p{L}\p{M}][\p{L}\p{M}'’-]*)[ \t]$")
_IRISH_OR_ITALIAN = regex.compile(r"\p{Lu}['’]\p{Lu}\p{Ll}")
_AFTER = regex.compile(r"[ \t](?P<word>[\p{L}\p{M}][\p{L}\p{M}'’-]*)(?![\p{L}\p{M}\p{N}_@/\\-])")


def widen_name(text: str, start: int, end: int, lex: Lexicon, not_names: frozenset[str]) -> tuple[int, int]:
    """[start, end) of a PERSON found, with the neighbours that can only be more of the name."""
    for _ in range(_MAX_WORDS):
        before = _BEFORE.search(text, max(0, start - 40), start)
        if not before or not _more_of_a_name(before.group("word"), lex, not_names):
            break
        start = before.start("word")
    for _ in range(_MAX_WORDS):
        after = _AFTER.match(text, end)
        if not after or not _more_of_a_name(after.group("word"), lex, not_names):
            break
        end = after.end("word")
    return start, end


def _more_of_a_name(word: str, lex: Lexicon, not_names: frozenset[str]) -> bool:
    if word in not_names or len(word) < 2 or word in lex.places or word.capitalize() in lex.places:
        return False
    if ("'" in word or "’" in word) and not _IRISH_OR_ITALIAN.match(word):
        return False  # "I'm", "you're"; "O'Neil" and "D'Angelo" are names
    if lex.is_frequent_word(word) or lex.is_word(word):
        return False
    if word[0].isupper() and not word.isupper():
        return True  # "Betsey": capitalised, and no word of English
    if word.islower():
        return word.capitalize() in lex.last  # "minogue"
    return False
