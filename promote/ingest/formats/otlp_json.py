"""OTLP JSON (ExportTraceServiceRequest / TracesData), its JSON-lines form and Grafana Tempo exports.

Accepts every spelling seen in real files (trace-formats.md §1.2): camelCase and snake_case keys,
`batches` (Tempo) for `resourceSpans`, one bare ResourceSpans per line (pre-release json-file exporter),
`instrumentationLibrarySpans`/`instrumentationLibrary` for `scopeSpans`/`scope`, ids as hex or base64,
enums as numbers or names, int64 as strings or numbers.

The request's spellings and shape live in `otlp_json_request`, its string slots in `otlp_json_slots`;
this module is the codec that joins them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from promote.ingest.formats.base import JsonCodec, Path, StringSlot, note, safe_id, to_int
from promote.ingest.formats.otlp_json_request import (
    REQUEST_KEYS,
    SCOPE_KEYS,
    SCOPE_SPANS_KEYS,
    KINDS,
    STATUS_CODES,
    first_of,
    get_either,
    has_ids,
    span_ids,
    attributes,
    enum_name,
    resource_blocks,
    scope_blocks,
    shape_problem,
)
from promote.ingest.formats.otlp_json_slots import request_slots
from promote.trace_model import Skipped, Span


class OtlpJsonCodec(JsonCodec):
    """OTLP JSON requests (also Tempo `batches` and bare ResourceSpans lines)."""

    def check(self, doc: Any) -> str | None:
        if not isinstance(doc, dict):
            return "not an OTLP JSON object"
        if first_of(doc, REQUEST_KEYS)[0] or first_of(doc, SCOPE_SPANS_KEYS)[0]:
            return shape_problem(doc)
        return "not an OTLP trace request (no resourceSpans)"

    def spans(self, doc: dict, where: str, skipped: list[Skipped] | None) -> Iterator[Span]:
        for _, block in resource_blocks(doc):
            resource = attributes((block.get("resource") or {}).get("attributes"))
            for _, scope_spans in scope_blocks(block):
                scope = first_of(scope_spans, SCOPE_KEYS)[1] or {}
                for span in scope_spans.get("spans") or ():
                    converted = self._span(span, where, skipped, resource, scope)
                    if converted is not None:
                        yield converted

    def _span(
        self, span: Any, where: str, skipped: list[Skipped] | None, resource: dict, scope: dict
    ) -> Span | None:
        if not isinstance(span, dict):
            note(skipped, where, "a span that is not a JSON object")
            return None
        name = span.get("name") or ""
        try:
            trace_id, span_id, parent_id = span_ids(span)
        except ValueError as error:
            note(skipped, where, f"span {name!r}: {error}")
            return None
        if trace_id is None or span_id is None:
            missing = "trace id" if trace_id is None else "span id"
            note(skipped, where, f"span {name!r} has no {missing}")
            return None
        status = span.get("status") or {}
        try:
            events = [
                dict(name=event.get("name") or "",
                    time_ns=to_int(get_either(event, "timeUnixNano", "time_unix_nano")) or None,
                    attributes=attributes(event.get("attributes")),
                )
                for event in span.get("events") or ()
            ]
            return Span(
                trace_id=trace_id,
                span_id=span_id,
                parent_span_id=parent_id,
                name=name,
                kind=enum_name(span.get("kind"), KINDS, "SPAN_KIND_", "UNSPECIFIED"),
                start_ns=to_int(get_either(span, "startTimeUnixNano", "start_time_unix_nano")),
                end_ns=to_int(get_either(span, "endTimeUnixNano", "end_time_unix_nano")),
                status_code=enum_name(status.get("code"), STATUS_CODES, "STATUS_CODE_", "UNSET"),
                status_message=status.get("message") or None,
                attributes=attributes(span.get("attributes")),
                events=events,
                resource=resource,
                scope_name=scope.get("name") or None,
                scope_version=scope.get("version") or None,
                where=where,
            )
        except (TypeError, ValueError, AttributeError) as error:
            note(skipped, where, f"span {name!r} ({span_id}): malformed field ({error})")
            return None

    def count_spans(self, doc: dict) -> int:
        """The spans `spans` gives, counted without building them: span objects with valid ids."""
        count = 0
        for _, block in resource_blocks(doc):
            for _, scope_spans in scope_blocks(block):
                for span in scope_spans.get("spans") or ():
                    if isinstance(span, dict) and has_ids(span):
                        count += 1
        return count

    def trace_ids(self, doc: dict) -> set[str | None]:
        """The trace ids of the record's spans (what the batch scrubber groups by), without walking values."""
        return {
            safe_id(get_either(span, "traceId", "trace_id"), 16)
            for _, block in resource_blocks(doc)
            for _, scope_spans in scope_blocks(block)
            for span in scope_spans.get("spans") or ()
            if isinstance(span, dict)
        }

    def slots(self, doc: dict) -> Iterator[tuple[StringSlot, Path]]:
        """Every string and number of the request (fail closed: see `StringSlot`), in document order."""
        return iter(request_slots(doc))
