"""Suspects: words of a scrubbed case that look personal but were kept, for the SME to review.

The scrubber decides alone; this is the second look a person gives. Three kinds are marked:
- **name**: a capitalised word where people's names stand: after a greeting or an introduction ("Hi
  Sasha", "this is Priya", "I'm Dana", "Mr Lee", "manager Chen") or right beside a `<PERSON_n>`
  placeholder (a surname left after the given name was scrubbed);
- **number**: a run of 7 or more digits (an account, phone or badge number; years and amounts are shorter);
- **handle**: an `@handle`.

`redact` replaces one suspect everywhere in the case, whole words only, with one placeholder of its kind
(`<PERSON_3>`, the next free number, the same one for every occurrence).

The editor shows the SME the words themselves (they are in the case on the SME's screen anyway). Text
that leaves the machine about a case (a pull request's title and body) says where a suspect is and what
kind it is (`described`), and shows a mark where the word was (`masked`: `[suspect 1]`), never the word:
that text goes to the forge, its notifications and e-mails, and outlives a later commit that redacts the
word; the reviewer reads the word in the case file of the diff, at the field named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from promote.case.model import Case
from promote.case.problems import field_path
from promote.case.rules import PLACEHOLDER_RE
from promote.case.store import string_locations
from promote.case.yaml_io import case_json

_CAPITALISED = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?"
_CUES = (r"(?:hi|hello|hey|dear|thanks|thank you|cheers|regards|this is|i'm|i am|my name is|name is|"
         r"mr\.?|mrs\.?|ms\.?|dr\.?|manager|colleague|supervisor|ask|contact|cc)")
_AFTER_CUE = re.compile(rf"(?i:\b{_CUES})[,:]?\s+({_CAPITALISED})\b")
# Two patterns, not one alternation: in "Hi <PERSON_1> Whitlock" the greeting before the placeholder
# would take it, and the surname after it would go unseen.
_AFTER_PERSON = re.compile(rf"<PERSON_\w+>\s+({_CAPITALISED})\b")
_BEFORE_PERSON = re.compile(rf"\b({_CAPITALISED})(?=\s+<PERSON_\w+>)")
_CUE_WORD = re.compile(_CUES, re.IGNORECASE)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{8}")  # 2026-06-29, 20260629: dates, not ids
_NUMBER = re.compile(r"(?<![\w-])\d(?:[\d -]?\d){6,}(?![\w-])")
_HANDLE = re.compile(r"(?<![\w.])@[A-Za-z][\w.]{1,30}\w")
# Words a cue is often followed by that are not names.
_NOT_NAMES = {"The", "There", "Here", "This", "That", "Team", "All", "Everyone", "Again", "For", "About",
              "HR", "Payroll", "Support", "Please", "What", "How", "When", "Can", "Could", "Is", "It", "I"}
PLACEHOLDER_KIND = {"name": "PERSON", "number": "NUMBER", "handle": "HANDLE"}


@dataclass(frozen=True)
class Suspect:
    text: str
    kind: str
    """name, number or handle."""
    fields: tuple[str, ...]
    """Where the case holds it (`expected_output`, `expected_tools.calls[0].args.employee_id`)."""


def in_text(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of each suspect in one text."""
    found = []
    for match in _AFTER_CUE.finditer(text):
        if match.group(1) not in _NOT_NAMES:
            found.append((match.start(1), match.end(1), "name"))
    for match in [*_AFTER_PERSON.finditer(text), *_BEFORE_PERSON.finditer(text)]:
        word = match.group(1)
        if word not in _NOT_NAMES and not _CUE_WORD.fullmatch(word):  # "Hi <PERSON_1>" is a greeting
            found.append((match.start(1), match.end(1), "name"))
    found += [(m.start(), m.end(), "number") for m in _NUMBER.finditer(text)
              if not _DATE.fullmatch(m.group())]
    found += [(m.start(), m.end(), "handle") for m in _HANDLE.finditer(text)]
    inside = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(text)]
    return sorted({(s, e, k) for s, e, k in found if not any(a <= s < b for a, b in inside)})


def find(case: Case) -> list[Suspect]:
    """Every suspect of the case, with the fields holding it (provenance is left out: ids, not words)."""
    places: dict[tuple[str, str], list[str]] = {}
    for location, text in string_locations({k: v for k, v in case_json(case).items() if k != "provenance"}):
        for start, end, kind in in_text(text):
            places.setdefault((text[start:end], kind), []).append(field_path(location))
    return [Suspect(text, kind, tuple(dict.fromkeys(fields))) for (text, kind), fields in places.items()]


def described(suspect: Suspect) -> str:
    """`a name (4 letters) in expected_output, title`: where and what, without the word (fail closed)."""
    count = sum(char.isalnum() for char in suspect.text)
    unit = {"name": "letter", "number": "digit", "handle": "character"}[suspect.kind]
    # A field path names the keys it goes through (`metadata.<key>`): one holding the word is masked too.
    word = re.compile(re.escape(suspect.text), re.IGNORECASE)
    where = ", ".join(word.sub("<key>", path) for path in suspect.fields)
    return f"a {suspect.kind} ({count} {unit}{'s' if count != 1 else ''}) in {where}"


def marks(found: Iterable[Suspect]) -> dict[str, str]:
    """One mark per suspect word, numbered in the order found: `{"Whitlock": "[suspect 1]"}`."""
    words = dict.fromkeys(suspect.text for suspect in found)
    return {word: f"[suspect {number}]" for number, word in enumerate(words, start=1)}


def masked(text: str, marked: dict[str, str]) -> str:
    """`text` with each suspect word replaced by its mark: in any case, and as a part of an identifier
    too (`hr.whitlock_001` holds the name as much as a sentence does: `_`, `.`, `-` end a word here), but
    not inside a longer word (a suspect `Al` leaves `balance` as it is), longest words first. Fail
    closed: a word masked too often costs a reviewer a look at the diff; one left would leave with the
    text."""
    if not marked:
        return text
    by_lower = {}
    for word, mark in marked.items():
        by_lower.setdefault(word.lower(), mark)
    words = sorted(by_lower, key=len, reverse=True)
    # One pass: a mark put in is never read again as text.
    alternatives = "|".join(map(re.escape, words))
    pattern = re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])", re.IGNORECASE)
    return pattern.sub(lambda match: by_lower[match.group().lower()], text)


def redact(case: Case, suspect: Suspect) -> tuple[Case, str]:
    """The case with `suspect` replaced everywhere by one placeholder of its kind; and that placeholder."""
    data = case_json(case)
    kind = PLACEHOLDER_KIND[suspect.kind]
    used = [int(m.group(1)) for m in re.finditer(rf"<{kind}_(\d+)>", str(data))]
    placeholder = f"<{kind}_{max(used, default=0) + 1}>"
    word = re.compile(rf"(?<![\w@]){re.escape(suspect.text)}(?!\w)")
    provenance = data.pop("provenance", None)
    data = _replace(data, word, placeholder)
    if provenance is not None:
        data["provenance"] = provenance
    return Case.model_validate(data), placeholder


def _replace(node: Any, word: re.Pattern, placeholder: str) -> Any:
    if isinstance(node, dict):
        return {key: _replace(value, word, placeholder) for key, value in node.items()}
    if isinstance(node, list):
        return [_replace(value, word, placeholder) for value in node]
    return word.sub(placeholder, node) if isinstance(node, str) else node


