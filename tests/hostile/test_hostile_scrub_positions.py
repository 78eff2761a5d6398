"""`promote scrub` removes a planted value wherever it sits in a record (issue 11, "leaked raw by scrub").

Each row plants every value of `planting.VALUES` at one kind of place of a real fixture export (OTLP
JSON lines, protobuf, Jaeger), one value per span; the export is scrubbed (one run for all rows, so the
model loads once), and no value may be left in the output in any form, while ids, times and tool names
stay as they were.
"""

from __future__ import annotations

import base64
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from google.protobuf.internal.encoder import _VarintBytes
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from corpora import planting
from corpora.planting import DIGITS, DISGUISES, VALUES, leaked, output_text, prose, spans_of, string
from promote.batch.run import ScrubOptions, scrub_exports
from promote.ingest import Record, iter_spans, open_export, write_export
from tests.conftest import TRACES

KINDS = list(VALUES)
Plant = Callable[[dict, dict, str, int], None]  # (request, span, kind, n)


def _attr(span: dict, key: str, value: dict) -> None:
    span.setdefault("attributes", []).append({"key": key, "value": value})


def _resource(doc: dict) -> list:
    return doc["resourceSpans"][0]["resource"]["attributes"]


OTLP_ROWS: dict[str, Plant] = {
    "span name": lambda doc, span, kind, n: span.update(name=prose(kind)),
    "event name": lambda doc, span, kind, n: span.setdefault("events", []).append(
        {"timeUnixNano": span["startTimeUnixNano"], "name": prose(kind)}),
    "resource user.id": lambda doc, span, kind, n: _resource(doc).append(
        {"key": ("user.id", "enduser.id", "session.id", "service.instance.id", "host.name")[n % 5],
         "value": string(VALUES[kind])}),
    "scope attribute": lambda doc, span, kind,
    n: doc["resourceSpans"][0]["scopeSpans"][0]["scope"].setdefault(
        "attributes", []).append({"key": f"scope.note{n}", "value": string(prose(kind))}),
    "scope version": lambda doc, span, kind, n: doc["resourceSpans"][0]["scopeSpans"][0]["scope"].update(
        version=prose(kind)),
    "link attribute": lambda doc, span, kind, n: span.setdefault("links", []).append(
        {"traceId": span["traceId"], "spanId": span["spanId"],
         "attributes": [{"key": "note", "value": string(prose(kind))}]}),
    "traceState": lambda doc, span, kind, n: span.update(traceState=f"vendor={VALUES[kind]}"),
    "code.stacktrace": lambda doc, span, kind, n: _attr(span, "code.stacktrace", string(
        f'Traceback (most recent call last):\n  File "tools.py", line 12\nValueError: {prose(kind)}')),
    "code.function": lambda doc, span, kind, n: _attr(span, "code.function", string(VALUES[kind])),
    "attributes once listed as safe": lambda doc, span, kind, n: _attr(
        span, ("error.type", "gen_ai.request.user", "gen_ai.tool.description", "service.version")[n % 4],
        string(prose(kind))),
    "bare string value": lambda doc, span, kind, n: _attr(span, "note", prose(kind)),
    "JSON object value": lambda doc, span, kind, n: _attr(span, "note", {"owner": VALUES[kind]}),
    "bytesValue": lambda doc, span, kind, n: _attr(
        span, "note", {"bytesValue": base64.b64encode(prose(kind).encode()).decode()}),
    "attribute key": lambda doc, span, kind, n: _attr(span, VALUES[kind], string("yes")),
    "kvlist key": lambda doc, span, kind, n: _attr(span, "meta", {"kvlistValue": {"values": [
        {"key": VALUES[kind], "value": string("yes")}]}}),
    "unknown span field": lambda doc, span, kind, n: span.update(comment=prose(kind)),
    "unknown request field": lambda doc, span, kind, n: doc.update({f"note{n}": prose(kind)}),
}


def _numbers(doc: dict, spans: list[dict]) -> None:
    for span, (kind, number) in zip(spans, DIGITS.items()):
        key = {"phone": "user.phone", "ssn": "employee.ssn", "card": "payment.card_number"}[kind]
        _attr(span, key, {"intValue": str(number)})


