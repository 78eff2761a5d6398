"""Every export format reads to the same spans, and rewriting + writing round-trips byte for byte.

The fixture exports in fixtures/traces/ are the same agent runs written in several formats
(expected.json says which file is which); each is compared with the run's plain OTLP JSON.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
import zstandard

from promote.ingest import StringSlot, iter_spans, open_export
from promote.trace_model import Span
from tests.ingest_exports import FILES, TRACES, rewrite_file

COARSE_TIME_NS = {"jaeger": 2_000, "console": 1_000, "tempo": 1_000}
"""Jaeger and console keep microseconds; Tempo writes times as float-rounded JSON numbers."""


def reference_file(run: str) -> str:
    """The run's plain OTLP JSON export (the JSON-lines file when the run has no single document)."""
    candidates = [name for name, info in FILES.items() if info["run"] == run
                  and info["format"].startswith("otlp-json")]
    return min(candidates, key=lambda name: (FILES[name]["format"] != "otlp-json",
                                             FILES[name]["compression"] is not None))


def spans_by_id(name: str) -> dict[str, Span]:
    spans = list(iter_spans([TRACES / name]))
    by_id = {span.span_id: span for span in spans}
    assert len(by_id) == len(spans), "a span id was read twice"
    return by_id


def same_value(expected: object, got: object) -> bool:
    """Equal, allowing the array-as-JSON-string flattening of Jaeger/Tempo round trips."""
    if isinstance(expected, list) and isinstance(got, str):
        try:
            return json.loads(got) == expected
        except ValueError:
            return False
    return expected == got


def assert_same_span(expected: Span, got: Span, family: str) -> None:
    assert (got.trace_id, got.parent_span_id, got.name) == (expected.trace_id, expected.parent_span_id,
                                                            expected.name)
    assert (got.kind, got.status_code, got.status_message) == (expected.kind, expected.status_code,
                                                               expected.status_message)
    tolerance = COARSE_TIME_NS.get(family, 0)
    assert abs(got.start_ns - expected.start_ns) <= tolerance
    assert abs(got.end_ns - expected.end_ns) <= tolerance
    assert got.attributes.keys() == expected.attributes.keys()
    for key, value in expected.attributes.items():
        assert same_value(value, got.attributes[key]), key
    assert got.resource == expected.resource
    assert [(event.name, event.attributes) for event in got.events] == [
        (event.name, event.attributes) for event in expected.events
    ]
    if family != "console":  # console output has no instrumentation scope
        assert (got.scope_name, got.scope_version) == (expected.scope_name, expected.scope_version)


def family_of(name: str) -> str:
    return open_export(TRACES / name).format


@pytest.mark.parametrize("name", sorted(FILES))
def test_fixture_sniffs_as_its_format_and_compression(name: str) -> None:
    info = FILES[name]
    export = open_export(TRACES / name)
    assert export.compression == info["compression"]
    expected_family = (
        info["format"].split("-")[0] if info["format"].startswith(("jaeger", "tempo", "console")) else None
    )
    if expected_family:
        assert export.format == expected_family
    elif info["format"] == "otlp-proto":
        assert export.format == "otlp-proto"
    else:
        assert export.format in ("otlp-json", "otlp-jsonl")


@pytest.mark.parametrize("name", sorted(FILES))
def test_fixture_yields_the_same_spans_as_the_plain_otlp_json(name: str) -> None:
    info = FILES[name]
    expected = spans_by_id(reference_file(info["run"]))
    got = spans_by_id(name)
    assert len({span.trace_id for span in got.values()}) == info["traces"]
    assert got.keys() == expected.keys()
    family = family_of(name)
    for span_id, span in expected.items():
        assert_same_span(span, got[span_id], family)


def decompressed_bytes(data: bytes, compression: str | None) -> list[bytes]:
    """The content: one item for a compressed stream, one per message for zstd-framed."""
    if compression == "gzip":
        return [gzip.decompress(data)]
    if compression == "zstd":
        return [zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True).read()]
    assert compression == "zstd-framed"
    messages, position = [], 0
    while position < len(data):
        length = int.from_bytes(data[position : position + 4], "big")
        messages.append(
            zstandard.ZstdDecompressor()
            .decompressobj()
            .decompress(data[position + 4 : position + 4 + length])
        )
        position += 4 + length
    return messages

@pytest.mark.parametrize("name", sorted(FILES))
def test_identity_rewrite_writes_the_input_back_byte_for_byte(name: str, tmp_path: Path) -> None:
    source = TRACES / name
    export = open_export(source)
    seen: list[StringSlot] = []
    rewrite_file(source, tmp_path / name, lambda slot: seen.append(slot))
    assert seen, "no string values were offered for rewriting"
    written = (tmp_path / name).read_bytes()
    if export.compression is None:
        assert written == source.read_bytes()
    else:
        assert decompressed_bytes(written, export.compression) == decompressed_bytes(
            source.read_bytes(), export.compression
        )
    reread = open_export(tmp_path / name)
    assert (reread.format, reread.compression) == (export.format, export.compression)


def first_text_attribute(name: str) -> tuple[str, str]:
    """(span id, key) of a plain string span attribute holding lower-case letters."""
    for span in iter_spans([TRACES / name]):
        for key, value in span.attributes.items():
            if (
                isinstance(value, str)
                and value != value.upper()
                and not value.lstrip().startswith(("{", "["))
            ):
                return span.span_id, key
    raise AssertionError("no text attribute")


@pytest.mark.parametrize("name", sorted(FILES))
def test_uppercasing_one_attribute_changes_exactly_that_value(name: str, tmp_path: Path) -> None:
    source = TRACES / name
    span_id, key = first_text_attribute(name)

    def upper_one(slot: StringSlot) -> str | None:
        return slot.value.upper() if (slot.owner, slot.span_id, slot.key) == ("span", span_id, key) else None

    rewrite_file(source, tmp_path / name, upper_one)
    before = spans_by_id(name)
    after = {span.span_id: span for span in iter_spans([tmp_path / name])}
    reread = open_export(tmp_path / name)
    export = open_export(source)
    assert (reread.format, reread.compression) == (export.format, export.compression)
    assert after.keys() == before.keys()
    for sid, span in before.items():
        expected = span.model_dump(exclude={"where"})
        if sid == span_id:
            expected["attributes"][key] = expected["attributes"][key].upper()
        assert after[sid].model_dump(exclude={"where"}) == expected
