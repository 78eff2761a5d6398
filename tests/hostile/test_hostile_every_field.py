"""Every string a protobuf or console export can hold is scrubbed (issue 11, fail closed).

The every-leaf test plants into JSON documents; these formats are not one: a protobuf request has string
fields a fixture leaves empty (a span's `trace_state`, a scope's `version`, a status without a message)
and bytes fields (ids, `bytes_value`), and a console export is a run of span objects. A sentence naming a
made-up person, and an SSN in base64, replace one such field at a time (every field of every message
present, set or not); all copies are scrubbed in one run and neither value may be left.
"""

from __future__ import annotations

from pathlib import Path

from corpora.planting import DISGUISES, VALUES, leaked, output_text, scrub_all
from corpora.planting_records import plant_every_record_field
from tests.conftest import TRACES

EXPORTS = ["adk2.otlp.pb", "adk2-default.otlp.pb", "adk2.console.log"]
CARRIERS = {"name": f"Ticket opened by {VALUES['name']} today", "ssn": DISGUISES["base64"](VALUES["ssn"])}


def test_a_value_at_any_field_of_a_protobuf_or_console_export_is_removed(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    planted = plant_every_record_field([TRACES / name for name in EXPORTS], CARRIERS, tmp_path / "in")
    shapes = {(name, shape) for name, shape, _ in planted}
    # the empty and the bytes fields are planted too, not only the strings the fixture holds
    assert any(shape[-1] == "trace_state" for _, shape in shapes)
    assert any(shape[-1] == "bytes_value" for _, shape in shapes)
    assert any(name.endswith(".log") for name, _ in shapes) and len(planted) > 120
    outputs = scrub_all(planted, tmp_path / "out")
    leaks = [(name, "/".join(map(str, shape)), kind) for (name, shape, kind), output in outputs.items()
             if leaked(output_text(output), {kind: VALUES[kind]}, (CARRIERS[kind],))]
    assert leaks == [], "\n".join(map(str, leaks))


def _with_ids(tmp_path: Path, trace_id: bytes, span_id: bytes) -> tuple[Path, Path]:
    from promote.ingest import Record, open_export, write_export

    source = TRACES / "adk2.otlp.pb"
    records = list(open_export(source).records())
    doc = records[0].doc
    span = doc.resource_spans[0].scope_spans[0].spans[0]
    span.trace_id, span.span_id = trace_id, span_id
    records[0] = Record(records[0].where, doc.SerializeToString(), doc, records[0].prefix)
    planted, out = tmp_path / "in.otlp.pb", tmp_path / "out.otlp.pb"
    write_export(records, planted, format="otlp-proto", compression=None)
    from promote.batch.run import ScrubOptions, scrub_exports

    scrub_exports([str(planted)], str(out), ScrubOptions(workers=1))
    return planted, out


def _first_span(path: Path):  # noqa: ANN202 - a protobuf Span
    from promote.ingest import open_export

    return next(iter(open_export(path).records())).doc.resource_spans[0].scope_spans[0].spans[0]


def test_protobuf_ids_are_kept_and_texts_in_their_place_are_not(tmp_path: Path) -> None:
    # random ids, and a printable id with nothing personal in it, come out as they went in
    kept = ((bytes(range(200, 216)), bytes(range(1, 9))), (b"0123456789abcdef", b"zq8Jx2Lm"))
    for trace_id, span_id in kept:
        _, out = _with_ids(tmp_path, trace_id, span_id)
        span = _first_span(out)
        assert (span.trace_id, span.span_id) == (trace_id, span_id)
    # an SSN in base64 has an id's 16 bytes; a sentence has not: neither is written
    ssn, sentence = DISGUISES["base64"](VALUES["ssn"]).encode(), CARRIERS["name"].encode()
    assert len(ssn) == 16
    _, out = _with_ids(tmp_path, ssn, sentence)
    assert not leaked(output_text(out), {"ssn": VALUES["ssn"], "name": VALUES["name"]}, (CARRIERS["name"],))
    assert _first_span(out).trace_id != ssn
