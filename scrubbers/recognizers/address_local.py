"""Street addresses in the conventions of particular countries, where the general forms (`addresses.py`,
`address_blocks.py`) stop short of the whole address; those modules take the pieces below into theirs.

- **House-number suffixes** (`HOUSE_SUFFIX`): a floor or a letter written onto the number in the
  Netherlands and Germany ("Keizersgracht 123-II", "Herengracht 401 hs", "Lange Voorhout 34-H",
  "Kastanienallee 7 b", "Oudegracht 158 bis").
- **Spanish floor and door** (`FLOOR_DOOR`): "3º izq.", "2ºB", "1º 2ª", "2.º D", "bajo A", a unit after
  the street ("Calle de Alcalá 45, 3º izq., 28014 Madrid").
- **Units before the street** (`UNITS_BEFORE`): "Apartment 12, 4 Nelson Mandela Drive", "Level 3, 100
  Queen St" (Australia, the UK), "Flat 4, Block C, 12 ...", a plot or block word before the house
  number ("Plot 7 Ikorodu Road", Singapore's "Blk 118 Rivervale Drive").
- **Turkish streets** (`local_streets`): a street word after the name ("Caddesi", "Cad.", "Sokak",
  "Sk.", "Bulvarı", "Mahallesi", "Mah."), the number after "No:" and the floor and flat after "Kat:" and
  "D:" or "Daire" ("Bağdat Caddesi No: 155 D: 7", "Cumhuriyet Mah. Lale Sk. No: 14 D: 2").
- **Japanese blocks** (`local_streets`): chōme-ban-gō numbers beside the district ("2-21-1 Shibuya",
  "Nishi-Shinjuku 2-8-1", "2-chome-4-1 Kojimachi"), taken only where a ward or city with its "-ku",
  "-shi", "-cho", "-machi" suffix, or a town with a Japanese postal code, follows ("..., Minato-ku, Tokyo
  107-0062").
- **A town on the street's line** (`tail`): a known town, or a known town and its postal code, after a
  post box or a street line with no comma between ("P.O Box 1234-40100 Kisumu", "... #12-34 Singapore
  529702"); a country alone is no part of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import regex

from scrubbers.recognizers.lexicon import lexicon

# "-II", "-1" (a floor), "-H", "-A02" (Dutch house letters), " hs" (huis), " b", " III", " bis"; a spaced
# small letter only where it is no word ("Via Roma 3 e poi", "Calle Mayor 5 a las 10")
HOUSE_SUFFIX = (r"(?:-(?:II|III|IV|[A-Z]\d{0,2}|hs|bis|ter)(?![\w-])|"
                r"[ \t](?:[bcdfgh]|[A-H]|II|III|IV|hs|huis|bis|ter)(?![\w'’-]))")
# A Spanish (or Catalan) floor and door: an ordinal mark after the floor ("3º", "2.º", "5è"), then a
# door letter or number or side ("izq.", "dcha."); a ground floor or attic word with its door. Detection
# reads text in NFKC, where "º" and "ª" are "o" and "a" ("3o izq.", "2oB").
FLOOR_DOOR = (r"(?:\d{1,2}\.?[ºª°èoa]|(?i:bajos?|ático|atico|entlo|entresuelo|pral|sótano)\.?)"
              r"(?:[ \t-]?(?:[A-Z](?![\w])|\d{1,2}[ºªoa](?![\w])|"
              r"(?i:iz(?:q(?:da|uierda)?|da)|dcha|dch|der(?:echa)?|centro|ctro|int|ext|pta|puerta)\.?"
              r"(?![\w]))){0,2}")
# Units written before the street line, each with its number or letter and maybe a comma ("Apartment
# 12, ", "Suite 4, Level 2, ", "Flat 4, Block C, "), or the word for the number itself ("Plot ", "No. ")
_UNIT_BEFORE_WORDS = (r"apt|apartment|appt|suite|ste|unit|flat|level|lvl|floor|fl|plot|block|blk|house|"
                      r"shop|lot|room|rm|villa|building|bldg|tower|door|stand|erf|lgh|piso|dpto|depto|"
                      r"wohnung|whg|étage|kv|кв")
UNITS_BEFORE = regex.compile(
    rf"(?<![\w.,:$€£/-])(?:(?:(?i:{_UNIT_BEFORE_WORDS})\.?[ \t]*(?:\#[ \t]*|(?i:no|n[°º])\.?[ \t]*)?"
    rf"(?:\d{{1,5}}[A-Za-z]?|[A-Z])(?![\w/-])[ \t]*,?[ \t]+)+(?:\d{{1,6}}[ \t]+)?"
    rf"|(?i:plot|block|blk|house|lot|no|nr|stand|erf)\.?[ \t]*|\d{{1,6}}[ \t]+)$")

# ---- Turkish streets ----
_TR_STREET_WORD = (r"(?:Caddesi|Cad\.|Cd\.|Sokak|Sokağı|Sok\.|Sk\.|Bulvarı|Blv\.|Bulv\.|Mahallesi|Mah\.|"
                   r"Mh\.|Meydanı|Yolu|Çıkmazı)")
_TR_PART = rf"(?:\p{{Lu}}[\p{{L}}\p{{M}}'’-]*[ \t]){{1,3}}(?i:{_TR_STREET_WORD})"
_TURKISH = regex.compile(
    rf"(?<![\w-]){_TR_PART}(?:[ \t,]+{_TR_PART}){{0,2}},?[ \t]+(?:(?i:no)[ \t]*[:.]?[ \t]*)?"
    rf"\d{{1,5}}[A-Za-z]?(?:/\d{{1,4}}[A-Za-z]?)?"
    # the floor ("Kat: 3", "K: 4") and flat ("D: 7", "Daire 3"): a one-letter word only with its colon
    rf"(?:,?[ \t]*(?:(?i:daire|kat|blok|apt)\.?[ \t]*[:.]?|(?i:d|k)[ \t]*[:.])[ \t]*\w{{1,4}})*(?![\w])")
# Cheap checks first (the standard `re`, a literal to look for): most texts hold no such word.
_HAS_TR_WORD = re.compile(r"[CcSsBbMmYyÇç](?:addesi|ad\.|d\.|okak|okağı|ok\.|k\.|ulvarı|lv\.|ulv\.|"
                          r"ahallesi|ah\.|h\.|eydanı|olu|ıkmazı)")

# ---- Japanese blocks ----
_CHOME = r"\d{1,2}(?:-ch[oō]me)?-\d{1,3}(?:-\d{1,4})?"  # "2-21-1", "12-3", "2-chome-4-1"
_JP_NAME = r"\p{Lu}[\p{Ll}\p{M}]+(?:-\p{L}[\p{Ll}\p{M}]*)*"  # "Shibuya", "Minami-Aoyama"
# a ward ends its part: "Shibuya-ku, Tokyo", "Chuo-ku Tokyo 104-0061", not "Shibuya-ku office"
_JP_WARD = (rf"{_JP_NAME}-(?:ku|shi|cho|chō|machi|gun|mura)(?![\w-])"
            r"(?=[ \t]*(?:$|[,\n]|[ \t]\p{Lu}|[ \t](?:〒[ \t]?)?\d))")
_JP_POSTAL = r"(?:〒[ \t]?)?\d{3}-\d{4}(?![\w-])"
_JP_PLACE = rf"{_JP_NAME}(?:[ \t]{_JP_NAME})?"
_JAPANESE = regex.compile(
    rf"(?<![\w-])(?:{_CHOME}[ \t]+{_JP_PLACE}|{_JP_PLACE}[ \t]+{_CHOME})(?![\w-])"
    # the ward or city after it, or a town (and its prefecture) with its postal code
    rf"(?=[ \t]*[,\n][ \t]*(?:{_JP_WARD}|(?:{_JP_NAME}[ \t]*,[ \t]*)?{_JP_NAME}[ \t]+{_JP_POSTAL}))")
_JP_WORDS = regex.compile(r"\p{L}+")
_HAS_JP_WARD = re.compile(r"-(?:ku|shi|cho|chō|machi|gun|mura)\b")
_HAS_JP_POSTAL = re.compile(r"[a-z][ \t]+(?:〒[ \t]?)?\d{3}-\d{4}(?!\d)")

# ---- a town on the street's line ----
_TAIL = regex.compile(
    r"[ \t]+(?P<town>\p{Lu}[\p{L}\p{M}'’.-]+(?:[ \t]\p{Lu}[\p{L}\p{M}'’.-]+)?)(?P<postal>[ \t]+\d{4,6})?"
    r"(?=[ \t]*(?:$|\n|[,;)]|\.(?:[ \t]|$)))")


def known_place(value: str) -> bool:
    """A town the place lists hold that is no common English word ("Lagos", "Nairobi"; not "Best")."""
    places = lexicon()
    value = value.strip(" \t.,")
    return value in places.big_places or (value in places.places and not places.is_dictionary_word(value))


def local_streets(text: str) -> Iterator[tuple[int, int]]:
    """The Turkish and Japanese street lines the module docstring describes, as (start, end)."""
    if _HAS_TR_WORD.search(text):
        for m in _TURKISH.finditer(text):
            yield m.span()
    if "-" in text and (_HAS_JP_WARD.search(text) or _HAS_JP_POSTAL.search(text)):
        for m in _JAPANESE.finditer(text):
            # the district is a Japanese name, not an English word ("The 2-1-1 Rule, Naka-ku style")
            if not any(lexicon().is_dictionary_word(word) for word in _JP_WORDS.findall(m.group())):
                yield m.span()


def tail(text: str, pos: int) -> tuple[int, int] | None:
    """A known town (with its postal code) right after `pos` on the same line, ending the clause; a
    country alone stays ("..., Milford New Zealand")."""
    m = _TAIL.match(text, pos)
    if not m or not known_place(m.group("town")):
        return None
    if not m.group("postal") and m.group("town") in lexicon().countries:
        return None
    return m.start("town"), m.end()
