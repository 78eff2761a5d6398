"""What a text says once its disguises are taken off: the view detection runs on, mapped back to the text.

A personal value can be written so that no recognizer sees it: zero-width or bidi characters inside a
name or a number, fullwidth digits, Cyrillic letters that look Latin, literal `\\u0047` escapes, `%40`
for `@`, `+` for a space in a URL query, HTML references (`&#71;`, `&commat;`), a fake placeholder
wrapping it (`<GREGORY_HALLMAN>`, `<SSN_512447723>`), letter by letter (`G r e g o r y   H a l l m a n`),
or base64. Detection runs on the *view* (each disguise taken off), and every span it finds is mapped back
to the characters of the original it came from, so the original is what gets replaced (normalise before
detection, replace in the original). A base64 token that decodes to text is scanned as that text, and
redacted whole on a hit.
"""

from __future__ import annotations

import base64
import binascii
import html
import json
import unicodedata
import urllib.parse
from typing import NamedTuple

import regex

from scrubbers.trace_state.context import PLACEHOLDER

# soft hyphen, Mongolian vowel separator, zero-width and joiners, bidi embeddings/overrides/isolates, BOM
_INVISIBLE = "\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
_INVISIBLE_CHARS = regex.compile(f"[{_INVISIBLE}]+")
_EXTRA_BACKSLASHES = regex.compile(r"\\+u")
# what a value written letter by letter is made of: letters, digits and the marks of e-mails and numbers
_SPACED = r"[\p{L}\p{N}@._+()/:'-]"
_DISGUISE = regex.compile(
    # literal \uXXXX escapes, escaped again or not (a run: surrogate pairs decode together)
    r"(?P<u>(?:\\+u[0-9a-fA-F]{4})+)"
    r"|(?P<pct>(?:%[0-9A-Fa-f]{2})+)"  # URL-encoded bytes
    # HTML character references, by number or name (`&#71;regory`, `&lt;greg@…&gt;`)
    r"|(?P<ent>(?:&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)+)"
    # a "+" between letters in the value of a URL query (a space there, by the form encoding), unless
    # an e-mail's "@" follows in the value (`?to=greg+hr@acme.com` is one address); before a digit it is
    # read as written, since unencoded phone numbers (`?q=+44 20 …`) keep theirs
    r"|(?P<plus>(?<=[?&][\w.%-]+=[^\s&#\"'<>=]*\p{L})\+(?=\p{L})(?![^\s&#\"'<>]*(?:@|%40)))"
    # a quote escaped once or more (JSON text inside a JSON string): `\"Gregory Hallman\"` reads as quoted
    r'|(?P<quote>\\+")'
    rf"|(?P<inv>[{_INVISIBLE}]+)"
    # a placeholder-looking wrapper, underscores for the value's spaces and punctuation (`<_415__555_0134>`)
    r"|(?P<fake><(?P<inner>_*[\p{Lu}\d][\p{L}\p{N}]*(?:_+[\p{L}\p{N}]+)*_*)>)"
    # a value written letter by letter, its words set apart by wider gaps ("G r e g o r y   H a l l m a n")
    rf"|(?P<spaced>(?<![\p{{L}}\p{{N}}]){_SPACED}(?: {_SPACED})+(?: {{2,3}}{_SPACED}(?: {_SPACED})*)*"
    r"(?![\p{L}\p{N}]))"
    r"|(?P<other>[^\x00-\x7f])"  # anything else outside ASCII: NFKC, confusables
)
_SUSPECT = regex.compile(rf"\\u|\\+\"|%[0-9A-Fa-f]{{2}}|[^\x00-\x7f]|<_*[\p{{Lu}}\d]"
                         r"|&#?[A-Za-z0-9]+;|=[^\s&]*\+"
                         rf"|(?<![\p{{L}}\p{{N}}])[\p{{L}}\p{{N}}] {_SPACED} {_SPACED}(?![\p{{L}}\p{{N}}])")
# Our own placeholders are never a disguise: `OWN_PLACEHOLDER` is the engine's one rule for them.
OWN_PLACEHOLDER = PLACEHOLDER
# A base64 candidate: a token of 8+ base64 characters with a digit, symbol or padding and two capitals in it
# (the lookaheads cannot leave the token), so that words and hex ids are not even tried. Base64 of digits
# and spaces (a card number) holds no digit of its own: its padding gives it away. A token may follow an
# "=": `key=value` pairs, URL queries and trace states put values there.
_B64 = regex.compile(r"(?<![A-Za-z0-9+/_-])(?=[A-Za-z0-9+/_-]*[0-9+/_=-])"
                     r"(?=[a-z0-9+/_-]*[A-Z][A-Za-z0-9+/_-]*[A-Z])"
                     r"[A-Za-z0-9+/_-]{8,}={0,2}(?![A-Za-z0-9+/=_-])")
