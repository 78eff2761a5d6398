"""A JSON record with a key twice: the decoder keeps the last copy, the bytes hold both, so the record is
written anew from what was scrubbed (`RecordCodec.hidden`). The check is read off the bytes where they say
it plainly, and decoded again where they do not; both answers must be the exact one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promote.ingest.formats.base import JsonCodec, has_duplicate_keys, raw_members
from promote.ingest.reader import object_members

ROOT = Path(__file__).resolve().parent.parent
PLANTED = "Gregory Hallman, SSN 512-44-7723"


def _export(separators: tuple[str, str], value: str, indent: int | None = None) -> str:
    # one OTLP JSON request, as an exporter writes it, whose only attribute holds nothing to replace; the
    # attribute's value is given twice, `value` first
    span = {"traceId": "0123456789abcdef0123456789abcdef", "spanId": "0123456789abcdef", "name": "call_llm",
            "kind": 1, "startTimeUnixNano": "1", "endTimeUnixNano": "2",
            "attributes": [{"key": "gen_ai.system", "value": {"stringValue": "gemini"}}]}
    request = json.dumps({"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [
        {"scope": {"name": "google-adk"}, "spans": [span]}]}]}, separators=separators, indent=indent)
    last = f'"stringValue"{separators[1]}"gemini"'
    return request.replace(last, f'"stringValue"{separators[1]}{json.dumps(value)}, {last}')


# `"key" : value` (a space before the colon) once hid the duplicate: the record was copied as it came.
EXPORTS = {
    **{f"lines{n}.otlp.jsonl": _export(separators, PLANTED) + "\n"
       for n, separators in enumerate(((",", ":"), (", ", ": "), (", ", " : "), (",", "\t:")))},
    "pretty.otlp.json": _export((",", " : "), PLANTED, indent=2),
    "array.json": "[" + _export((", ", " : "), PLANTED) + "]",
}


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_a_duplicate_keys_first_copy_is_never_written_whatever_the_spacing(tmp_path: Path, name: str) -> None:
    export = tmp_path / name
    export.write_text(EXPORTS[name])
    out = tmp_path / f"out-{name}"
    done = subprocess.run([sys.executable, "-m", "promote", "scrub", str(export), "-o", str(out),
                           "--workers", "1", "--force"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    written = out.read_text()
    assert "Hallman" not in written and "7723" not in written
    assert '"gemini"' in written and "call_llm" in written


_TEXT = st.text(alphabet=st.sampled_from(list('ab": \\\t{}[],\n') + ["é", "\u2028"]), max_size=8)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | _TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_TEXT, children, max_size=3),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(doc=st.dictionaries(_TEXT, _JSON, min_size=1, max_size=4), twice=st.booleans(),
       spaced=st.sampled_from([(",", ":"), (", ", ": "), (", ", " : ")]), ascii_only=st.booleans())
def test_keys_read_off_the_bytes_answer_as_a_second_decode_does(doc, twice, spaced, ascii_only) -> None:
    text = json.dumps(doc, separators=spaced, ensure_ascii=ascii_only)
    if twice:  # the first key written a second time, first: the decoder keeps the later copy
        key = next(iter(doc))
        text = "{" + json.dumps(key) + spaced[1] + '"first copy"' + spaced[0] + text[1:]
    raw = text.encode("utf-8")
    decoded = json.loads(raw)
    members = object_members(decoded, 64)
    assert JsonCodec().hidden(decoded, raw, members=members) == has_duplicate_keys(raw) == twice
    counted = raw_members(raw)  # never fewer than the members, and as many only without a duplicate
    assert counted is None or (counted >= members and (counted > members or not twice))
