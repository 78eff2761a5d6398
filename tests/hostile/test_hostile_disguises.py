"""A personal value is removed however it is written, by `scrub`, `traces --json` and `draft` alike.

Each row writes the values in one disguise (issue 11: literal `\\u` escapes, base64, zero-width and bidi
characters, fullwidth digits, Cyrillic confusables, URL encoding, `+` for spaces in a URL query, HTML
character references, fake placeholders, e-mails spelled out, letters spaced out)
into the user's message of a real ADK fixture trace (at every level of JSON escaping it sits at), and
checks that no form of them is left in what each command writes, while ids, times, tool names and figures
stay.
"""

from __future__ import annotations

import base64
import json
import urllib.parse
from pathlib import Path

import pytest

from corpora.planting import VALUES, leaked, output_text, scrub_all
from promote.draft import DraftOptions, draft_from_export
from promote.draft.export import draft_text
from promote.errors import PromoteError
from promote.ingest import Record, open_export, write_export
from promote.listing import list_traces
from promote.source import scrub_trace
from tests.conftest import TRACES

SOURCE = TRACES / "adk2.otlp.jsonl"
TRACE = "6ba1f49a4e0b98a257a16cb62edefd94"
PHRASE = "If I do not use all my PTO this year"


def _zero_width(value: str) -> str:
    return value[:1] + "\u200b" + value[1:len(value) // 2] + "\u200d" + value[len(value) // 2:]


def _fullwidth(value: str) -> str:
    return "".join(chr(ord(ch) - ord("0") + 0xFF10) if ch.isdigit() else ch for ch in value)


def _confusable(value: str) -> str:
    return value.translate(str.maketrans({"a": "а", "e": "е", "o": "о", "p": "р", "c": "с"}))


DISGUISES = {
    "literal \\u escapes": (lambda v: "".join(f"\\u{ord(ch):04x}" for ch in v), ("name", "email", "ssn")),
    "base64 of a short value": (lambda v: base64.b64encode(v.encode()).decode(), ("name", "email", "ssn")),
    "base64 after an equals sign": (lambda v: "ref=" + base64.b64encode(v.encode()).decode(),
                                    ("name", "email", "ssn", "card")),
    "zero-width characters inside": (_zero_width, ("name", "email", "phone", "ssn", "card")),
    "bidi controls inside": (lambda v: "\u2066" + v[:3] + "\u202e" + v[3:] + "\u2069", ("name", "email")),
    "fullwidth digits": (_fullwidth, ("phone", "ssn", "card")),
    "Cyrillic confusables": (_confusable, ("address", "email")),
    "URL-encoded": (urllib.parse.quote, ("email", "address")),
    "fake placeholder": (lambda v: "<" + v.upper().replace(" ", "_").replace("-", "") + ">", ("name",)),
    "number wrapped as a placeholder": (lambda v: "<SSN_" + v.replace("-", "") + ">", ("ssn",)),
    # how people write an address in chat to keep it from bots
    "an e-mail spelled out": (lambda v: v.replace("@", " at ").replace(".", " dot "), ("email",)),
    "an e-mail with bracketed at and dot": (lambda v: v.replace("@", " [at] ").replace(".", " [dot] "),
                                            ("email",)),
    "an e-mail with spaces around @ and its dots": (lambda v: v.replace("@", " @ ").replace(".", " . "),
                                                    ("email",)),
    # a page or e-mail body rendered to HTML, and a search URL built from a form
    "HTML decimal references": (lambda v: "".join(f"&#{ord(ch)};" for ch in v), ("name", "email", "ssn")),
    "HTML hex references": (lambda v: "".join(f"&#x{ord(ch):x};" for ch in v), ("name", "phone")),
    "HTML named references": (lambda v: v.replace("@", "&commat;").replace(".", "&period;"), ("email",)),
    "a URL query with + for spaces": (
        lambda v: "https://hr.acme-retail.com/people?name=" + v.replace(" ", "+") + "&view=full", ("name",)),
    # letter by letter, to keep a value from filters: "G r e g o r y   H a l l m a n"
    "letters spaced out": (lambda v: "   ".join(" ".join(word) for word in v.split()),
                           ("name", "email", "phone", "ssn", "employee_id")),
    # what the fuzz test found: "(415) 555-0134" as `<_415__555_0134>` (leading and doubled underscores)
    "a placeholder with underscores for punctuation": (
        lambda v: "<" + "".join(ch if ch.isalnum() else "_" for ch in v).upper() + ">",
        ("phone", "email", "ssn", "card", "employee_id")),
}


def _plant(text: str, addition: str) -> str:
    """`addition` after PHRASE, at whatever level of JSON-in-a-string the phrase sits."""
    if PHRASE not in text:
        return text
    stripped = text.strip()
    if stripped[:1] in "{[":
        try:
            decoded = json.loads(stripped)
        except ValueError:
            decoded = None
        if isinstance(decoded, (dict, list)):
            return json.dumps(_walk(decoded, addition), ensure_ascii=False)
    return text.replace(PHRASE, PHRASE + addition)


def _walk(value: object, addition: str) -> object:
    if isinstance(value, str):
        return _plant(value, addition)
    if isinstance(value, list):
        return [_walk(item, addition) for item in value]
    if isinstance(value, dict):
        return {key: _walk(item, addition) for key, item in value.items()}
    return value


def write_planted(target: Path, addition: str) -> None:
    export = open_export(SOURCE)
    records = []
    for item in export.records():
        if isinstance(item, Record):
            changes = [(path, _plant(slot.value, addition), slot.form) for slot, path in export.slots(item)
                       if isinstance(slot.value, str) and _plant(slot.value, addition) != slot.value]
            records.append(export.rewrite(item, changes))
    write_export(records, target, format=export.format, compression=None)


def carriers(row: str) -> dict[str, str]:
    disguise, kinds = DISGUISES[row]
    return {kind: disguise(VALUES[kind]) for kind in kinds}


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("disguised")
    made = {}
    for number, row in enumerate(DISGUISES):
        addition = "".join(f" Also {carrier} ({kind})." for kind, carrier in carriers(row).items())
        made[row] = folder / f"disguise{number:02d}.otlp.jsonl"
        write_planted(made[row], addition)
    return made


@pytest.fixture(scope="module")
def scrubbed(planted: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return scrub_all(planted, tmp_path_factory.mktemp("disguised-scrubbed"))


def _assert_planted(path: Path, row: str) -> dict[str, str]:
    values = {kind: VALUES[kind] for kind in carriers(row)}
    text = output_text(path)
    assert all(carrier.casefold() in text.casefold() or carrier.encode("unicode_escape").decode() in text
               for carrier in carriers(row).values()), f"{row}: nothing planted"
    return values


@pytest.mark.parametrize("row", DISGUISES)
def test_scrub_removes_every_disguise(planted, scrubbed, row: str) -> None:
    values = _assert_planted(planted[row], row)
    assert leaked(output_text(scrubbed[row]), values, tuple(carriers(row).values())) == []


@pytest.mark.parametrize("row", DISGUISES)
def test_traces_json_removes_every_disguise(planted, engine, row: str) -> None:
    listing = list_traces([planted[row]], scrub=lambda trace: scrub_trace(trace, engine).trace)
    text = json.dumps(listing.model_dump(mode="json"), ensure_ascii=False)
    assert leaked(text, {kind: VALUES[kind] for kind in carriers(row)}, tuple(carriers(row).values())) == []
    plain = list_traces([planted[row]])
    for before, after in zip(plain.traces, listing.traces):
        assert after.trace_id == before.trace_id
        for old, new in zip(before.turns, after.turns):
            assert [c.name for c in new.tool_calls] == [c.name for c in old.tool_calls]
            assert (new.started_at, new.input_tokens, new.output_tokens) == (
                old.started_at, old.input_tokens, old.output_tokens
            )


@pytest.mark.parametrize("row", DISGUISES)
def test_draft_removes_every_disguise(planted, engine, row: str) -> None:
    result = draft_from_export(planted[row], trace_id=TRACE, options=DraftOptions(), engine=engine)
    try:
        text = draft_text(result)
    except PromoteError:
        return  # the residual gate refused the case: nothing written
    assert leaked(text, {kind: VALUES[kind] for kind in carriers(row)}, tuple(carriers(row).values())) == []
    assert "40 hours" in text and "search_hr_policy" in text  # a figure and a tool name survive