_LATIN_WORD = regex.compile(r"\w*[a-zA-Z]\w*")

# Letters of other scripts drawn like Latin ones (Cyrillic, Greek): folded inside words that hold Latin
# letters too ("Mаple" with a Cyrillic а), never in a word of their own script.
_CONFUSABLES = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l", "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M",
    "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "Ү": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "Α": "A", "Β": "B",
    "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T",
    "Υ": "Y", "Χ": "X",
})
_CONFUSABLE_CHARS = frozenset(chr(code) for code in _CONFUSABLES)


class Decoded(NamedTuple):
    """A token of the original read another way: base64 and the text it decodes to, or a
    placeholder-looking wrapper with the punctuation its underscores stand for. It is scanned as text
    of its own, and a hit redacts the token whole."""

    start: int
    end: int
    text: str


class View(NamedTuple):
    """A text with its disguises taken off, and where each of its characters came from."""

    text: str
    """What detection reads."""
    begin: list[int] | None
    """Original index where view character i starts (None: the view is the original)."""
    end: list[int] | None
    """Original index where view character i ends."""
    decoded: list[Decoded]
    """Tokens of the original read another way (see `Decoded`)."""

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original characters a view span [start, end) came from."""
        if self.begin is None or self.end is None or end <= start:
            return start, end
        return self.begin[start], self.end[end - 1]


def reading_of(text: str) -> str:
    """What `text` reads as, its disguises taken off: `view_of(text).text`, without looking for base64
    in a text that holds no disguise (it reads as itself)."""
    return text if _SUSPECT.search(text) is None else view_of(text).text


def view_of(text: str) -> View:
    """The view of `text` (the text itself, without copying, when it holds no disguise)."""
    decoded = _base64_tokens(text)
    if _SUSPECT.search(text) is None:
        return View(text, None, None, decoded)
    out = _Pieces()
    emit = out.read_as
    position = 0
    for match in _DISGUISE.finditer(text):
        if match.start() > position:  # plain ASCII: one character each
            out.as_is(text[position:match.start()], position)
        start, stop = match.span()
        kind = match.lastgroup
        if kind == "u":  # what an escape decodes to is read like raw text: "\u200b" is invisible too
            emit(_readable(_unescape(match.group())), start, stop)
        elif kind == "pct":
            emit(_readable(urllib.parse.unquote(match.group(), errors="replace")), start, stop)
        elif kind == "ent":
            emit(_readable(html.unescape(match.group())), start, stop)
        elif kind == "plus":
            emit(" ", start, stop)
        elif kind == "spaced":
            _emit_spaced(match.group(), start, out)
        elif kind == "quote":
            emit('"', start, stop)
        elif kind == "inv":
            pass  # dropped: "Gre\u200bgory" reads "Gregory"
        elif kind == "fake":
            if OWN_PLACEHOLDER.fullmatch(match.group()):
                emit(match.group(), start, stop)
            else:  # <GREGORY_HALLMAN> reads " Gregory Hallman ", <SSN_512447723> " Ssn 512447723 ";
                # a value found in it takes the whole wrapper with it
                words = [word for word in match.group("inner").split("_") if word]
                joined = words[0].capitalize()
                # E_88645 reads "E-88645", GREG_HALLMAN "Greg Hallman"
                for before, word in zip(words, words[1:]):
                    glue = "-" if before[-1:].isalpha() and word[:1].isdigit() else " "
                    joined += glue + word.capitalize()
                emit(f" {joined} ", start, stop)
                decoded += [Decoded(start, stop, reading) for reading in _punctuated(match.group("inner"))]
        else:
            emit(unicodedata.normalize("NFKC", match.group()), start, stop)
        position = stop
    if position < len(text):
        out.as_is(text[position:], position)
    folded = _fold_confusables("".join(out.pieces))
    if folded == text:
        return View(text, None, None, decoded)
    return View(folded, out.begin, out.end, decoded)


class _Pieces:
    """A view being built: its pieces, and the original characters each of its characters came from."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.begin: list[int] = []
        self.end: list[int] = []

    def as_is(self, piece: str, start: int) -> None:
        """Characters of the original at `start`, each read as itself."""
        self.pieces.append(piece)
        self.begin.extend(range(start, start + len(piece)))
        self.end.extend(range(start + 1, start + len(piece) + 1))

    def read_as(self, piece: str, start: int, stop: int) -> None:
        """What the original's [start, stop) reads: each character of it comes from all of them."""
        self.pieces.append(piece)
        self.begin.extend([start] * len(piece))
        self.end.extend([stop] * len(piece))


