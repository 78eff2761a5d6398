"""The committed ADK trace fixtures are all there, decode, and really contain what expected.json says.

No google-adk needed: these read the files `fixtures/generate_traces.py` wrote. Scrub tests rely on
every planted personal value being present in the raw fixtures; if one is missing they prove nothing.
"""

from __future__ import annotations

import gzip
import json
import struct
from pathlib import Path

import pytest
import zstandard

TRACES = Path(__file__).resolve().parent.parent / "fixtures" / "traces"
EXPECTED = json.loads((TRACES / "expected.json").read_text(encoding="utf-8"))
FILES = EXPECTED["files"]


def length_prefixed(data: bytes) -> list[bytes]:
    """Splits the Collector's 4-byte big-endian length framing; fails on a torn frame."""
    messages, at = [], 0
    while at < len(data):
        (size,) = struct.unpack(">I", data[at:at + 4])
        assert at + 4 + size <= len(data), f"frame at byte {at} runs past the end"
        messages.append(data[at + 4:at + 4 + size])
        at += 4 + size
    return messages


def decoded_text(name: str) -> str:
    """The file's JSON text after undoing its compression or framing (protobuf is left out)."""
    data = (TRACES / name).read_bytes()
    fmt = FILES[name]["format"]
    if fmt == "otlp-jsonl-gz":
        return gzip.decompress(data).decode("utf-8")
    if fmt == "otlp-jsonl-zst":
        return zstandard.ZstdDecompressor().decompressobj().decompress(data).decode("utf-8")
    if fmt == "otlp-json-zstd-framed":
        decompressor = zstandard.ZstdDecompressor()
        return "\n".join(decompressor.decompress(m).decode("utf-8") for m in length_prefixed(data))
    return data.decode("utf-8")


def json_documents(name: str) -> list[dict]:
    text = decoded_text(name)
    fmt = FILES[name]["format"]
    if fmt.startswith("otlp-json") and fmt not in ("otlp-json", "otlp-json-b64"):  # one request per line
        return [json.loads(line) for line in text.splitlines()]
    if fmt == "console":  # pretty-printed objects back to back, not JSON lines
        decoder, docs, at = json.JSONDecoder(), [], 0
        while at < len(text):
            doc, at = decoder.raw_decode(text, at)
            docs.append(doc)
            while at < len(text) and text[at].isspace():
                at += 1
        return docs
    return [json.loads(text)]


def trace_ids(name: str) -> set[str]:
    fmt = FILES[name]["format"]
    if fmt == "otlp-proto":
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

        ids = set()
        for message in length_prefixed((TRACES / name).read_bytes()):
            request = ExportTraceServiceRequest.FromString(message)
            ids |= {s.trace_id.hex() for rs in request.resource_spans for ss in rs.scope_spans
                    for s in ss.spans}
        return ids
    docs = json_documents(name)
    if fmt == "console":
        return {d["context"]["trace_id"] for d in docs}
    if fmt == "jaeger":
        return {t["traceID"] for d in docs for t in d["data"]}
    if fmt == "tempo":
        return {s["traceId"] for d in docs for b in d["batches"]
                for scope in b["instrumentationLibrarySpans"] for s in scope["spans"]}
    return {s["traceId"] for d in docs for rs in d["resourceSpans"] for ss in rs["scopeSpans"]
            for s in ss["spans"]}


@pytest.mark.parametrize("name", sorted(FILES))
def test_fixture_file_decodes_and_holds_its_traces(name):
    path = TRACES / name
    assert path.stat().st_size > 0
    assert len(trace_ids(name)) == FILES[name]["traces"]


@pytest.mark.parametrize("name", sorted(n for n, f in FILES.items() if f["format"] == "otlp-jsonl"))
def test_jsonl_spreads_each_trace_over_several_lines(name):
    lines_per_trace: dict[str, set[int]] = {}
    for line_no, doc in enumerate(json_documents(name)):
        for rs in doc["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for span in ss["spans"]:
                    lines_per_trace.setdefault(span["traceId"], set()).add(line_no)
    assert any(len(lines) > 1 for lines in lines_per_trace.values())


def test_every_run_has_the_scenarios_the_generator_scripted():
    for run, info in EXPECTED["runs"].items():
        names = [s["scenario"] for s in info["scenarios"]]
        assert names == ["carryover", "accrual", "benefits", "payroll_session", "parallel_tools",
                         "tool_error"], run
        carryover = info["scenarios"][0]["turns"][0]
        assert [c["name"] for c in carryover["tool_calls"]] == ["get_employee_context", "search_hr_policy"]
        assert carryover["model_calls"] == 3
        assert len(info["scenarios"][3]["turns"]) == 2
        assert info["scenarios"][5]["turns"][0]["tool_calls"][0]["error"].startswith("ValueError")
        assert info["adk_version"].startswith("1." if run == "adk1" else "2.")


def test_every_planted_and_kept_value_occurs_in_a_raw_fixture():
    raw = "\n".join(decoded_text(n) for n, f in FILES.items() if f["format"] != "otlp-proto")
    missing = [p["value"] for p in EXPECTED["planted_pii"] if p["value"] not in raw]
    missing += [k for k in EXPECTED["keep"] if k not in raw]
    assert not missing


def test_content_free_runs_hold_no_planted_value():
    # A run marked content=false must really be free of message text, or "capture was off" tests lie.
    personal = [p["value"] for p in EXPECTED["planted_pii"] if len(p["value"]) > 8]
    for name, info in FILES.items():
        if not info["content"] and info["format"] != "otlp-proto":
            text = decoded_text(name)
            assert [v for v in personal if v in text] == [], name
