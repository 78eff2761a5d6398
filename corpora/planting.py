"""Planting made-up personal values into real fixture traces, and looking for them in any form afterwards.

The values are ones the engine recognises when they are written plainly (issue 11 is about *where* they
sit and *how* they are disguised, not about what is recognised): a leak found by these tests is a value
the scrubber was never shown, or was shown in a form it did not see through.
"""

from __future__ import annotations

import base64
import json
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from promote.ingest import open_export

VALUES = {
    "name": "Gregory Hallman",
    "email": "greg.hallman@example.com",
    "phone": "(415) 555-0134",
    "ssn": "512-44-7723",
    "card": "4111 1111 1111 1111",
    "iban": "DE89 3704 0044 0532 0130 00",
    "employee_id": "E-88645",
    "address": "1427 Maple Grove Avenue",
}
"""One made-up person: each value is replaced when it stands plainly in a sentence."""

MORE_VALUES = {
    "api key": "sk-proj-4f9a8b7c6d5e4f3a2b1cXyZ",
    "aws key": "AKIAIOSFODNN7EXAMPLE",
    "ip address": "10.20.30.40",
    "home path": "/home/ghallman/app/main.py",
    "international phone": "+44 20 7946 0958",
    "name with accents": "Szabina Gelencsér",
    "Vietnamese name": "Nguyễn Văn An",
}
"""Values of other kinds and scripts, for the sweeps (`PERSONAL_PART` says what of each must go)."""

PERSONAL_PART = {"home path": "ghallman"}
"""Where only part of a planted value is personal: the rest of a path stays."""

DIGITS = {"phone": 4155550134, "ssn": 512447723, "card": 4111111111111111}
"""The numeric values as numbers (an `intValue`, an int64 tag)."""


DISGUISES: dict[str, Callable[[str], str]] = {
    "plain": lambda v: v,
    "zero-width": lambda v: v[:2] + "\u200b" + v[2:],
    "fullwidth digits": lambda v: "".join(chr(ord(c) - 48 + 0xFF10) if c.isdigit() else c for c in v),
    "confusables": lambda v: v.replace("a", "а").replace("e", "е"),
    "URL-encoded": urllib.parse.quote,
    "\\u escapes": lambda v: "".join(f"\\u{ord(c):04x}" for c in v),
    "base64": lambda v: base64.b64encode(v.encode()).decode(),
    "fake placeholder": lambda v: "<" + "".join(c if c.isalnum() else "_" for c in v).upper() + ">",
    "letters spaced out": lambda v: "   ".join(" ".join(word) for word in v.split()),
}
"""One way each of writing a value so that it does not read as itself (the fuzz and sweep tests')."""


def prose(kind: str, values: dict[str, str] = VALUES) -> str:
    """The value in a short sentence of the kind traces hold."""
    return f"lookup for {values[kind]} failed" if kind != "name" else f"Ticket opened by {values[kind]} today"


def forms(value: str) -> set[str]:
    """The ways a value can sit in an output: as itself, JSON-escaped (once or twice), `\\u`-escaped,
    URL-encoded, in base64, and its digits alone for a number."""
    once = json.dumps(value)[1:-1]
    found = {value, once, json.dumps(once)[1:-1], urllib.parse.quote(value), urllib.parse.quote_plus(value),
             "".join(f"\\u{ord(ch):04x}" for ch in value)}
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        encoded = encode(value.encode()).decode()
        found |= {encoded, encoded.rstrip("=")}
    return {form.casefold() for form in found}


def output_text(path: Path) -> str:
    """What a written export holds, as text: its records' bytes and every value its codec reads (so a
    base64 or protobuf bytes value is searched decoded too)."""
    export = open_export(path)
    parts = []
    for record in export.records():
        if hasattr(record, "raw"):
            parts.append(record.raw.decode("utf-8", "replace"))
            parts.extend(str(slot.value) for slot, _ in export.slots(record))
    return "\n".join(parts)


def leaked(text: str, planted: dict[str, str] | None = None, extra: tuple[str, ...] = ()) -> list[str]:
    """The planted values (by kind) found in `text` in any of their forms, and any `extra` carrier found."""
    folded = text.casefold()
    found = [kind for kind, value in (planted or VALUES).items()
             if any(form in folded for form in forms(value))
             or (kind in DIGITS and str(DIGITS[kind]) in folded)]
    return found + [carrier for carrier in extra if carrier.casefold() in folded]


def spans_of(doc: dict) -> list[dict]:
    """Every span of an OTLP JSON request, in order."""
    return [span for block in doc.get("resourceSpans", ()) for scope in block.get("scopeSpans", ())
            for span in scope.get("spans", ())]


def string(value: str) -> dict[str, Any]:
    return {"stringValue": value}


def scrub_all(planted: dict[Any, Path], out: Path) -> dict[Any, Path]:
    """`promote scrub` of every planted export into `out` (one worker), by the same keys."""
    from promote.batch.run import ScrubOptions, scrub_exports

    scrub_exports([str(path) for path in planted.values()], str(out), ScrubOptions(workers=1))
    return {row: out / path.name for row, path in planted.items()}


