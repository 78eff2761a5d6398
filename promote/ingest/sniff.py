"""What an export is, from its first bytes: its compression, format and framing (never its name).

`sniff` reads at most the first record (or, for a pretty-printed document, the keys near its start);
the reader then opens the export with the codec of the format found.
"""

from __future__ import annotations

import io
import json
import re
import struct
from typing import BinaryIO

from promote.errors import PromoteError
from promote.ingest.compression import decompressed, sniff_compression
from promote.ingest.containers import (
    MAX_MESSAGE,
    Frame,
    Replay,
    iter_length_prefixed,
    read_head,
)
from promote.ingest.formats.otlp_proto import looks_like_request
from promote.trace_formats import FORMAT_NAMES

FORMATS = tuple(FORMAT_NAMES)
COMPRESSIONS = (None, "gzip", "zstd", "zstd-framed")
NOTHING_FOUND = (
    "no trace data found: not OTLP JSON/JSON lines/protobuf, Jaeger, Tempo, console output, a Monocle "
    "JSON array or a Langfuse trace export"
)
_MONOCLE_MARK = b'"monocle_apptrace.'
_HEAD = 1 << 20
_MAX_FIRST_LINE = 64 << 20
_KEY = re.compile(rb'"([A-Za-z_][A-Za-z0-9_.]*)"\s*:')
_ADK_DEV_ID = re.compile(rb'"span_id"\s*:\s*\d')


def sniff(name: str, raw: BinaryIO) -> tuple[str, str | None, str]:
    """(format, compression, framing) of an export, from its first bytes (never its name).

    Raises PromoteError, naming the file, when it is empty, unreadable or no known trace format.
    """
    magic, _ = read_head(raw, 8)
    compression = sniff_compression(magic)
    stream = io.BufferedReader(Replay(magic, raw))  # type: ignore[arg-type]
    if compression == "zstd-framed":
        first = next(iter_length_prefixed(stream, zstd_frames=True), None)
        if isinstance(first, Frame):
            kind = _sniff_content(first.raw, complete=True)
            if kind is not None:
                format, _ = kind
                return ("otlp-jsonl" if format == "otlp-json" else format), compression, "length-prefixed"
        raise PromoteError(NOTHING_FOUND, where=name,
                           hint="the file looks like zstd frames behind length prefixes, but the first "
                                "frame holds no traces")
    content = decompressed(stream, compression)
    head, error = read_head(content, _HEAD)
    while (
        error is None
        and len(head) < _MAX_FIRST_LINE
        and b"\n" not in head.strip()
        and len(head) % _HEAD == 0
        and head
    ):
        more, error = read_head(content, len(head))
        if not more:
            break
        head += more
    complete = error is None and len(head) % _HEAD != 0
    if not head.strip() and error is not None:
        raise PromoteError(f"cannot read: {error}; nothing readable comes before that point", where=name,
                           hint="the file was cut or damaged in transfer: export it again")
    if not head.strip():
        raise PromoteError("empty file" + (" after decompression" if compression else ""), where=name,
                           hint="the exporter wrote nothing here; check its output path")
    kind = _sniff_content(head, complete)
    if kind is None and not head.lstrip()[:1] in (b"{", b"["):
        kind = _sniff_proto(head, content)
    if kind is None:
        raise PromoteError(NOTHING_FOUND, where=name, hint="see `promote traces --help` for the formats read")
    format, framing = kind
    return format, compression, framing


def _sniff_proto(head: bytes, content: BinaryIO) -> tuple[str, str] | None:
    if len(head) < 5:
        return None
    (length,) = struct.unpack(">I", head[:4])
    # An ExportTraceServiceRequest opens with field 1 (resource_spans, length-delimited): tag 0x0a.
    # Checking it first keeps random bytes from making us read a "message" of up to 1 GiB.
    if not 0 < length <= MAX_MESSAGE or head[4] != 0x0A:
        return None
    if len(head) - 4 < length:
        more, _ = read_head(content, length - (len(head) - 4))
        head += more
    return ("otlp-proto", "length-prefixed") if looks_like_request(head[4 : 4 + length]) else None


def _sniff_content(head: bytes, complete: bool) -> tuple[str, str] | None:
    """(format, framing) of decompressed text, or None when it is not a known JSON shape."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:1] not in (b"{", b"["):
        return None
    lines = text.split(b"\n", 64)
    whole_lines = lines if complete else lines[:-1]
    filled = [line for line in whole_lines[:64] if line.strip()]
    for line in filled:
        try:
            doc = json.loads(line)
        except RecursionError:
            continue
        except ValueError:
            if line.strip() in (b"{", b"["):
                break  # a pretty-printed document
            continue
        family = _family(doc)
        if family is None:
            continue
        if family == "console" and _MONOCLE_MARK in text[:_HEAD]:
            family = "monocle"
        if isinstance(doc, list):
            return family, "values"
        if family == "otlp-json":
            return ("otlp-json" if complete and len(filled) == 1 else "otlp-jsonl"), "lines"
        return family, "lines"
    family = _family_from_keys(text[:_HEAD])
    if family == "console" and text[:1] == b"[" and _MONOCLE_MARK in text[:_HEAD]:
        family = "monocle"
    return (family, "values") if family else None


def _family(doc: object) -> str | None:
    if isinstance(doc, list):
        return next((_family(item) for item in doc[:1] if isinstance(item, dict)), None)
    if not isinstance(doc, dict):
        return None
    if "batches" in doc:
        return "tempo"
    if any(key in doc for key in ("resourceSpans", "resource_spans", "scopeSpans", "scope_spans",
                                  "instrumentationLibrarySpans")):
        return "otlp-json"
    if isinstance(doc.get("data"), list):
        return "jaeger"
    if isinstance(doc.get("context"), dict):
        return "console"
    if isinstance(doc.get("observations"), list) and (isinstance(doc.get("trace"), dict) or "id" in doc):
        return "langfuse"  # {"trace", "observations"}, or the API's TraceWithFullDetails
    if "span_id" in doc and "trace_id" in doc:
        return "adk-dev"
    return None


def _family_from_keys(text: bytes) -> str | None:
    """The format of a pretty-printed document from the keys near its start."""
    keys = [match.group(1) for match in _KEY.finditer(text, 0, 1 << 16)]
    first = keys[0] if keys else b""
    if first == b"batches":
        return "tempo"
    if first in (b"resourceSpans", b"resource_spans", b"resource"):
        return "otlp-json"
    if first == b"data" and b"traceID" in keys:
        return "jaeger"
    if b"context" in keys and b"trace_id" in keys:
        return "console"
    if b"observations" in keys and (first in (b"trace", b"observations") or b"parentObservationId" in keys):
        return "langfuse"
    if _ADK_DEV_ID.search(text, 0, 1 << 16):
        return "adk-dev"
    return None
