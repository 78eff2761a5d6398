"""Bad input: every good trace is still read, each problem is reported with file:line, never a traceback."""

from __future__ import annotations

import gzip
import json
import os
import struct
from pathlib import Path

import pytest

from promote.errors import PromoteError
from promote.ingest import NOTHING_FOUND, Skipped, iter_spans, open_export

TRACE_A, TRACE_B = "5b8efff798038103d269b633813fc60c", "0af7651916cd43dd8448eb211c80319c"


def request(trace_id: str | None, span_id: str, name: str = "execute_tool get_pay_stub") -> dict:
    span = {"spanId": span_id, "name": name, "kind": 1, "startTimeUnixNano": "1544712660000000000",
            "endTimeUnixNano": "1544712661000000000",
            "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "get_pay_stub"}}],
            "status": {}}
    if trace_id is not None:
        span["traceId"] = trace_id
    return {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name",
                                                            "value": {"stringValue": "hr-agent"}}]},
                               "scopeSpans": [{"scope": {"name": "gcp.vertex.agent"}, "spans": [span]}]}]}


def jsonl(*docs: dict | str) -> str:
    return "".join((doc if isinstance(doc, str) else json.dumps(doc)) + "\n" for doc in docs)


def read(path: Path) -> tuple[list[str], list[Skipped]]:
    skipped: list[Skipped] = []
    return [span.span_id for span in iter_spans([path], skipped=skipped)], skipped


def test_truncated_gzip_reads_the_spans_before_the_break(tmp_path: Path) -> None:
    lines = [request(TRACE_A, f"{n:016x}") for n in range(1, 2001)]
    data = gzip.compress(jsonl(*lines).encode())
    (tmp_path / "cut.jsonl.gz").write_bytes(data[: len(data) * 2 // 3])
    span_ids, skipped = read(tmp_path / "cut.jsonl.gz")
    assert 100 < len(span_ids) < 2000 and span_ids == [f"{n:016x}" for n in range(1, len(span_ids) + 1)]
    assert len(skipped) == 1 and "ends early" in skipped[0].why
    assert skipped[0].where.startswith(f"{tmp_path / 'cut.jsonl.gz'}:")


def test_a_line_that_is_not_json_is_skipped_with_its_line_number(tmp_path: Path) -> None:
    (tmp_path / "export.jsonl").write_text(jsonl(request(TRACE_A, "00000000000000a1"), '{"resourceSpans": [',
                                                 request(TRACE_B, "00000000000000b1")))
    span_ids, skipped = read(tmp_path / "export.jsonl")
    assert span_ids == ["00000000000000a1", "00000000000000b1"]
    assert [(s.where, s.why.split(":")[0]) for s in skipped] == [
        (f"{tmp_path / 'export.jsonl'}:2", "not JSON")
    ]


def test_a_span_without_trace_id_is_skipped_and_the_rest_read(tmp_path: Path) -> None:
    (tmp_path / "export.jsonl").write_text(jsonl(request(None, "00000000000000a1", "call_llm"),
                                                 request(TRACE_B, "00000000000000b1")))
    span_ids, skipped = read(tmp_path / "export.jsonl")
    assert span_ids == ["00000000000000b1"]
    assert [(s.where, s.why) for s in skipped] == [(f"{tmp_path / 'export.jsonl'}:1",
                                                    "span 'call_llm' has no trace id")]


def test_a_bad_base64_id_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "export.jsonl").write_text(jsonl(request("not*an*id", "00000000000000a1"),
                                                 request(TRACE_B, "00000000000000b1")))
    span_ids, skipped = read(tmp_path / "export.jsonl")
    assert span_ids == ["00000000000000b1"]
    assert len(skipped) == 1 and "neither 32 hex digits nor base64" in skipped[0].why


def test_a_json_line_that_is_not_a_trace_request_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "export.jsonl").write_text(jsonl(request(TRACE_A, "00000000000000a1"), {"metrics": []}))
    span_ids, skipped = read(tmp_path / "export.jsonl")
    assert span_ids == ["00000000000000a1"] and "no resourceSpans" in skipped[0].why


def test_jaeger_span_naming_a_missing_process_is_read_with_service_unknown(tmp_path: Path) -> None:
    span = {"traceID": TRACE_A, "spanID": "00000000000000a1", "operationName": "call_llm", "references": [],
            "startTime": 1771237534594565, "duration": 2343756,
            "tags": [{"key": "span.kind", "type": "string", "value": "client"}],
            "logs": [], "processID": "p9"}
    ok = {**span, "spanID": "00000000000000a2", "processID": "p1",
          "references": [{"refType": "CHILD_OF", "traceID": TRACE_A, "spanID": "00000000000000a1"}]}
    doc = {"data": [{"traceID": TRACE_A, "spans": [span, ok],
                     "processes": {"p1": {"serviceName": "hr-agent", "tags": []}}}]}
    (tmp_path / "jaeger.json").write_text(json.dumps(doc, indent=2))
    skipped: list[Skipped] = []
    first, second = iter_spans([tmp_path / "jaeger.json"], skipped=skipped)
    assert (first.resource, first.kind, first.end_ns - first.start_ns) == ({}, "CLIENT", 2_343_756_000)
    assert second.resource == {"service.name": "hr-agent"} and second.parent_span_id == "00000000000000a1"
    assert (
        len(skipped) == 1 and "'p9'" in skipped[0].why and skipped[0].where == f"{tmp_path / 'jaeger.json'}:1"
    )


