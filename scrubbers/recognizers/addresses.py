"""Street addresses in the formats of many countries, line by line (a replacement never spans a line
break: each line of an address is its own span).

- a street line: number then street ("17 Jones Light", "12-14 Smith St", "3/45 Beach Road", the USPS
  suffixes and the UK ones, a direction after them: "King St W", Singapore's street number: "Bishan
  Street 22"), street then number ("Puruntie 82", "Drubinstraße 47-26", "Witte de Withstraat 12 III",
  "Györgyhalasi utca 121.", "ul. Paderewskiego 77", "Via Roma 3", "5, avenue Samson", "8 phố Hùng
  Vương"), with flat, floor and unit parts after it ("Apt. 595", "Ap. 806", "lgh 1101", "кв. 5", "#08-14",
  Spain's "3º izq.");
- a plot or house number before a street that has none (Nigeria's "Plot 14, Admiralty Way");
- the lines that follow it when they hold a postal code or a town ("17066 Rovaniemi", "H-7317 ...",
  "61-668 Kołobrzeg", "Madrid, 02857", "S6 7LJ", "1317 YB", "toronto on m5j 2n7");
- a postal code before an all-capitals town on its own ("53650 LAPPEENRANTA");
- East Asian addresses: a run of Han/Hangul/kana with an administrative unit and a number;
- street lines without a street word, address blocks, military post and post boxes
  (`address_blocks.py`); the conventions of particular countries (`address_local.py`: house-number
  suffixes, Spanish floors, Turkish and Japanese streets, a known town on the street's line); house
  numbers and units written before a street line ("1987 74 Diakou Street", "Level 3, 100 Queen St",
  "Apartment 12, 4 Nelson Mandela Drive", "Blk 118 Rivervale Drive").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

import regex

from scrubbers.recognizers.address_blocks import following, mail_spans, street_spans
from scrubbers.recognizers.address_local import FLOOR_DOOR, HOUSE_SUFFIX, UNITS_BEFORE, local_streets, tail
from scrubbers.recognizers.base import OneEntityRecognizer
from scrubbers.recognizers.lexicon import lexicon

ENTITY = "STREET_ADDRESS"
_W = r"[\p{Lu}\p{Ll}\p{M}'’.-]"
_CAP = rf"\p{{Lu}}{_W}*"
_NUM = rf"\d{{1,5}}[A-Za-z]?(?:[-/]\d{{1,5}}[A-Za-z]?)?{HOUSE_SUFFIX}?\.?"
# USPS Publication 28 street suffixes and the UK's common ones (number-first streets).
_EN_SUFFIX = (
    "Alley|Annex|Arcade|Avenue|Ave|Bayou|Beach|Bend|Bluffs?|Bottom|Boulevard|Blvd|Branch|Bridges?|Brooks?|"
    "Burgs?|Bypass|Camp|Canyon|Cape|Causeway|Centers?|Circles?|Cir|Cliffs?|Close|Club|Commons?|Corners?|"
    "Course|Courts?|Ct|Coves?|Creek|Crescent|Crest|Crossing|Crossroad|Curve|Dale|Dam|Divide|Drives?|Dr|"
    "Estates?|Expressway|Extensions?|Falls?|Ferry|Fields?|Flats?|Fords?|Forest|Forges?|Forks?|Fort|Freeway|"
    "Gardens?|Gateway|Glens?|Greens?|Groves?|Harbors?|Haven|Heights|Highway|Hwy|Hills?|Hollow|Inlet|"
    "Islands?|Isle|Junctions?|Keys?|Knolls?|Lakes?|Land|Landing|Lane|Ln|Light|Lights|Loaf|Locks?|Lodge|Loop|"
    "Mall|Manors?|Meadows?|Mews|Mills?|Missions?|Motorway|Mount|Mountains?|Neck|Orchard|Oval|Overpass|Park|"
    "Parkways?|Pkwy|Pass|Passage|Path|Pike|Pines?|Place|Pl|Plains?|Plaza|Points?|Ports?|Prairie|Radial|Ramp|"
    "Ranch|Rapids?|Rest|Ridges?|Rise|River|Road|Rd|Roads|Route|Row|Rue|Run|Shoals?|Shores?|Skyway|Springs?|"
    "Spurs?|Squares?|Sq|Station|Stravenue|Stream|Streets?|St|Summit|Terrace|Ter|Throughway|Trace|Track|"
    "Trafficway|Trail|Trl|Trailer|Tunnel|Turnpike|Underpass|Unions?|Valleys?|Via|Viaducts?|Views?|"
    "Villages?|Ville|Vista|Walks?|Wall|Way|Ways|Wells?|Wharf|Wynd|Yard")
# A range or a unit and the number ("12-14 Smith St", "3/45 Beach Road"), a direction after the street
# word ("King St W"), Singapore's street number after it ("Bishan Street 22, #08-14").
_EN_STREET = (rf"\d{{1,6}}[A-Za-z]?(?:[-/]\d{{1,5}}[A-Za-z]?)?[ \t]+(?:{_CAP}[ \t]+){{1,4}}"
              rf"(?-i:{_EN_SUFFIX})\b\.?"
              r"(?:[ \t]+(?:[NSEW]|NE|NW|SE|SW|North|South|East|West)\b\.?)?"
              r"(?:[ \t]+\d{1,3}(?=[ \t]*(?:[,#\n]|$)))?")
# Street word endings of northern and central Europe ("Puruntie", "Skolvägen", "Drubinstraße").
_SUFFIXES = ("tie|katu|kuja|polku|kaari|rinne|tanhua|väylä|raitti|vej|gade|alle|allé|stræde|vænge|vägen|väg|"
             "gatan|gata|gränd|stigen|veien|vei|veg|gata|straße|strasse|str\\.|weg|gasse|platz|allee|ring|"
             "damm|"
             "ufer|chaussee|steig|pfad|laan|straat|gracht|singel|plein|dreef|kade|steeg|dijk|hof|markt|"
             "ulica|utca|tér|út|körút|sor|köz|iela|gatvė|tänav|puiestee|maantee|ulice|třída|náměstí|nábřeží|"
             "cesta|trg|ulice|sokak|caddesi|cadde|bulvarı|yolu")
# a Dutch or German particle between the words ("Witte de Withstraat", "Jan van Galenstraat")
_SUFFIX_STREET = (rf"(?:\d{{4,6}}[ \t]+)?(?:{_CAP}[ \t-](?:(?:de|van|der|den|het|von|ten|ter)[ \t])*)?"
                  rf"{_CAP}(?:{_SUFFIXES})[ \t]+{_NUM}")
_WORD_STREET = (r"(?:\p{Lu}[\p{L}\p{M}'’.-]*[ \t]){1,3}(?:utca|út|tér|körút|u\.|köz|sor|sétány|tere|"
                r"sokak|caddesi|cad\.|sk\.|mahallesi|mah\.|Allé|Alle|Vej|Gade|Plads|Torv|Vænge|Väg|Gata|"
                r"Gatan|"
                r"Veien|Vei|Straße|Strasse|Weg|Platz|Gasse|Allee|Laan|Straat|Plein|Tie|Katu)[ \t]+" + _NUM)
# Street words before the name ("Via Roma 3", "ul. Paderewskiego 77", "Calle Mayor, 5").
_PREFIXES = ("ul\\.|ulica|al\\.|aleja|os\\.|pl\\.|Via|Viale|Piazza|Piazzale|Corso|Strada|Largo|Vicolo|"
             "Contrada|"
             "Borgo|Rue|Avenue|Av\\.|Bd|Boulevard|Chemin|Allée|Impasse|Place|Quai|Route|Cours|Calle|C/|"
             "Avenida|"
             "Avda\\.|Carrer|Paseo|Pasaje|Plaza|Camino|Ronda|Travesía|Cuesta|Glorieta|Rua|Travessa|Praça|"
             "Alameda|Rodovia|Estrada|Jardim|Vila|Largo|Intrarea|Strada|Str\\.|Bulevardul|Bd\\.|Calea|Aleea|"
             "Șoseaua|Soseaua|Piața|Splaiul|Odos|Οδός|Leoforos|Λεωφόρος|phố|đường|Đường|Phố|ngõ|hẻm|"
             "ул\\.|улица|пр\\.|просп\\.|проспект|пер\\.|переулок|ш\\.|шоссе|б-р|бульвар|наб\\.|пл\\.|вул\\.|"
             "вулиця")
_PREFIX_STREET = (rf"(?:\d{{1,5}}[A-Za-z]?,?[ \t]+)?(?i:{_PREFIXES})[ \t]+(?:(?:de|del|de la|da|do|dos|das|"
                  rf"di|della|des|du|le|la|les|l'|d')[ \t]*)?(?:[\p{{L}}\p{{M}}'’.-]+[ \t]){{0,4}}"
                  rf"[\p{{L}}\p{{M}}'’.-]+(?:,?[ \t]+(?:(?i:д\.|nr\.?|n\.?º?|no\.?|núm\.?|num\.?|"
                  rf"№)[ \t]*)?{_NUM})?")
_UNIT = (r"(?:,?[ \t]+(?:(?i:apt|apartment|suite|ste|unit|flat|floor|fl|ap|bl|sc|et|etaj|nr|no|wohnung|whg|"
         r"lgh|bus|stg|tür|top|piso|puerta|esc|dpto|depto|int|interior|bloco|andar|sala|casa|kv|кв|д|к|корп|"
         rf"стр|lok|m|door|bldg|building|room|rm|\#)\.?[ \t]*\#?[\w/-]{{1,8}}|{FLOOR_DOOR})){{0,4}}")
# Lines after a street line: a postal code and town, a town and postal code, a UK or Dutch postcode.
_POSTAL = (r"(?:[A-Z]{1,2}-)?\d{2,6}(?:[ -]\d{2,4})?(?:[ \t][A-Z]{2}\b)?|"
           r"[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2}|(?i:[a-z]\d[a-z][ \t]?\d[a-z]\d)(?![\w])|"
           r"\d{4}[ \t]?[A-Z]{2}")
_TOWN = (r"[\p{Lu}'’][\p{L}\p{M}'’.-]*(?:[ \t-]+(?:(?:da|de|do|di|du|la|le|am|an|der|sur|en|upon|on|"
         r"im)[ \t]+|"
         r"/[ \t]*)?[\p{Lu}'’(][\p{L}\p{M}'’.()-]*){0,4}")
_TOWN_ALONE = r"\p{Lu}[\p{L}\p{M}'’.-]+(?:[ \t-](?:\p{Lu}|'s-)[\p{L}\p{M}'’.-]+){0,3}"
_FOLLOW_LINE = regex.compile(
    rf"(?:[ \t]*(?:{_POSTAL})(?:,?[ \t]+{_TOWN})?|[ \t]*{_TOWN},?[ \t]+(?:[A-Z]{{2}}[ \t]+)?(?:{_POSTAL})"
    rf"|[ \t]*{_TOWN_ALONE}(?=[ \t]*(?:\n|$|/|,)))[ \t]*")
_POSTAL_CAPS_TOWN = regex.compile(r"(?<![\w-])\d{4,6}[ \t]+\p{Lu}{4,}(?:[ \t-]\p{Lu}{2,}){0,2}(?![\w])")
_EAST_ASIAN = regex.compile(
    r"[\p{Han}\p{Hangul}\p{Katakana}\p{Hiragana}\w -]{0,30}"
    r"(?:省|市|区|県|都|府|道|郡|町|村|街|路|号|丁目|番地?|도|시|구|군|동|로|길|읍|면)"
    r"[\p{Han}\p{Hangul}\p{Katakana}\p{Hiragana}\w -]{0,30}\d[\p{Han}\p{Hangul}\w -]{0,20}")
_HAS_EAST_ASIAN = regex.compile(r"[\p{Han}\p{Hangul}]")
# After an address cue ("postal address to", "home:", "ships to", "lives at"), the rest of the clause
# is the address when it holds a number: any format, any script ("Vlasákova 9, 421 40 Rosice").
_ADDRESS_CUE = regex.compile(
    r"(?i:\b(?:(?:postal|mailing|home|billing|shipping|delivery|street|new|my|our|the|her|his|their)[ \t]+)?"
    r"address(?:[ \t]+(?:to|is|at|of))?[ \t]*[:=]?|\bhome[ \t]*:|\b(?:ships?|shipped|shipping|deliver|"
    r"delivered|"
    r"send|sent|mail|mailed|post|posted)[ \t]+(?:it[ \t]+|them[ \t]+)?to|\b(?:lives?|living|resides?|located)"
    r"[ \t]+at)[ \t]+"
    r"(?P<addr>[\p{L}\p{N}][^\n;()\"<>@]{2,120}?)"
    # the clause ends: a bracket, a line break, "." after a word (not "TP.", "H.No."), a following clause
    # (not Ontario's or Oregon's code before the postal code that ends it: "toronto on m5j 2n7", "salem or
    # 97301")
    r"(?=[ \t]*(?:[(\n;\"<]|$|(?<=[\p{L}]{4}|\d)\.(?:[ \t]|$)|,?[ \t]+(?i:within|by|before|until|for|"
    r"from|and|but|via|today|tomorrow|asap|please|thanks|on(?![ \t]+[a-z]\d[a-z][ \t]?\d[a-z]\d\b)|"
    r"or(?![ \t]+\d{5}(?:-\d{4})?(?:[ \t]*(?:$|[\n,;]|\.(?:[ \t]|$)))))\b))")
_DIGIT = regex.compile(r"\d")
# A plot or house number before a street that has none (Nigeria's "Plot 14, Admiralty Way"); house numbers
# and flats written before a street line are `UNITS_BEFORE`'s ("1987 74 Diakou Street", "Level 3, 100 ...").
_PLOT_STREET = regex.compile(
    rf"(?<![\w-])(?i:plot|house|lot|stand|erf|villa|no\.)[ \t]*\d{{1,5}}[A-Za-z]?(?:[ \t]*,)?[ \t]+"
    rf"(?:{_CAP}[ \t]+){{1,4}}(?-i:{_EN_SUFFIX})\b\.?{_UNIT}(?![\w])")
# a cheap check first: the ends of those words before a number ("Plot 14", "HOUSE 7", "No. 5")
_HAS_PLOT = re.compile(r"(?:ot|OT|ouse|OUSE|tand|TAND|rf|RF|illa|ILLA|o\.|O\.)[ \t]*\d")
_LATIN_WORDS = regex.compile(r"[ \t]+[a-z]{2,}\b.*", regex.DOTALL)


@lru_cache(maxsize=None)
def _street(suffixed: bool, prefixed: bool) -> regex.Pattern:
    """The street-line pattern, without the street-suffix or street-prefix forms where the text holds
    no such word before the blank they need after it (`_street_of`)."""
    forms = [_EN_STREET, *([_SUFFIX_STREET] if suffixed else []), _WORD_STREET,
             *([_PREFIX_STREET] if prefixed else [])]
    return regex.compile(rf"(?<![\w-])(?:{'|'.join(forms)}){_UNIT}(?![\w])")


def _literals(alternation: str) -> list[str]:
    """The words of an alternation of plain words (`\\.` the only escape), as text."""
    words = alternation.split("|")
    if any(regex.search(r"[\\()\[\]{}*+?^$.]", word.replace("\\.", "")) for word in words):
        raise ValueError(f"not an alternation of plain words: {alternation[:40]}...")
    return [word.replace("\\.", ".") for word in words]


# The suffix and prefix forms try a long list of words at every word of a text; most texts hold none of
# them, which a plain search tells far faster. A suffix comes right before blanks and a digit, matched
# as written; a prefix right before a blank, matched ignoring case: case-folded text holds it exactly where
# `regex` matches it, but for the dotless "ı" and the dotted "İ", which `regex` takes for "i" and "I".
_SUFFIX_WORDS = tuple(_literals(_SUFFIXES))
_BLANKS_DIGIT = regex.compile(r"[ \t]+\d")
_PREFIX_BEFORE_BLANK = re.compile(
    "(?:" + "|".join(re.escape(word.casefold()) for word in _literals(_PREFIXES)) + ")[ \t]")


def _street_of(text: str) -> regex.Pattern:
    """`_street` with the forms that can match somewhere in `text`: the same matches as with all forms."""
    suffixed = any(text.endswith(_SUFFIX_WORDS, 0, blanks.start()) for blanks in _BLANKS_DIGIT.finditer(text))
    prefixed = ("ı" in text or "İ" in text or _PREFIX_BEFORE_BLANK.search(text.casefold()) is not None)
    return _street(suffixed, prefixed)


class InternationalAddressRecognizer(OneEntityRecognizer):
    """STREET_ADDRESS lines as described in the module docstring."""

    ENTITY = ENTITY
    NAME = "international address"

    def __init__(self) -> None:
        self.places = lexicon().places
        super().__init__()

    def spans(self, text: str) -> Iterator[tuple[int, int, float]]:
        if any(ch.isdigit() for ch in text):
            for m in _street_of(text).finditer(text):
                if not any(ch.isdigit() for ch in m.group()):
                    continue
                yield from self._street_line(text, m.start(), m.end())
            plots = _PLOT_STREET.finditer(text) if _HAS_PLOT.search(text) else ()
            for start, end in (*(m.span() for m in plots), *local_streets(text)):
                yield from self._street_line(text, start, end)
            yield from street_spans(text)
            yield from mail_spans(text)
            for m in _POSTAL_CAPS_TOWN.finditer(text):
                yield m.start(), m.end(), 0.7
            yield from self._after_cue(text)
            if _HAS_EAST_ASIAN.search(text):
                for m in _EAST_ASIAN.finditer(text):
                    s, e = m.start(), m.end()
                    while s < e and not text[s].strip():
                        s += 1
                    while e > s and not text[e - 1].strip():
                        e -= 1
                    latin = _LATIN_WORDS.search(text, s, e)  # "... 大島町 within 2 bags": not the address
                    yield s, latin.start() if latin else e, 0.75

    def _street_line(self, text: str, start: int, end: int) -> Iterator[tuple[int, int, float]]:
        """A street line with the units or house number before it, and the parts after it: a town on
        its line, lines or comma parts."""
        lead = UNITS_BEFORE.search(text, max(text.rfind("\n", 0, start) + 1, start - 60), start)
        yield (lead.start() if lead else start), end, 0.8
        town = tail(text, end)
        if town:
            yield town[0], town[1], 0.7
        yield from self._following(text, end)
        yield from following(text, end)

    def _after_cue(self, text: str) -> Iterator[tuple[int, int, float]]:
        for m in _ADDRESS_CUE.finditer(text):
            value = m.group("addr")
            if not _DIGIT.search(value) or len(value.split()) < 2:
                continue
            parts = value.split(",")
            # a country or a town alone at the end is not the address ("..., 8604 Jyllinge, Denmark")
            while len(parts) > 1 and not _DIGIT.search(parts[-1]) and parts[-1].strip() in self.places:
                parts.pop()
            end = m.start("addr") + len(",".join(parts).rstrip(" \t.,"))
            yield m.start("addr"), end, 0.75
            yield from following(text, end)

    def _following(self, text: str, pos: int) -> Iterator[tuple[int, int, float]]:
        """Up to three lines (or comma parts) after a street line that read as postal code / town."""
        for _ in range(3):
            sep = regex.match(r"[ \t]*(?:,|\n|/)[ \t]*", text[pos:pos + 8])
            if not sep:
                return
            start = pos + sep.end()
            line_end = text.find("\n", start)
            line_end = len(text) if line_end < 0 else line_end
            m = _FOLLOW_LINE.fullmatch(text, start, line_end) or _FOLLOW_LINE.match(text, start, line_end)
            if not m or m.end() <= start:
                return
            segment = text[start:m.end()].strip()
            if not segment or (not any(ch.isdigit() for ch in segment) and len(segment.split()) > 4):
                return
            end = start + len(text[start:m.end()].rstrip())
            bracket = regex.search(r"[ \t]*\(([^()]*)\)?[.,]?$", text[start:end])
            if bracket and bracket.group(1).strip() in self.places:  # "8604 Jyllinge (Sweden)"
                end = start + bracket.start()
            yield start, end, 0.7
            pos = m.end()
