"""E-mail addresses written so that they do not read as one, the way people write them in chat to keep
them from bots: "jdoe42 at example dot com", "jdoe42 [at] example [dot] com", "jdoe42(at)example(dot)com",
"j dot doe at example dot org", "jdoe42 @ example . com".

The whole written-out address is one `EMAIL_ADDRESS`. An address as Presidio reads it (no spaces, no
brackets) is left to Presidio's recognizer. The last label must be a public suffix (tldextract's bundled
list). Where "at" is a plain word, an e-mail word shortly before will do ("my email is jdoe at
example.com"); without one, a dot must be spelled out too and the mailbox look like one (a digit, `.`,
`_`, `+` or `-` in it). So "stay at home dot com", "log in at portal.acme.com", "release v2.1 at
docs.example.com" and "meet at 5 dot 30" stay.
"""

from __future__ import annotations

import regex
import tldextract.tldextract as tld_module

from scrubbers.trace_state.email_forms import DOT_WORD, GATE, WRITTEN
from scrubbers.recognizers.base import OneEntityRecognizer

ENTITY = "EMAIL_ADDRESS"
SCORE = 0.85
_LAST_LABEL = regex.compile(r"[\p{L}\p{N}-]+$")
_MAILBOX_MARK = regex.compile(r"[\d._+-]|\bdot\b", regex.IGNORECASE)
_SPELLED_DOT = regex.compile(rf"(?i){DOT_WORD}")
_CUE = regex.compile(r"(?i)\b(?:e-?mail|mail|contact|reach|write|address|inbox|mailbox)\b[^.!?\n]{0,30}$")


class SpelledEmailRecognizer(OneEntityRecognizer):
    """`EMAIL_ADDRESS` written out with "at" and "dot" or with spaces and brackets (module docstring)."""

    ENTITY = ENTITY
    NAME = "spelled-out e-mail"

    def __init__(self) -> None:
        self.suffixes = frozenset(s.lower() for s in tld_module.TLD_EXTRACTOR.tlds if "." not in s)
        super().__init__()

    def spans(self, text: str) -> list[tuple[int, int, float]]:
        if GATE.search(text) is None:
            return []
        # overlapped: "reach me at j.doe42{at}..." first matches "me at j.doe42", which is no address
        return [(m.start(), m.end(), SCORE) for m in WRITTEN.finditer(text, overlapped=True)
                if self._address(text, m)]

    def _address(self, text: str, m: regex.Match) -> bool:
        written = m.group()
        if not any(ch.isspace() or ch in "[](){}<>" for ch in written):
            return False  # an address as Presidio's recognizer reads it: its match
        if _LAST_LABEL.search(m.group("domain")).group().lower() not in self.suffixes:
            return False
        if m.group("at").strip().lower() != "at":  # "@", "[at]", "(at)": written as an address on purpose
            return True
        if _CUE.search(text, 0, m.start()) is not None:
            return True
        # a plain "at": a spelled-out dot and a mailbox-like name ("available at docs.example.com" and
        # "release v2.1 at docs.example.com" are hosts)
        return _SPELLED_DOT.search(written) is not None and _MAILBOX_MARK.search(m.group("box")) is not None
