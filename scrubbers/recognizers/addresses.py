"""Street addresses in the formats of many countries, line by line (a replacement never spans a line
break: each line of an address is its own span).

- a street line: number then street ("17 Jones Light", the USPS suffixes and the UK ones), street then
  number ("Puruntie 82", "Drubinstraße 47-26", "Györgyhalasi utca 121.", "ul. Paderewskiego 77",
  "Via Roma 3", "5, avenue Samson", "8 phố Hùng Vương"), with flat, floor and unit parts after it
  ("Apt. 595", "Ap. 806", "lgh 1101", "кв. 5");
- the lines that follow it when they hold a postal code or a town ("17066 Rovaniemi", "H-7317 ...",
  "61-668 Kołobrzeg", "Madrid, 02857", "S6 7LJ", "1317 YB");
- a postal code before an all-capitals town on its own ("53650 LAPPEENRANTA");
- East Asian addresses: a run of Han/Hangul/kana with an administrative unit and a number;
- street lines without a street word, address blocks, military post and post boxes
  (`address_blocks.py`); a house number or flat written before a street line ("1987 74 Diakou Street").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

import regex

from scrubbers.recognizers.address_blocks import following, mail_spans, street_spans
from scrubbers.recognizers.base import OneEntityRecognizer
from scrubbers.recognizers.lexicon import lexicon

ENTITY = "STREET_ADDRESS"
_W = r"[\p{Lu}\p{Ll}\p{M}'’.-]"
_CAP = rf"\p{{Lu}}{_W}*"
_NUM = r"\d{1,5}[A-Za-z]?(?:[-/]\d{1,5}[A-Za-z]?)?\.?"
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
_EN_STREET = rf"\d{{1,6}}[A-Za-z]?[ \t]+(?:{_CAP}[ \t]+){{1,4}}(?-i:{_EN_SUFFIX})\b\.?"
# Street word endings of northern and central Europe ("Puruntie", "Skolvägen", "Drubinstraße").
_SUFFIXES = ("tie|katu|kuja|polku|kaari|rinne|tanhua|väylä|raitti|vej|gade|alle|allé|stræde|vænge|vägen|väg|"
             "gatan|gata|gränd|stigen|veien|vei|veg|gata|straße|strasse|str\\.|weg|gasse|platz|allee|ring|"
             "damm|"
             "ufer|chaussee|steig|pfad|laan|straat|gracht|singel|plein|dreef|kade|steeg|dijk|hof|markt|"
             "ulica|utca|tér|út|körút|sor|köz|iela|gatvė|tänav|puiestee|maantee|ulice|třída|náměstí|nábřeží|"
             "cesta|trg|ulice|sokak|caddesi|cadde|bulvarı|yolu")
_SUFFIX_STREET = rf"(?:\d{{4,6}}[ \t]+)?(?:{_CAP}[ \t-])?{_CAP}(?:{_SUFFIXES})[ \t]+{_NUM}"
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
_UNIT = (r"(?:,?[ \t]+(?i:apt|apartment|suite|ste|unit|flat|floor|fl|ap|bl|sc|et|etaj|nr|no|wohnung|whg|lgh|"
         r"bus|stg|tür|top|piso|puerta|esc|dpto|depto|int|interior|bloco|andar|sala|casa|kv|кв|д|к|корп|стр|"
         r"lok|m|door|bldg|building|room|rm|\#)\.?[ \t]*\#?[\w/-]{1,6}){0,4}")
# Lines after a street line: a postal code and town, a town and postal code, a UK or Dutch postcode.
_POSTAL = (r"(?:[A-Z]{1,2}-)?\d{2,6}(?:[ -]\d{2,4})?(?:[ \t][A-Z]{2}\b)?|"
           r"[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2}|"
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
    r"(?=[ \t]*(?:[(\n;\"<]|$|(?<=[\p{L}]{4}|\d)\.(?:[ \t]|$)|,?[ \t]+(?i:within|by|before|until|on|for|"
    r"from|and|or|but|via|today|tomorrow|asap|please|thanks)\b))")
_DIGIT = regex.compile(r"\d")
# A house number or a flat written before the street ("1987 74 Diakou Street", "Apt. 675 62314 Mellemvej 32").
_LEAD = regex.compile(r"(?<![\w.,:$€£/-])(?:(?i:apt|suite|unit|flat)\.?[ \t]*\d{1,5}[ \t]+)?\d{1,6}[ \t]+$")
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
                lead = _LEAD.search(text, text.rfind("\n", 0, m.start()) + 1, m.start())
                yield (lead.start() if lead else m.start()), m.end(), 0.8
                yield from self._following(text, m.end())
                yield from following(text, m.end())
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
