"""OTLP JSON variants, console, ADK dev-server, stdin and protobuf shapes the fixture exports do not
cover, built here in the real shape of each (trace-formats.md §1), read and rewritten like the fixtures.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from promote.ingest import iter_spans, open_export, write_export
from promote.ingest.formats.base import Record
from tests.ingest_exports import FILES, TRACES, rewrite_file, rewrite_strings

TRACE_ID = "5b8efff798038103d269b633813fc60c"
ROOT_ID, TOOL_ID = "eee19b7ec3c1b173", "eee19b7ec3c1b174"


def string(value: str) -> dict:
    return {"stringValue": value}


def otlp_request(trace_id: str = TRACE_ID, root_id: str = ROOT_ID, tool_id: str = TOOL_ID) -> dict:
    return {"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": string("hr-agent")}]},
        "scopeSpans": [{"scope": {"name": "gcp.vertex.agent", "version": "1.22.1",
                             "attributes": [{"key": "scope.team", "value": string("payroll platform")}]},
                        "spans": [
            {"traceId": trace_id, "spanId": root_id, "parentSpanId": "", "name": "invoke_agent hr_agent",
             "kind": 1, "startTimeUnixNano": "1544712660000000000", "endTimeUnixNano": "1544712661000000000",
             "attributes": [{"key": "gen_ai.agent.name", "value": string("hr_agent")}], "status": {}},
            {"traceId": trace_id, "spanId": tool_id, "parentSpanId": root_id,
             "name": "execute_tool get_employee_context",
             "kind": 1, "startTimeUnixNano": "1544712660100000000", "endTimeUnixNano": "1544712660200000000",
             "attributes": [
                 {"key": "gen_ai.tool.name", "value": string("get_employee_context")},
                 {"key": "gcp.vertex.agent.tool_call_args", "value": string('{"employee_id": "E-44213"}')},
                 {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "145"}},
                 {"key": "gen_ai.request.temperature", "value": {"doubleValue": 0.2}},
                 {"key": "tags", "value": {"arrayValue": {"values": [string("payroll"), {"intValue": "3"}]}}},
                 {"key": "meta", "value": {"kvlistValue": {"values": [{"key": "owner",
                                                                       "value": string("Dana Smith")}]}}},
                 {"key": "blob", "value": {"bytesValue": "AAEC"}},
                 {"key": "nothing", "value": {}}],
             "events": [{"timeUnixNano": "1544712660150000000", "name": "exception",
                         "attributes": [{"key": "exception.message",
                                         "value": string("no employee dana@example.com")}]}],
             "links": [{"traceId": trace_id, "spanId": root_id,
                        "attributes": [{"key": "link.note", "value": string("retry")}]}],
             "status": {"code": 2, "message": "ValueError: bad id"}}]}]}]}


def snake_case(value: object) -> object:
    """Every dict key in snake_case, as protobuf JSON parsers also accept."""
    if isinstance(value, list):
        return [snake_case(item) for item in value]
    if isinstance(value, dict):
        return {"".join(f"_{c.lower()}" if c.isupper() else c for c in key): snake_case(item)
                for key, item in value.items()}
    return value


def base64_ids_enum_names_numbers(doc: dict) -> dict:
    import base64

    text = json.dumps(doc)
    for hex_id in (TRACE_ID, ROOT_ID, TOOL_ID):
        text = text.replace(f'"{hex_id}"', json.dumps(base64.b64encode(bytes.fromhex(hex_id)).decode()))
    text = text.replace('"kind": 1', '"kind": "SPAN_KIND_INTERNAL"').replace(
        '"code": 2', '"code": "STATUS_CODE_ERROR"'
    )
    return json.loads(text.replace('"145"', "145").replace('"1544712660100000000"', "1544712660100000000"))


def old_names(doc: dict) -> dict:
    block = doc["resourceSpans"][0]
    scope_spans = block.pop("scopeSpans")[0]
    scope_spans["instrumentationLibrary"] = scope_spans.pop("scope")
    return {"resourceSpans": [{**block, "instrumentationLibrarySpans": [scope_spans]}]}


VARIANTS = {
    "snake_case keys": lambda doc: snake_case(doc),
    "base64 ids, enum names, int64 numbers": base64_ids_enum_names_numbers,
    "instrumentationLibrarySpans": old_names,
    "tempo batches": lambda doc: {"batches": doc["resourceSpans"]},
    "bare ResourceSpans line": lambda doc: doc["resourceSpans"][0],
}


def read_spans(path: Path) -> list[dict]:
    return [span.model_dump(exclude={"where"}) for span in iter_spans([path])]


def test_canonical_document_decodes_every_any_value(tmp_path: Path) -> None:
    (tmp_path / "one.json").write_text(json.dumps(otlp_request(), indent=2))
    root, tool = iter_spans([tmp_path / "one.json"])
    assert (root.parent_span_id, root.kind, root.status_code, root.scope_name) == (
        None, "INTERNAL", "UNSET", "gcp.vertex.agent"
    )
    assert tool.attributes == {
        "gen_ai.tool.name": "get_employee_context",
        "gcp.vertex.agent.tool_call_args": '{"employee_id": "E-44213"}',
        "gen_ai.usage.input_tokens": 145, "gen_ai.request.temperature": 0.2, "tags": ["payroll", 3],
        "meta": {"owner": "Dana Smith"}, "blob": "AAEC", "nothing": None,
    }
    assert (tool.status_code, tool.status_message, tool.resource) == (
        "ERROR", "ValueError: bad id", {"service.name": "hr-agent"}
    )
    assert tool.events[0].time_ns == 1544712660150000000 and tool.events[0].attributes == {
        "exception.message": "no employee dana@example.com"
    }


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_otlp_json_variant_reads_like_the_canonical_form(variant: str, tmp_path: Path) -> None:
    (tmp_path / "canonical.jsonl").write_text(json.dumps(otlp_request()) + "\n")
    (tmp_path / "variant").write_text(json.dumps(VARIANTS[variant](otlp_request())) + "\n")
    assert read_spans(tmp_path / "variant") == read_spans(tmp_path / "canonical.jsonl")


def test_rewrite_offers_every_text_key_and_number_of_the_record(tmp_path: Path) -> None:
    # Fail closed: the codec offers everything; structural fields carry their field name for the policy.
    (tmp_path / "one.jsonl").write_text(json.dumps(otlp_request()) + "\n")
    export = open_export(tmp_path / "one.jsonl")
    (record,) = export.records()
    slots = []
    rewrite_strings(export, record, lambda slot: slots.append(slot))
    values = {(slot.owner, slot.key, slot.value) for slot in slots if slot.field is None}
    assert {
        ("resource", "service.name", "hr-agent"), ("scope", "scope.team", "payroll platform"),
        ("scope", "otel.scope.name", "gcp.vertex.agent"), ("scope", "otel.scope.version", "1.22.1"),
        ("span", None, "invoke_agent hr_agent"), ("span", None, "execute_tool get_employee_context"),
        ("span", "gen_ai.agent.name", "hr_agent"),
        ("span", "gen_ai.tool.name", "get_employee_context"),
        ("span", "gcp.vertex.agent.tool_call_args", '{"employee_id": "E-44213"}'),
        ("span", "gen_ai.usage.input_tokens", 145), ("span", "gen_ai.request.temperature", 0.2),
        ("span", "tags.0", "payroll"), ("span", "tags.1", 3), ("span", "meta.owner", "Dana Smith"),
        ("span", "blob", "\x00\x01\x02"), ("event", None, "exception"),
        ("event", "exception.message", "no employee dana@example.com"), ("link", "link.note", "retry"),
        ("status", "status.message", "ValueError: bad id"),
    } == values
    structural = {(slot.field, str(slot.value)) for slot in slots if slot.field is not None}
    assert {("traceId", TRACE_ID), ("spanId", TOOL_ID), ("kind", "1"), ("code", "2"), ("key", "meta"),
            ("key", "owner"), ("startTimeUnixNano", "1544712660100000000")} <= structural
    tool_slot = next(slot for slot in slots if slot.key == "meta.owner")
    assert (tool_slot.trace_id, tool_slot.span_id, tool_slot.span_name) == (
        TRACE_ID, TOOL_ID, "execute_tool get_employee_context"
    )
    # the block holds one trace
    assert next(slot for slot in slots if slot.owner == "resource").trace_id == TRACE_ID


def test_rewrite_of_nested_values_leaves_the_input_record_alone(tmp_path: Path) -> None:
    (tmp_path / "one.jsonl").write_text(json.dumps(otlp_request()) + "\n")
    export = open_export(tmp_path / "one.jsonl")
    (record,) = export.records()
    redacted = {"Dana Smith": "<PERSON_1>", "payroll": "PAYROLL",
                "no employee dana@example.com": "no employee <EMAIL_1>"}
    changed = rewrite_strings(export, record, lambda slot: redacted.get(slot.value))
    assert b"Dana Smith" in record.raw and record.doc == otlp_request()
    (_, tool) = export.spans(changed)
    assert tool.attributes["meta"] == {"owner": "<PERSON_1>"} and tool.attributes["tags"] == ["PAYROLL", 3]
    assert tool.events[0].attributes == {"exception.message": "no employee <EMAIL_1>"}
    assert json.loads(changed.raw) == changed.doc and b"\n" not in changed.raw


def console_span(span_id: str, parent: str | None, end: str | None, prefix: str = "0x") -> dict:
    return {"name": f"span {span_id}", "context": {"trace_id": prefix + TRACE_ID, "span_id": prefix + span_id,
                                                   "trace_state": "[]"},
            "kind": "SpanKind.INTERNAL", "parent_id": parent and prefix + parent,
            "start_time": "2026-03-01T20:47:18.716835Z",
            "end_time": end, "status": {"status_code": "ERROR", "description": "Dana's request failed"},
            "attributes": {"user.email": "dana@example.com", "tokens": 12, "finish": ["stop"]}, "events": [],
            "links": [], "resource": {"attributes": {"service.name": "hr-agent"}, "schema_url": ""}}


def test_console_array_without_0x_keeps_the_ended_copy_of_a_span_printed_twice(tmp_path: Path) -> None:
    spans = [console_span(ROOT_ID, None, None, ""),
             console_span(TOOL_ID, ROOT_ID, "2026-03-01T20:47:18.717000Z", ""),
             console_span(ROOT_ID, None, "2026-03-01T20:47:19.000001Z", "")]
    (tmp_path / "console.json").write_text(json.dumps(spans, indent=2))
    export = open_export(tmp_path / "console.json")
    assert export.format == "console"
    got = {span.span_id: span for span in iter_spans([tmp_path / "console.json"])}
    assert set(got) == {ROOT_ID, TOOL_ID}
    assert got[ROOT_ID].end_ns - got[ROOT_ID].start_ns == 283_166_000
    assert (got[TOOL_ID].parent_span_id, got[TOOL_ID].status_code, got[TOOL_ID].trace_id) == (
        ROOT_ID, "ERROR", TRACE_ID
    )


def test_console_array_rewrite_changes_only_the_lines_of_the_changed_value(tmp_path: Path) -> None:
    spans = [console_span(ROOT_ID, None, "2026-03-01T20:47:19Z"),
             console_span(TOOL_ID, ROOT_ID, "2026-03-01T20:47:19Z")]
    original = json.dumps(spans, indent=4) + "\n"
    (tmp_path / "in.json").write_text(original)
    rewrite_file(tmp_path / "in.json", tmp_path / "out.json",
                 lambda slot: "<EMAIL_1>" if slot.span_id == TOOL_ID and slot.key == "user.email" else None)
    before, after = original.splitlines(), (tmp_path / "out.json").read_text().splitlines()
    assert len(before) == len(after)
    assert [(b, a) for b, a in zip(before, after) if b != a] == [
        ('            "user.email": "dana@example.com",', '            "user.email": "<EMAIL_1>",')
    ]


def test_adk_dev_server_list_with_decimal_ids(tmp_path: Path) -> None:
    spans = [{"name": "invocation", "span_id": 17, "trace_id": int(TRACE_ID, 16), "start_time": 1,
              "end_time": 5, "attributes": {"gcp.vertex.agent.invocation_id": "e-1"}, "parent_span_id": None},
             {"name": "call_llm", "span_id": 18, "trace_id": int(TRACE_ID, 16), "start_time": 2,
              "end_time": 3, "attributes": {}, "parent_span_id": 17}]
    (tmp_path / "session.json").write_text(json.dumps(spans))
    root, child = iter_spans([tmp_path / "session.json"])
    assert open_export(tmp_path / "session.json").format == "adk-dev"
    assert (root.trace_id, root.span_id, child.parent_span_id) == (
        TRACE_ID, "0000000000000011", "0000000000000011"
    )


def test_stdin_is_read_once_with_compression_sniffed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    payload = gzip.compress((json.dumps(otlp_request()) + "\n").encode())
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(payload)))
    export = open_export("-")
    assert (export.format, export.compression) == ("otlp-json", "gzip")
    assert [span.span_id for record in export.records() for span in export.spans(record)] == [
        ROOT_ID, TOOL_ID
    ]


def test_protobuf_in_a_zstd_stream_round_trips(tmp_path: Path) -> None:
    source = next((TRACES / name for name, info in FILES.items() if info["format"] == "otlp-proto"), None)
    if source is None:
        pytest.skip("no protobuf fixture")
    export = open_export(source)
    write_export([r for r in export.records() if isinstance(r, Record)], tmp_path / "out",
                 format="otlp-proto", compression="zstd")
    reread = open_export(tmp_path / "out")
    assert (reread.format, reread.compression) == ("otlp-proto", "zstd")
    assert read_spans(tmp_path / "out") == read_spans(source)


def test_a_trace_is_whole_within_the_window_and_in_named_pieces_beyond_it(tmp_path: Path) -> None:
    other_trace = "0af7651916cd43dd8448eb211c80319c"
    first = otlp_request(TRACE_ID)
    lines = [first, otlp_request(other_trace, "00f067aa0ba902b7", "00f067aa0ba902b8")]
    lines += [otlp_request(other_trace, f"00f067aa0ba902{n:02x}", f"00f067aa0ba903{n:02x}") for n in range(3)]
    lines.append(otlp_request(TRACE_ID, "a000000000000001", "a000000000000002"))
    export = tmp_path / "spread.jsonl"
    export.write_text("".join(json.dumps(line) + "\n" for line in lines))
    from promote.source import read_traces

    wide = [(trace.trace_id, len(trace.spans)) for trace in read_traces([export], window=10, settle=10)]
    assert sorted(wide) == [(other_trace, 8), (TRACE_ID, 4)]
    notes: list = []
    narrow = [(trace.trace_id, len(trace.spans))
              for trace in read_traces([export], window=2, settle=2, skipped=notes)]
    assert narrow == [(TRACE_ID, 2), (other_trace, 8), (f"{TRACE_ID}~2", 2)]
    [note] = notes
    assert note.where == f"{export}:6" and f"listed as trace {TRACE_ID}~2" in note.why