def test_broken_console_object_is_skipped_and_the_next_one_read(tmp_path: Path) -> None:
    good = {"name": "call_llm", "context": {"trace_id": "0x" + TRACE_A, "span_id": "0x00000000000000a1"},
            "kind": "SpanKind.INTERNAL", "parent_id": None, "start_time": "2026-03-01T20:47:18.716835Z",
            "end_time": "2026-03-01T20:47:18.717000Z",
            "status": {"status_code": "UNSET"}, "attributes": {}, "events": [], "links": [],
            "resource": {"attributes": {}}}
    broken = json.dumps(good, indent=4).replace('"kind": "SpanKind.INTERNAL",', '"kind": SpanKind.INTERNAL,')
    (tmp_path / "console.log").write_text(broken + "\n" + json.dumps(good, indent=4) + "\n")
    span_ids, skipped = read(tmp_path / "console.log")
    assert span_ids == ["00000000000000a1"]
    assert [(s.where, s.why.split(" (")[0]) for s in skipped] == [
        (f"{tmp_path / 'console.log'}:1", "not valid JSON")
    ]


def test_truncated_protobuf_reads_the_messages_before_the_cut(tmp_path: Path) -> None:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    messages = []
    for n in (1, 2):
        message = ExportTraceServiceRequest()
        span = message.resource_spans.add().scope_spans.add().spans.add()
        span.trace_id, span.span_id, span.name = bytes.fromhex(TRACE_A), n.to_bytes(8, "big"), "call_llm"
        messages.append(message.SerializeToString())
    data = b"".join(struct.pack(">I", len(m)) + m for m in messages)
    (tmp_path / "export.pb").write_bytes(data[:-10])
    span_ids, skipped = read(tmp_path / "export.pb")
    assert span_ids == ["0000000000000001"]
    assert [(s.where, s.why.split(":")[0]) for s in skipped] == [
        (f"{tmp_path / 'export.pb'}:#2", "truncated message")
    ]


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (b"", "empty file"),
        (b"\n  \n", "empty file"),
        (gzip.compress(b""), "empty file after decompression"),
        (bytes(range(256)) * 40, NOTHING_FOUND),
        (b"\x00\x00\x00\x05hello", NOTHING_FOUND),
        (b"name,value\nDana,1\n", NOTHING_FOUND),
        (b'{"resourceMetrics": []}\n', NOTHING_FOUND),
    ],
    ids=["empty", "blank", "empty-gzip", "binary", "short-proto-like", "csv", "metrics"],
)
def test_a_file_with_nothing_usable_is_one_clear_error(tmp_path: Path, content: bytes, what: str) -> None:
    (tmp_path / "export.json").write_bytes(content)
    with pytest.raises(PromoteError) as raised:
        list(iter_spans([tmp_path / "export.json"]))
    assert raised.value.what == what and raised.value.where == str(tmp_path / "export.json")
    assert "\n" not in str(raised.value)


def test_a_file_whose_every_line_is_bad_names_the_first_problem(tmp_path: Path) -> None:
    (tmp_path / "export.jsonl").write_text(jsonl(request(None, "00000000000000a1"),
                                                 request(None, "00000000000000a2")))
    with pytest.raises(PromoteError) as raised:
        list(iter_spans([tmp_path / "export.jsonl"]))
    assert raised.value.what == NOTHING_FOUND
    assert (
        raised.value.hint
        == f"first problem: {tmp_path / 'export.jsonl'}:1: span 'execute_tool get_pay_stub' has no trace id"
    )


@pytest.mark.parametrize(("kind", "what"), [("missing", "file not found"),
                                            ("directory", "is a directory, not a trace export"),
                                            ("under-a-file", "cannot read file: Not a directory")])
def test_a_file_that_cannot_be_read_is_a_promote_error(tmp_path: Path, kind: str, what: str) -> None:
    path = tmp_path / "export.jsonl"
    if kind == "directory":
        path.mkdir()
    elif kind == "under-a-file":
        path.write_text(jsonl(request(TRACE_A, "00000000000000a1")))
        path = path / "export.jsonl"
    with pytest.raises(PromoteError) as raised:
        open_export(path)
    assert (raised.value.where, raised.value.what) == (str(path), what)
