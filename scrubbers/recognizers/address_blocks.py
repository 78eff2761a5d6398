"""Street addresses read by their structure rather than by a street word (`addresses.py` has those forms).

- **Military and post-box mail**: "PSC 0413, Box 8144" / "Unit 4719 Box 7394" / "USNS Mercy" above an
  "APO AE 09012" / "FPO AP 96349" / "DPO AA 34001" line (US military post: those three offices and the
  three AA/AE/AP "states" are fixed by USPS), and post boxes in the words of many countries ("P.O. Box
  12", "Postfach 12", "Apartado 45", "Caixa Postal 9", "Case postale 3"), Kenya's with the post office's
  code ("P.O. Box 48291-00100, Nairobi").
- **Street lines without a street word**: a house number, the street's words and a number ("20789 Allika
  46", "74678 midtvollen 130 st."), two numbers then words ("17151 2450 Crown St"), words then a number
  ("Joaquin Suarez 2906"). Such shapes occur in ordinary sentences too, so one is taken only with
  evidence: a flat or suite part after it, lines after it that read as the rest of an address (a postal
  code, a town, a region), an address cue right before it ("lives at", "send it to", "address is"), or
  a street-type word after it ("... 130 st.").
- **Address blocks**: the lines (or comma parts, or parts after a spaced dash: "1578 - Bela Vista", "São
  Paulo - SP") after a street line that read as address parts (a "Suite 501" line, a floor and door "3º
  izq.", a town, ", CO", "Estonia 62488", "ASKER 1386", "Göteborg 411 06", "toronto on m5j 2n7", a postcode
  alone, a district with its number: "Lekki Phase 1", "Wuse 2"), across one blank line and under quote
  marks ("> ", "??? ") as mail clients write them. A town that ends the block as a comma part is taken
  when the place lists know it ("..., Lagos").
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from scrubbers.recognizers.address_local import FLOOR_DOOR, HOUSE_SUFFIX, UNITS_BEFORE, known_place, tail
from scrubbers.recognizers.lexicon import lexicon

Span = tuple[int, int, float]

_WORD = r"[\p{L}\p{M}][\p{L}\p{M}'’.-]*"
# a house number ("34-H", "12 III": `HOUSE_SUFFIX`); "1,842" is a count with a thousands group
_NUM = rf"\d{{1,6}}[A-Za-z]?(?:[-/]\d{{1,5}}[A-Za-z]?)?{HOUSE_SUFFIX}?\.?(?!,\d{{3}}(?!\d))"
# Flat, suite, floor and unit words of many countries; a number follows them.
_UNIT_WORDS = (r"apt|apartment|appt|suite|ste|unit|flat|floor|bldg|building|lgh|piso|dpto|depto|wohnung|whg|"
               r"étage|kv|кв|room|rm")
_UNIT_PART = rf"(?i:{_UNIT_WORDS})\.?[ \t]*(?:\#[ \t]*|(?i:no|n[°º])\.?[ \t]*)?\d{{1,5}}[A-Za-z]?(?![\w])"
_UNITS_AFTER = regex.compile(rf"(?:,?[ \t]+{_UNIT_PART})+")
_NUMBER_BEFORE = regex.compile(r"(?<![\w.,:$€£/-])\d{1,6}[ \t]+$")
# the street word, and a direction after it ("king st w")
_STREET_WORD_AFTER = regex.compile(r"[ \t]+(?i:st|str|street|rd|road|ave|avenue)\b\.?"
                                   r"(?:[ \t]+(?i:[nsew]|ne|nw|se|sw|north|south|east|west)\b\.?)?")
# Number, street words, number ("6750 Koskikatu 25"); two numbers, then words ("1987 74 Diakou Street");
# words, then a number ("Joaquin Suarez 2906").
_STREET_NAME_WORD = rf"(?!(?i:{_UNIT_WORDS})\b){_WORD}"
_NUM_WORDS_NUM = regex.compile(rf"(?<![\w.,:$€£/+-])\d{{1,6}}[A-Za-z]?"
                               rf"(?P<words>(?:[ \t]+{_STREET_NAME_WORD}){{1,5}}?)[ \t]+{_NUM}(?![\w:%$€£-])")
_NUM_NUM_WORDS = regex.compile(rf"(?<![\w.,:$€£/+-])\d{{1,6}}[ \t]+\d{{1,5}}[A-Za-z]?"
                               rf"(?P<words>(?:[ \t]+{_STREET_NAME_WORD}){{1,5}})(?![\w])")
_WORDS_NUM = regex.compile(rf"(?P<words>{_WORD}(?:[ \t]+{_WORD}){{0,3}})[ \t]+{_NUM}(?![\w:%$€£-])")
# Number, words, then a street-type word ("69 Av Sidi Lakhmi street"): the number first, like "17 Jones St".
_NUM_WORDS_STREET = regex.compile(rf"(?<![\w.,:$€£/+-])\d{{1,6}}[A-Za-z]?"
                                  rf"(?P<words>(?:[ \t]+{_STREET_NAME_WORD}){{1,4}}?)"
                                  rf"(?=[ \t]+(?i:street|st|road|rd|avenue|ave)\b)")
# Units and counted things: a number before one is a quantity, not a house number ("42 Nodes 7 minutes").
_COUNTED = frozenset((
    "am pm h hr hrs hour hours min mins minute minutes sec day days week weeks month months year years "
    "x times percent pct usd eur gbp dollars euros kg km mi mb gb kb ms px pts points items pages "
    "people users tickets orders calls emails messages %").split())
# Words that end an address clause or never belong to a street name: function words, dates, units.
_STOP = _COUNTED | frozenset((
    "a an and or but the of to in on at by for from with without per than then as is are was were be been "
    "i you he she it we they me my your his her our their this that these those there here not no yes "
    "version v chapter section step level page item row line col column figure table rule part "
    "january february march april may june july august september october november december jan feb mar "
    "apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday "
    "today tomorrow tonight yesterday after before until since about around over under into via and/or "
    "last next first second third").split())
# A cue for an address right before a street line ("lives at", "send it to", "address is", "on").
_CUE_BEFORE = regex.compile(
    r"(?i:\b(?:at|to|in|on|is|of|with|into|near|address(?:es)?|lives?|located|situated|corner\s+of)"
    r"[ \t]*:?[ \t]*|address(?:es)?[ \t]*:[ \t]*)$")
_NEXT_WORD = regex.compile(r"[ \t]+([\p{L}%]+)")
_ADDRESS_LINE = regex.compile(r"(?i:\baddress(?:es)?[ \t]*:?[ \t]*)$")
_STRONG_CUE = regex.compile(
    r"(?i:\b(?:(?:lives?|living|resides?|located|situated|station\s+is|enter)[ \t]+(?:on|at|in)(?:[ \t]+the"
    r"[ \t]+\w+[ \t]+side[ \t]+of)?|address(?:[ \t]+is)?[ \t]*:?|corner[ \t]+of)[ \t]*)$")

# ---- the lines after a street line ----
_PREFIX = r"[ \t]*(?:(?:>+|\?{2,}|[|•·*]+)[ \t]*)?"
# Canada's "M5J 2N7" in any case: lower-case text writes "toronto on m5j 2n7"
_POSTAL = (r"(?:[A-Z]{1,2}-)?\d{3,6}(?:[ -]\d{2,4})?|[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2}|"
           r"(?i:[A-Z]\d[A-Z][ \t]?\d[A-Z]\d)|\d{4}[ \t]?[A-Z]{2}")
_PLACE = r"[\p{L}\p{M}(∆][\p{L}\p{M}'’.()∆-]*"  # "∆": a Greek Delta as PDFs and old fonts encode it
_PLACES = rf"{_PLACE}(?:[ \t]+{_PLACE}){{0,5}}"
# after a postal code, capitalised words without brackets: "2037 Hårlev (Romania)" keeps its country note
_TOWN_AFTER_POSTAL = r"\p{Lu}[\p{L}\p{M}'’.-]*(?:[ \t]+[\p{L}\p{M}][\p{L}\p{M}'’.-]*){0,4}"
_PART_END = r"(?=[ \t]*(?:$|\n|,|[.?!;)](?:[ \t]|$)|[ \t]+\p{Ll})|[ \t][-–][ \t])"
# a Spanish floor and door ("3º izq.") ends its part: "2º trimestre" is no flat
_UNIT_LINE = regex.compile(rf"(?:{_UNIT_PART}|{FLOOR_DOOR}(?=[ \t]*(?:$|[,\n])))"
                           rf"(?:[ \t]*,?[ \t]*{_UNIT_PART})*{_PART_END}")
_POSTAL_PART = regex.compile(
    rf"(?:{_PLACES}(?:,[ \t]*|[ \t]+)(?:\p{{Lu}}{{2,3}}[ \t]+)?(?:{_POSTAL})"
    rf"|(?:{_POSTAL})(?:[ \t]+{_TOWN_AFTER_POSTAL})?)(?![\w-]){_PART_END}")
_REGION_PART = regex.compile(r"(?:\p{Lu}{1,3}|\d{1,2})(?![\w])" + _PART_END)
# a district with its number: a phase, zone or sector of a town ("Lekki Phase 1", "Wuse 2", "Sector 15")
_DISTRICT_PART = regex.compile(rf"\p{{Lu}}[\p{{L}}\p{{M}}'’.-]*(?:[ \t]+{_PLACE}){{0,2}}[ \t]+"
                               rf"\d{{1,2}}[A-Za-z]?(?![\w-]){_PART_END}")
# a town is a whole part: the rest of its line, or up to a comma ("Label check: ..." is no town)
_TOWN_PART = regex.compile(rf"{_PLACES}(?=[ \t]*(?:$|\n|,|[.?!][ \t]*(?:$|\n))|[ \t][-–][ \t])")
# a comma, a line break, or a spaced dash: Brazil writes "Av. Paulista, 1578 - Bela Vista" (the
# neighbourhood) and "São Paulo - SP, 01310-200" (the state); a town part after a dash ends the block
# only when more of it follows (a trailing same-line town is dropped: "42 Elm St - Payroll Team")
_SEPARATOR = regex.compile(rf"[ \t]*(?:,[ \t]*|[ \t][-–][ \t]+|\n{_PREFIX}(?:\n{_PREFIX})?(?:,[ \t]*)?)")
_NOT_TOWN = regex.compile(r"(?i)\b(?:and|or|but|the|then|please|thanks|regards|phone|mobile|fax|tel|desk|"
                          r"office|email|e-mail|website|name|address|i|we|you|it)\b|[:@/]")
_PART_KINDS = (("unit", _UNIT_LINE), ("postal", _POSTAL_PART), ("region", _REGION_PART),
               ("district", _DISTRICT_PART), ("town", _TOWN_PART))


def _words_ok(words: str, lowercase_text: bool, strict: bool) -> bool:
    """Street words: none a function word, time or unit, the first not in lower case (unless the whole
    text is); with `strict` (a cue the only evidence) every word capitalised or of a caseless script."""
    parts = words.split()
    if not parts or any(part.lower().strip(".") in _STOP for part in parts):
        return False
    if lowercase_text:  # no capitals to go by: with a cue alone, no common words ("meet at 5 dot 30")
        return not strict or not any(lexicon().is_frequent_word(part.strip(".")) for part in parts)
    return all(not part[0].islower() for part in (parts if strict else parts[:1]))


def _following(text: str, pos: int) -> tuple[list[tuple[int, int, str]], int]:
    """The address parts after `pos` (kind "unit", "postal", "region", "town"), in order, and how many of
    them hold a unit, a postal code or a country. Parts are comma parts of the line or the lines below."""
    parts: list[tuple[int, int, str, bool]] = []
    strong = 0
    countries = lexicon().countries
    for _ in range(6):
        sep = _SEPARATOR.match(text, pos)
        if not sep:
            break
        start, lines = sep.end(), sep.group().count("\n")
        found = None
        for kind, pattern in _PART_KINDS:
            m = pattern.match(text, start)
            if not m or m.end() <= start:
                continue
            value = m.group()
            if kind in ("town", "postal", "district") and _NOT_TOWN.search(value):
                continue
            if kind == "town" and not lines and value[0].islower() and not text.islower():
                continue
            if kind == "region" and not lines and not any(mark in sep.group() for mark in ",-–"):
                continue
            found = (start, m.end(), kind, lines > 0)
            break
        # across a blank line only a postal code or a unit continues the address
        if not found or (lines > 1 and found[2] not in ("postal", "unit")):
            break
        parts.append(found)
        strong += found[2] in ("unit", "postal") or text[found[0]:found[1]].strip().title() in countries
        pos = found[1]
    # a town after the last postal code, unit or country is taken on a line of its own, not as a comma part,
    # unless the place lists know it ("P.O. Box 30197-00100, Nairobi")
    while parts and parts[-1][2] == "town" and not parts[-1][3] and \
            text[parts[-1][0]:parts[-1][1]].strip().title() not in countries and \
            not known_place(text[parts[-1][0]:parts[-1][1]]):
        parts.pop()
    return [(start, end, kind) for start, end, kind, _ in parts], strong


def following(text: str, pos: int) -> Iterator[Span]:
    """The address parts after a street line that ends at `pos`."""
    parts, _ = _following(text, pos)
    for start, end, _kind in parts:
        yield start, end, 0.7


def street_spans(text: str) -> Iterator[Span]:
    """Street lines without a street word, with the evidence the module docstring names, and the lines
    after them."""
    lowercase_text = not any(ch.isupper() for ch in text)
    for pattern in (_NUM_WORDS_NUM, _NUM_NUM_WORDS, _NUM_WORDS_STREET, _WORDS_NUM):
        for m in pattern.finditer(text):
            yield from _judge(text, m, pattern is _WORDS_NUM, lowercase_text)


def _cue_before(text: str, start: int, line_start: int) -> regex.Match | None:
    """An address cue right before `start` on its line, or ending the line above ("Address:\n...")."""
    cue = _CUE_BEFORE.search(text, max(line_start, start - 60), start)
    if cue or regex.sub(_PREFIX, "", text[line_start:start], count=1).strip() or line_start == 0:
        return cue
    above = text.rfind("\n", 0, line_start - 1) + 1
    return _ADDRESS_LINE.search(text, above, line_start - 1)


def _judge(text: str, m: regex.Match, words_first: bool, lowercase_text: bool) -> Iterator[Span]:
    start, end = m.span()
    words = m.group("words")
    if words_first:
        # "... lives on the north side of Joaquin Suarez 2906": the street's words follow the last
        # function word (or, in mixed-case text, the last lower-case word) before them
        kept: list[str] = []
        for word in reversed(words.split()):
            if word.lower().strip(".") in _STOP:
                break
            kept.insert(0, word)
        while kept and kept[0][0].islower() and not lowercase_text:
            kept.pop(0)
        if not kept:
            return
        starts = [w.start() for w in regex.finditer(r"\S+", words)]
        start = m.start("words") + starts[len(starts) - len(kept)]
        words = " ".join(kept)
    after = _NEXT_WORD.match(text, end)
    if after and after.group(1).lower() in _COUNTED:
        return  # "42 Nodes 7 minutes": a count, not a house number
    line_start = text.rfind("\n", 0, start) + 1
    units = _UNITS_AFTER.match(text, end)
    end_street = units.end() if units else end
    street_word = _STREET_WORD_AFTER.match(text, end_street)
    parts, strong = _following(text, street_word.end() if street_word else end_street)
    cue = _cue_before(text, start, line_start)
    backed = bool(units or strong or street_word)
    if not _words_ok(words, lowercase_text, strict=not backed):
        return
    if words_first:
        # the words start the line or follow a cue, and more than a cue backs them
        at_line_start = not regex.sub(_PREFIX, "", text[line_start:start], count=1).strip()
        if not (cue or at_line_start):
            return
        if not (units or strong or (cue and (street_word or _STRONG_CUE.search(text, line_start, start)))):
            return
    elif not (backed or cue):
        return
    lead = UNITS_BEFORE.search(text, max(line_start, start - 60), start)
    yield (lead.start() if lead else start), end_street, 0.8
    for part_start, part_end, _kind in parts:
        yield part_start, part_end, 0.7


# ---- military post and post boxes ----
_MILITARY_OFFICE = regex.compile(r"(?i:\b(?:APO|FPO|DPO)[ \t]+(?:AA|AE|AP)[ \t]+\d{5}(?:-\d{4})?)(?!\w)")
_MILITARY_UNIT = regex.compile(
    r"(?i:\b(?:PSC|CMR|Unit)[ \t]+\d{1,5},?[ \t]+Box[ \t]+\d{1,5}|"
    r"\b(?:USS|USNS|USNV|USCGC|USAV|HMS)[ \t]+\p{L}[\p{L}\p{M}'’.-]*(?:[ \t]+\p{Lu}[\p{L}\p{M}'’.-]*)?)"
    r"(?=[ \t]*(?:,|\n|$))")
_POST_BOX = regex.compile(
    r"(?i:\b(?:P\.?[ \t]?O\.?[ \t]?Box|Post[ \t]?(?:office[ \t])?box|Postboks|Postfach|Postbus|Pf\.|"
    r"Apartado(?:[ \t]de[ \t]correos)?|Casilla(?:[ \t]de[ \t]correos?)?|Caixa[ \t]Postal|Case[ \t]postale|"
    r"Bo[îi]te[ \t]postale|B\.P\.|Skrytka[ \t]pocztowa|GPO[ \t]Box|Locked[ \t]Bag|Private[ \t]Bag|PMB)"
    # Kenya writes the post office's code after the box: "P.O. Box 48291-00100"
    r"[ \t]*(?:no\.?[ \t]*|\#[ \t]*)?\d{1,6}(?:[ \t]?-[ \t]?\d{5})?)(?![\w-])")


def mail_spans(text: str) -> Iterator[Span]:
    """Military post (the unit or ship line above an APO/FPO/DPO line, and that line) and post boxes."""
    for m in _MILITARY_UNIT.finditer(text):
        after = text[m.end():m.end() + 40]
        if m.group()[:3].upper() in ("PSC", "CMR", "UNI") or _MILITARY_OFFICE.match(after.lstrip(" \t,\n")):
            yield m.start(), m.end(), 0.85
    for m in _MILITARY_OFFICE.finditer(text):
        yield m.start(), m.end(), 0.85
    for m in _POST_BOX.finditer(text):
        lead = _NUMBER_BEFORE.search(text, text.rfind("\n", 0, m.start()) + 1, m.start())
        units = _UNITS_AFTER.match(text, m.end())
        end = units.end() if units else m.end()
        yield (lead.start() if lead else m.start()), end, 0.85
        town = tail(text, end)
        if town:
            yield town[0], town[1], 0.7
        yield from following(text, end)