SPACED_MIN_CHARS = 4
"""The fewest letters and digits a run written letter by letter must hold to be read joined."""


def _emit_spaced(run: str, start: int, out: _Pieces) -> None:
    """A run written letter by letter, read as its characters joined and each wider gap as one space; each
    view character comes from its own character of the run. A short run ("a b c") is read as written."""
    if sum(ch.isalnum() for ch in run) < SPACED_MIN_CHARS:
        out.as_is(run, start)
        return
    for gap in regex.finditer(r"[^ ]+| {2,}", run):
        if gap.group().startswith(" "):
            out.read_as(" ", start + gap.start(), start + gap.end())
        else:
            out.as_is(gap.group(), start + gap.start())


def _punctuated(inner: str) -> list[str]:
    """A wrapper's inner words joined by the punctuation the underscores may stand for: `<10_20_30_40>`
    an IP address, `<_44_20_7946_0958>` "+44 20 7946 0958", `<_HOME_GHALLMAN_APP>` a path,
    `<SK_PROJ_4F9A…>` a key."""
    words = [word.lower() for word in inner.split("_") if word]
    if len(words) < 2:
        return []
    readings = [".".join(words), "-".join(words)]
    if inner.startswith("_"):
        readings.append("/" + "/".join(words))
        if words[0].isdigit():
            readings.append("+" + " ".join(words))
    return readings


def _readable(decoded: str) -> str:
    """Decoded escapes as raw characters are read: invisible ones dropped, compatibility forms folded."""
    return unicodedata.normalize("NFKC", _INVISIBLE_CHARS.sub("", decoded))


def _unescape(run: str) -> str:
    try:
        once = _EXTRA_BACKSLASHES.sub(r"\\u", run)
        return json.loads(f'"{once}"').encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    except (ValueError, UnicodeError):
        return run


def _fold_confusables(text: str) -> str:
    if text.isascii() or _CONFUSABLE_CHARS.isdisjoint(text):
        return text
    return _LATIN_WORD.sub(lambda word: word.group().translate(_CONFUSABLES), text)


def _base64_tokens(text: str) -> list[Decoded]:
    """Tokens of `text` that are base64 (standard or URL-safe) of readable text."""
    found = []
    for match in _B64.finditer(text):
        token = match.group()
        if not _looks_encoded(token):
            continue
        decoded = decode_base64_text(token)
        if decoded is not None:
            found.append(Decoded(match.start(), match.end(), decoded))
    return found


def _looks_encoded(token: str) -> bool:
    # Words and hex ids are base64-alphabet too: an encoded text mixes upper and lower case and digits
    # or padding, and its length fits the padding.
    body = token.rstrip("=")
    if len(body) % 4 == 1:
        return False
    if token.endswith("=") and len(token) % 4 == 0:
        # padded to a whole number of quads: words and ids are not (digits encode to few lowercase)
        return True
    upper = sum(1 for ch in body if ch.isupper())
    lower = sum(1 for ch in body if ch.islower())
    return upper >= 2 and lower >= 2 and (
        token.endswith("=") or any(ch.isdigit() or ch in "+/_-" for ch in body))


def decode_base64_text(token: str) -> str | None:
    """The text a base64 token encodes, when it encodes readable UTF-8 text; else None."""
    padded = token + "=" * (-len(token) % 4)
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            raw = decode(padded.replace("-", "+").replace("_", "/") if decode is base64.b64decode else padded)
            text = raw.decode("utf-8")
        except (binascii.Error, ValueError, UnicodeDecodeError):
            continue
        printable = sum(1 for ch in text if ch.isprintable() or ch in "\n\t")
        if len(text) >= 3 and printable == len(text) and sum(ch.isalnum() for ch in text) * 2 >= len(text):
            return text
    return None