def _write_otlp(target: Path, plant: Callable[[dict, list[dict]], None]) -> None:
    lines = (TRACES / "adk2.otlp.jsonl").read_text().splitlines()
    doc = json.loads(lines[0])
    plant(doc, spans_of(doc))
    target.write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n")


def _duplicate_keys(target: Path) -> None:
    # The first copy of a duplicate key is what a JSON parser drops and a byte copy keeps.
    lines = (TRACES / "adk2.otlp.jsonl").read_text().splitlines()
    first = lines[0]
    for kind in KINDS:
        first = (
            first.replace('"name": "', f'"name": {json.dumps(prose(kind))}, "name": "', 1)
            if '"name": "' in first
            else first
        )
    lines[0] = first.replace('"name": "', '"name":"', 0)
    target.write_text("\n".join(lines) + "\n")


def _proto_rows() -> dict[str, Callable[[object, list, str, int], None]]:
    def key_value(key: str, **value: object) -> KeyValue:
        return KeyValue(key=key, value=AnyValue(**value))

    def unknown(span: object, kind: str, n: int) -> None:
        # field 99 (length-delimited) is not in the schema: its bytes would be copied as they are
        data = prose(kind).encode()
        span.MergeFromString(b"\x9a\x06" + _VarintBytes(len(data)) + data)

    return {
        "proto span name": lambda doc, span, kind, n: setattr(span, "name", prose(kind)),
        "proto trace_state": lambda doc, span, kind,
        n: setattr(span, "trace_state", f"vendor={VALUES[kind]}"),
        "proto unknown field": lambda doc, span, kind, n: unknown(span, kind, n),
        "proto bytes_value": lambda doc, span, kind, n: span.attributes.append(
            key_value("note", bytes_value=prose(kind).encode())),
        "proto attribute key": lambda doc, span, kind,
        n: span.attributes.append(key_value(VALUES[kind], string_value="x")),
        "proto event name": lambda doc, span, kind,
        n: span.events.add(time_unix_nano=span.start_time_unix_nano, name=prose(kind)),
        "proto resource attribute": lambda doc, span, kind,
        n: doc.resource_spans[0].resource.attributes.append(
            key_value(f"user.id{n}", string_value=VALUES[kind])),
    }


def _write_proto(target: Path, plant: Callable) -> None:
    export = open_export(TRACES / "adk2.otlp.pb")
    records = [item for item in export.records() if isinstance(item, Record)]
    doc = ExportTraceServiceRequest.FromString(records[0].raw)
    spans = [span for block in doc.resource_spans for scope in block.scope_spans for span in scope.spans]
    for n, kind in enumerate(KINDS):
        plant(doc, spans[n % len(spans)], kind, n)
    records[0] = Record(records[0].where, doc.SerializeToString(), doc, records[0].prefix)
    write_export(records, target, format=export.format, compression=None)


def _jaeger_rows() -> dict[str, Callable[[dict, str, int], None]]:
    def tag(span: dict, key: str, kind: str, value: object) -> None:
        span["tags"].append({"key": key, "type": kind, "value": value})

    return {
        "jaeger operationName": lambda span, kind, n: span.update(operationName=prose(kind)),
        "jaeger log event": lambda span, kind, n: span.setdefault("logs", []).append(
            {"timestamp": span["startTime"], "fields": [{"key": "event", "type": "string",
                                                         "value": prose(kind)}]}),
        "jaeger binary tag": lambda span, kind,
        n: tag(span, "note", "binary", base64.b64encode(prose(kind).encode()).decode()),
        "jaeger object tag": lambda span, kind, n: tag(span, "note", "string", {"owner": VALUES[kind]}),
        "jaeger warnings": lambda span, kind, n: span.update(warnings=[prose(kind)]),
        "jaeger w3c.tracestate": lambda span, kind,
        n: tag(span, "w3c.tracestate", "string", f"vendor={VALUES[kind]}"),
    }


def _write_jaeger(target: Path, plant: Callable[[dict, str, int], None] | None,
                  numbers: bool = False) -> None:
    doc = json.loads((TRACES / "adk2.jaeger.json").read_text())
    spans = doc["data"][0]["spans"]
    if numbers:
        for span, (kind, number) in zip(spans, DIGITS.items()):
            span["tags"].append({"key": {"phone": "phone", "ssn": "ssn", "card": "card_number"}[kind],
                                 "type": "int64", "value": number})
    else:
        for n, kind in enumerate(KINDS):
            plant(spans[n % len(spans)], kind, n)
    target.write_text(json.dumps(doc))


