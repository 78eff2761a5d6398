"""Cards, IBANs and phone numbers as they are written around the world.

- **Cards**: any 12-19 digit run (spaces or dashes between groups) after a card word ("my card
  4131034282458809939", "card number 630427373398 is lost"); and every Luhn-valid 13-19 digit run, except
  one that reads as a Unix time in seconds to nanoseconds (trace timestamps are such runs).
- **IBANs** in any case and grouping ("gb42nawi…"), checked by their mod-97 digits.
- **Phones**: E.164 numbers ("+358 40 123 4567") anywhere, validated by `phonenumbers`; national
  numbers of the policy's regions when written as phones (a leading 0 or "(", "0494 92 82 32",
  "(37) 788-063") or after a phone word ("call me at ...", "not answering at ...", "messages to ...") or
  before a label ("781 1704 office", "3660170548-Fax"), with an extension ("x0135", "ext. 55").
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import phonenumbers
import regex

from scrubbers.recognizers.base import Found, OwnRecognizer

_CARD_CUE = regex.compile(
    r"(?i:\b(?:card|cc|visa|mastercard|master\s+card|amex|american\s+express|discover|maestro|jcb|diners|"
    r"unionpay|debit|credit|pan|pay(?:s|ing)?[ \t]+(?:by|with|using)|paid[ \t]+(?:by|with|using)|"
    r"charge[ds]?[ \t]+(?:it[ \t]+)?to)\b(?:[ \t]+[\w\#.]+){0,4}?[ \t]*[:=\#]?[ \t]*)"
    r"(?P<num>\d(?:[ -]?\d){11,18}|\d{4}(?:\.\d{4}){2,3}(?:\.\d{1,3})?)(?![\d-])")  # or in fours with dots
_DIGIT_RUN = regex.compile(r"(?<![\w.-])\d(?:[ -]?\d){12,18}(?![\w-]|\.\d)")
# Unbroken, or grouped in fours with single spaces ("GB82 WEST 1234 5698 7654 32").
_IBAN = regex.compile(r"(?<![\w])(?P<iban>[A-Za-z]{2}\d{2}(?:[A-Za-z0-9]{11,30}|"
                      r"[A-Za-z0-9]{2}(?: [A-Za-z0-9]{4}){2,7}"
                      r"(?: [A-Za-z0-9]{1,4})?|(?: [A-Za-z0-9]{4}){3,7}(?: [A-Za-z0-9]{1,4})?))(?![\w])")
_IPV4 = regex.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_PHONE_CUE = regex.compile(
    r"(?i:\b(?:call|phone|tel|telephone|mobile|cell|cellphone|whatsapp|sms|text|fax|ring|reach|contact|"
    r"handy|telefon|téléphone|teléfono|telefone|portable|móvil|answering|answers|messages?|texts?|sms|"
    r"voicemail|registered|desk|landline|cel|celular|my\s+line|direct\s+line)\b"
    r"|휴대폰|전화|연락처|手机|电话|電話|携帯|телефон|هاتف|جوال)")
# A contact line names its number after it: "781 1704 office", "3660170548-Fax", "082 490 1693 (mobile)".
_LABEL_AFTER = regex.compile(r"[ \t]*[-–(]?[ \t]*(?i:office|fax|mobile|mob|home|work|cell|desk|direct|tel|"
                             r"phone|landline|whatsapp)\b")
# "my number is ...", "your mobile no: ...": a possessive, an optional phone word, then "number" right
# before the value (not "case number", "order number": those are not the speaker's own number).
_NUMBER_CUE = regex.compile(
    r"(?i:\b(?:my|your|his|her|our|their)[ \t]+(?:(?:phone|mobile|cell|contact|callback|call-back|telephone|"
    r"home|work|office|direct|whatsapp|landline)[ \t]+)?(?:number|no\.?|\#)(?:[ \t]+is(?:[ \t]+now)?|"
    r"[ \t]*[:=])?"
    r"[ \t]*)$")
# A closing line ("Kind regards"), after which a signature block's bare number is a phone.
_CLOSING = regex.compile(r"(?i)\b(?:regards|best|cheers|thanks|thank\s+you|sincerely|yours|"
                         r"take\s+care)\b[ \t,.!]*$")
# the number may run into its label ("(37) 788-063-Office") or extension ("x0135"), not into other words;
# not a time's seconds ("09:15:02.331207       1" in a log line: a digit and a colon before it)
_PHONE = regex.compile(r"(?<![\w+.-])(?<!\d:)(?P<phone>\(?(?:\+|00)?\(?\d[\d \t().-]{5,20}\d)"
                       r"(?!(?!(?i:x\d|ext\b))\w|\.\d|-(?!(?i:office|fax|mobile|home|work|cell|desk)\b))")
# "030 / 1234 5678", "089/123 456 78": an area code, a slash, the number (German and Austrian writing); taken
# only after a phone word, as dates and fractions are written with slashes too
_SLASHED = regex.compile(r"(?<![\w+./-])(?P<phone>0\d{1,5}[ \t]?/[ \t]?\d[\d \t-]{3,12}\d)(?![\w/-]|\.\d)")
_OFFICE_WORD = regex.compile(r"(?i:\b(?:büro|buero|office|oficina|bureau|escritório|ufficio|kantoor)\b)")
_EXTENSION = regex.compile(r"[ \t]*(?i:x|ext\.?|extension)[ \t]*\d{1,6}(?!\w)")
# a number told in words, as a voice agent's transcript writes it ("oh seven seven double oh nine ..."):
# seven digits or more in a run of digit words ("double"/"triple" repeat the next one)
_DIGIT_NAME = r"(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine)"
_DIGIT_WORD = rf"(?:(?:double|triple)[ \t]+)?{_DIGIT_NAME}"
_SPOKEN_NUMBER = regex.compile(
    rf"(?i)(?<![\w-]){_DIGIT_WORD}(?:[ \t]*[,-]?[ \t]+{_DIGIT_WORD}){{5,}}(?![\w-])")
_SPOKEN_DIGITS = regex.compile(rf"(?i)\b(?:(?P<times>double|triple)[ \t]+)?{_DIGIT_NAME}\b")
# the cheap test first: two digit words in a row
_TWO_DIGIT_WORDS = regex.compile(rf"(?i)\b(?:double|triple|{_DIGIT_NAME})[ \t]*[,-]?[ \t]+{_DIGIT_NAME}\b")
# Unix times from 2000 to 2040, in seconds to nanoseconds: trace timestamps are digit runs too.
_EPOCH_RANGES = [(946_684_800 * 10 ** e, 2_208_988_800 * 10 ** e) for e in (3, 6, 9)]


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_valid(iban: str) -> bool:
    iban = iban.replace(" ", "").upper()
    if not (15 <= len(iban) <= 34) or not iban[:2].isalpha() or not iban[2:4].isdigit():
        return False
    moved = iban[4:] + iban[:4]
    number = "".join(str(int(ch, 36)) for ch in moved)
    return int(number) % 97 == 1


def _is_epoch(digits: str) -> bool:
    value = int(digits)
    return any(low <= value <= high for low, high in _EPOCH_RANGES)


class InternationalValueRecognizer(OwnRecognizer):
    """CREDIT_CARD, IBAN_CODE and PHONE_NUMBER in the forms of the module docstring."""

    ENTITIES = ("CREDIT_CARD", "IBAN_CODE", "PHONE_NUMBER")
    NAME = "international values"

    def __init__(self, *, regions: list[str], cards_after_cue: tuple[int, int] = (12, 19), luhn: bool = True,
                 iban: bool = True, phones: bool = True) -> None:
        self.regions = [r.upper() for r in regions] or ["US"]
        self.cue_digits = cards_after_cue
        self.luhn, self.iban, self.phones = luhn, iban, phones
        super().__init__()

    def find(self, text: str, wanted: frozenset[str]) -> Iterator[Found]:
        if "CREDIT_CARD" in wanted:
            yield from (("CREDIT_CARD", s, e, score) for s, e, score in self._cards(text))
        if self.iban and "IBAN_CODE" in wanted:
            yield from (("IBAN_CODE", m.start("iban"), m.end("iban"), 0.9)
                        for m in _IBAN.finditer(text) if iban_valid(m.group("iban")))
        if self.phones and "PHONE_NUMBER" in wanted:
            yield from (("PHONE_NUMBER", s, e, score) for s, e, score in self._phones(text))
            yield from (("PHONE_NUMBER", s, e, score) for s, e, score in self._phone_parts(text))

    def _cards(self, text: str) -> Iterator[tuple[int, int, float]]:
        low, high = self.cue_digits
        for m in _CARD_CUE.finditer(text):
            digits = m.group("num").replace(" ", "").replace("-", "").replace(".", "")
            if low <= len(digits) <= high:
                yield m.start("num"), m.end("num"), 0.9
        if self.luhn:
            for m in _DIGIT_RUN.finditer(text):
                digits = m.group().replace(" ", "").replace("-", "")
                if 13 <= len(digits) <= 19 and luhn_valid(digits) and not _is_epoch(digits):
                    yield m.start(), m.end(), 0.8

    def _phones(self, text: str) -> Iterator[tuple[int, int, float]]:
        for m in _PHONE.finditer(text):
            raw = m.group("phone").strip(" \t.-")
            if _IPV4.fullmatch(raw):
                continue
            digits = sum(ch.isdigit() for ch in raw)
            if not 6 <= digits <= 15:
                continue
            start = m.start("phone") + (len(m.group("phone")) - len(m.group("phone").lstrip(" \t")))
            end = start + len(raw)
            extension = _EXTENSION.match(text, end)  # "(898)666-3621x0135", "... ext. 55": the line's digits
            end = extension.end() if extension else end
            international = raw.lstrip("(")
            if international.startswith(("+", "00")):
                if international.startswith("00"):
                    international = "+" + international[2:]
                written = international.replace(")", " ", 1) if raw.startswith("(") else international
                if self._valid(written, None, possible=True):
                    yield start, end, 0.85
                continue
            if digits < 7:
                continue
            cued = bool(_PHONE_CUE.search(text, max(0, start - 25), start) or _LABEL_AFTER.match(text, end))
            shaped = raw.startswith(("0", "(")) and any(not ch.isdigit() for ch in raw.strip("()"))
            # after a phone word 7-15 digits are enough; a bare "0..." or "(..." must be valid somewhere
            if cued or (shaped and self._valid_somewhere(raw)):
                yield start, end, 0.75 if cued else 0.6
            elif ((_NUMBER_CUE.search(text, max(0, start - 40), start)
                   or self._signature_line(text, start, end))
                  and (self._valid_somewhere(raw) or self._possible_somewhere(raw))):
                yield start, end, 0.7

    @staticmethod
    def _phone_parts(text: str) -> Iterator[tuple[int, int, float]]:
        """A number `_PHONE` does not read: told in words, or a slashed area code after a phone or office
        word. (An extension alone stays: "the Benefits hotline at extension 4100" is a desk of the company,
        not a person's.)"""
        if _TWO_DIGIT_WORDS.search(text):
            for m in _SPOKEN_NUMBER.finditer(text):
                digits = sum({"double": 2, "triple": 3}.get((d.group("times") or "").lower(), 1)
                             for d in _SPOKEN_DIGITS.finditer(m.group()))
                if digits >= 7:
                    yield m.start(), m.end(), 0.7
        if "/" in text:
            for m in _SLASHED.finditer(text):
                before = text[max(0, m.start() - 25):m.start()]
                if _PHONE_CUE.search(before) or _OFFICE_WORD.search(before):
                    yield m.start("phone"), m.end("phone"), 0.75

    @staticmethod
    def _signature_line(text: str, start: int, end: int) -> bool:
        """The number is a line of its own within three lines after a closing ("Kind regards")."""
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        if text[line_start:start].strip(" \t:") or text[end:line_end].strip(" \t.,"):
            return False
        before = text[:line_start].rstrip("\n").split("\n")[-3:]
        return any(_CLOSING.search(line.strip()) for line in before)

    @lru_cache(maxsize=4096)
    def _possible_somewhere(self, raw: str) -> bool:
        return any(self._valid(raw, region, possible=True) for region in self.regions)

    @lru_cache(maxsize=4096)
    def _valid_somewhere(self, raw: str) -> bool:
        return any(self._valid(raw, region) for region in self.regions)

    @staticmethod
    def _valid(raw: str, region: str | None, possible: bool = False) -> bool:
        try:
            number = phonenumbers.parse(raw, region)
        except phonenumbers.NumberParseException:
            return False
        return phonenumbers.is_possible_number(number) if possible else phonenumbers.is_valid_number(number)