def string_paths(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """The path (keys and list indices) of every string in a JSON document, in document order."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from string_paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from string_paths(value, (*path, index))
    elif isinstance(node, str):
        yield path


def object_paths(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """The path of every JSON object in a document (the document itself included), in document order."""
    if isinstance(node, dict):
        yield path
        for key, value in node.items():
            yield from object_paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from object_paths(value, (*path, index))


def _replace_at(doc: Any, path: tuple, carrier: Any) -> None:
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = carrier


def _add_member(doc: Any, path: tuple, member: tuple[str, Any]) -> None:
    target = doc
    for step in path:
        target = target[step]
    target[member[0]] = member[1]


def plant_every_string_path(sources: list[Path], carriers: dict[str, str], folder: Path,
                            documents: int = 3) -> dict[tuple, Path]:
    """A copy of each JSON export per distinct string path (list indices folded) of its first
    `documents` documents and per carrier, with that string replaced by the carrier; by
    (export name, path, carrier kind)."""
    return _plant_each(sources, carriers, folder, documents, string_paths, _replace_at)


def plant_every_object_path(sources: list[Path], members: dict[str, tuple[str, Any]], folder: Path,
                            documents: int = 3) -> dict[tuple, Path]:
    """Like `plant_every_string_path`, with a (key, value) member added to each distinct object instead."""
    return _plant_each(sources, members, folder, documents, object_paths, _add_member)


def _plant_each(sources: list[Path], carriers: dict[str, Any], folder: Path, documents: int,
                paths_of: Callable[[Any], Iterator[tuple]], put: Callable[[Any, tuple, Any], None]
                ) -> dict[tuple, Path]:
    made: dict[tuple, Path] = {}
    for source in sources:
        text = source.read_text()
        lines = source.name.endswith(".jsonl")
        docs = ([json.loads(line) for line in text.splitlines() if line.strip()] if lines
                else [json.loads(text)])
        shapes: set[tuple] = set()
        for number, doc in enumerate(docs[:documents]):
            for path in paths_of(doc):
                shape = tuple("#" if isinstance(step, int) else step for step in path)
                if shape in shapes:
                    continue
                shapes.add(shape)
                for kind, carrier in carriers.items():
                    copy = json.loads(json.dumps(doc))
                    put(copy, path, carrier)
                    written = [*docs[:number], copy, *docs[number + 1:]]
                    planted = made[(source.name, shape, kind)] = folder / f"{len(made):05d}-{source.name}"
                    body = "\n".join(map(json.dumps, written)) + "\n" if lines else json.dumps(copy)
                    planted.write_text(body)
    return made


def add_attribute(span: dict, key: str, value: dict) -> None:
    """Append an OTLP attribute `key` = `value` (an AnyValue dict, or a bare value) to `span`."""
    span.setdefault("attributes", []).append({"key": key, "value": value})


PLACES: dict[str, Callable[[dict, dict, str], None]] = {
    "span name": lambda doc, span, text: span.update(name=text),
    "event name": lambda doc, span, text: span.setdefault("events", []).append({"name": text}),
    "attribute": lambda doc, span, text: add_attribute(span, "note", {"stringValue": text}),
    "bare attribute value": lambda doc, span, text: add_attribute(span, "note", text),
    "kvlist value": lambda doc, span, text: add_attribute(span, "meta", {"kvlistValue": {"values": [
        {"key": "owner", "value": {"stringValue": text}}]}}),
    "array value": lambda doc, span, text: add_attribute(span, "tags",
                                                         {"arrayValue": {"values": [{"stringValue": text}]}}),
    "bytesValue": lambda doc, span, text: add_attribute(
        span, "blob", {"bytesValue": base64.b64encode(text.encode()).decode()}),
    "resource attribute": lambda doc, span, text: doc["resourceSpans"][0]["resource"]["attributes"].append(
        {"key": "host.name", "value": {"stringValue": text}}),
    "link attribute": lambda doc, span, text: span.setdefault("links", []).append(
        {"traceId": span["traceId"], "spanId": span["spanId"],
         "attributes": [{"key": "n", "value": {"stringValue": text}}]}),
    "traceState": lambda doc, span, text: span.update(traceState=text),
    "unknown field": lambda doc, span, text: span.update(comment=text),
    "status message": lambda doc, span, text: span.update(status={"code": 2, "message": text}),
    "tool result JSON": lambda doc, span, text: add_attribute(span, "gen_ai.tool.call.result",
                                                              {"stringValue": json.dumps({"note": text})}),
    "JSON inside a JSON string": lambda doc, span, text: add_attribute(
        span, "gen_ai.tool.call.result",
        {"stringValue": json.dumps({"payload": json.dumps({"note": text})})}),
    # JSON text written as a JSON string (`"{\"note\": \"…\"}"`): a bare name in escaped quotes leaked
    "escaped JSON text": lambda doc, span, text: add_attribute(
        span, "note", {"stringValue": json.dumps(json.dumps({"note": text}))}),
    "Python repr": lambda doc, span, text: add_attribute(span, "output.value",
                                                         {"stringValue": str({"note": text})}),
    "URL query": lambda doc, span, text: add_attribute(
        span, "http.url", {"stringValue": "https://api.example.com/v1/find?q=" + text}),
}
"""Where in an OTLP JSON document a text can be planted: (document, span, text) -> None (the fuzz test's
and the leak sweep's places)."""