def _inputs(folder: Path) -> dict[str, Path]:
    made: dict[str, Path] = {}
    for number, (row, plant) in enumerate(OTLP_ROWS.items()):
        path = made[row] = folder / f"otlp{number:02d}.otlp.jsonl"
        _write_otlp(path, lambda doc, spans, plant=plant: [plant(doc, spans[n % len(spans)], kind, n)
                                                           for n, kind in enumerate(KINDS)])
    made["intValue under personal keys"] = folder / "numbers.otlp.jsonl"
    _write_otlp(made["intValue under personal keys"], _numbers)
    made["duplicate JSON keys"] = folder / "duplicates.otlp.jsonl"
    _duplicate_keys(made["duplicate JSON keys"])
    for number, (row, plant) in enumerate(_proto_rows().items()):
        made[row] = folder / f"proto{number:02d}.otlp.pb"
        _write_proto(made[row], plant)
    for number, (row, plant) in enumerate(_jaeger_rows().items()):
        made[row] = folder / f"jaeger{number:02d}.jaeger.json"
        _write_jaeger(made[row], plant)
    made["jaeger int64 tags under personal keys"] = folder / "jaeger-numbers.jaeger.json"
    _write_jaeger(made["jaeger int64 tags under personal keys"], None, numbers=True)
    return made


@pytest.fixture(scope="module")
def scrubbed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    planted = tmp_path_factory.mktemp("planted")
    out = tmp_path_factory.mktemp("scrubbed")
    inputs = _inputs(planted)
    scrub_exports([str(path) for path in inputs.values()], str(out), ScrubOptions(workers=1))
    return {row: (path, out / path.name) for row, path in inputs.items()}


ROWS = [*OTLP_ROWS, "intValue under personal keys", "duplicate JSON keys", *_proto_rows(), *_jaeger_rows(),
        "jaeger int64 tags under personal keys"]


@pytest.mark.parametrize("row", ROWS)
def test_no_planted_value_survives_scrub(scrubbed, row: str) -> None:
    source, output = scrubbed[row]
    planted = {kind: value for kind, value in VALUES.items() if leaked(output_text(source), {kind: value})}
    assert planted, f"the row {row!r} planted nothing (the test would pass for nothing)"
    assert leaked(output_text(output), planted) == []


@pytest.mark.parametrize("row", ROWS)
def test_ids_times_and_tool_names_survive_scrub(scrubbed, row: str) -> None:
    source, output = scrubbed[row]
    before, after = list(iter_spans([source])), list(iter_spans([output]))
    assert [(s.trace_id, s.span_id, s.parent_span_id, s.start_ns, s.end_ns) for s in after] == [
        (s.trace_id, s.span_id, s.parent_span_id, s.start_ns, s.end_ns) for s in before]
    for old, new in zip(before, after):
        for key in ("gen_ai.tool.name", "gen_ai.usage.input_tokens", "gen_ai.request.model"):
            assert new.attributes.get(key) == old.attributes.get(key), key


def test_every_disguise_of_every_value_is_removed_at_every_row(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The rows above with each value written in each disguise of the fuzz test: a base64 value after an
    # "=" (a trace state's `vendor=...`, in OTLP JSON, protobuf and Jaeger alike) once survived here.
    module = sys.modules[__name__]
    inputs, dressed_by = {}, {}
    for number, (disguise, dress) in enumerate(sorted(DISGUISES.items())):
        dressed = dressed_by[disguise] = {kind: dress(value) for kind, value in planting.VALUES.items()}
        monkeypatch.setattr(module, "VALUES", dressed)  # what the rows plant
        monkeypatch.setattr(module, "prose", functools.partial(planting.prose, values=dressed))
        folder = tmp_path / f"in{number}"
        folder.mkdir()
        for row, path in _inputs(folder).items():  # one scrub run for all: each file its own name
            inputs[(disguise, row)] = path.rename(tmp_path / f"{number}-{path.name}")
    outputs = planting.scrub_all(inputs, tmp_path / "out")
    leaks = [(disguise, row, found) for (disguise, row), output in outputs.items()
             for found in [leaked(output_text(output), planting.VALUES, tuple(dressed_by[disguise].values()))]
             if found]
    assert leaks == []

