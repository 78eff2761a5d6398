"""Jaeger query-API JSON: `{"data":[{traceID, spans, processes}]}` (µs times, typed tags, logs).

The OTel→Jaeger translation moves span facts into tags (`otel.scope.name`, `span.kind`,
`otel.status_code`, ...); they are moved back here so a Jaeger span equals the OTLP span it came from.
Arrays arrive as JSON strings and stay strings: only the turn builder knows where an array is expected.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from promote.ingest.formats.base import JsonCodec, Path, StringSlot, norm_id, note, safe_id, to_int
from promote.trace_model import Skipped, Span

_SPAN_FACT_TAGS = frozenset(
    {"otel.scope.name", "otel.scope.version", "otel.library.name", "otel.library.version", "span.kind",
     "otel.status_code", "otel.status_description", "internal.span.format", "w3c.tracestate"}
)
_KINDS = {"internal": "INTERNAL", "server": "SERVER", "client": "CLIENT", "producer": "PRODUCER", "consumer": "CONSUMER"}


def tag_value(tag: dict) -> Any:
    value = tag.get("value")
    kind = str(tag.get("type", "string")).lower()
    if kind == "int64":
        return to_int(value)
    if kind == "float64":
        return float(value)
    if kind == "bool":
        return value if isinstance(value, bool) else str(value).lower() == "true"
    return value


def tags(items: Any) -> dict[str, Any]:
    return {tag["key"]: tag_value(tag) for tag in items or () if isinstance(tag, dict) and "key" in tag}


class JaegerCodec(JsonCodec):
    """Jaeger query-API JSON documents."""

    def check(self, doc: Any) -> str | None:
        if isinstance(doc, dict) and isinstance(doc.get("data"), list):
            return None
        return "not a Jaeger query-API document (no data list)"

    def spans(self, doc: dict, where: str, skipped: list[Skipped] | None) -> Iterator[Span]:
        for trace in doc["data"]:
            if not isinstance(trace, dict):
                note(skipped, where, "a Jaeger trace that is not a JSON object")
                continue
            processes = trace.get("processes") or {}
            for span in trace.get("spans") or ():
                converted = self._span(span, trace, processes, where, skipped)
                if converted is not None:
                    yield converted

    def _span(self, span: Any, trace: dict, processes: dict, where: str, skipped: list[Skipped] | None) -> Span | None:
        if not isinstance(span, dict):
            note(skipped, where, "a Jaeger span that is not a JSON object")
            return None
        name = span.get("operationName") or ""
        try:
            trace_id = norm_id(span.get("traceID") or trace.get("traceID"), 16)
            span_id = norm_id(span.get("spanID"), 8)
            parent_id = next(
                (norm_id(ref.get("spanID"), 8) for ref in span.get("references") or () if ref.get("refType") == "CHILD_OF"),
                None,
            ) or norm_id(span.get("parentSpanID"), 8)
        except (ValueError, AttributeError) as error:
            note(skipped, where, f"span {name!r}: {error}")
            return None
        if trace_id is None or span_id is None:
            note(skipped, where, f"span {name!r} has no {'trace id' if trace_id is None else 'span id'}")
            return None
        process = span.get("process")
        if not isinstance(process, dict):
            process = processes.get(span.get("processID"))
        if not isinstance(process, dict):
            note(skipped, where, f"span {name!r} ({span_id}) names process {span.get('processID')!r}, which the "
                 "file does not list; read with service unknown")
            process = {}
        try:
            span_tags = tags(span.get("tags"))
            resource = tags(process.get("tags"))
            if process.get("serviceName"):
                resource = {"service.name": process["serviceName"], **resource}
            start_us = to_int(span.get("startTime"))
            status = str(span_tags.get("otel.status_code", "")).upper()
            if status == "ERROR" or (not status and span_tags.get("error") is True):
                status = "ERROR"
                if span_tags.get("error") is True:
                    del span_tags["error"]
            return Span(
                trace_id=trace_id,
                span_id=span_id,
                parent_span_id=parent_id,
                name=name,
                kind=_KINDS.get(str(span_tags.get("span.kind", "internal")).lower(), "UNSPECIFIED"),
                start_ns=start_us * 1000,
                end_ns=(start_us + to_int(span.get("duration"))) * 1000,
                status_code=status if status in ("OK", "ERROR") else "UNSET",
                status_message=span_tags.get("otel.status_description") or None,
                attributes={key: value for key, value in span_tags.items() if key not in _SPAN_FACT_TAGS},
                events=[_event(log) for log in span.get("logs") or ()],
                resource=resource,
                scope_name=span_tags.get("otel.scope.name") or span_tags.get("otel.library.name"),
                scope_version=span_tags.get("otel.scope.version") or span_tags.get("otel.library.version"),
                where=where,
            )
        except (TypeError, ValueError, AttributeError) as error:
            note(skipped, where, f"span {name!r} ({span_id}): malformed field ({error})")
            return None

    def slots(self, doc: dict) -> Iterator[tuple[StringSlot, Path]]:
        for trace_index, trace in enumerate(doc["data"]):
            if not isinstance(trace, dict):
                continue
            trace_path: Path = ("data", trace_index)
            trace_id = safe_id(trace.get("traceID"), 16)
            for pid, process in (trace.get("processes") or {}).items():
                if isinstance(process, dict):
                    yield from _tag_slots(process.get("tags"), (*trace_path, "processes", pid, "tags"), (trace_id, None, None), "resource")
            for span_index, span in enumerate(trace.get("spans") or ()):
                if not isinstance(span, dict):
                    continue
                path = (*trace_path, "spans", span_index)
                owner = (safe_id(span.get("traceID"), 16) or trace_id, safe_id(span.get("spanID"), 8), span.get("operationName"))
                yield from _tag_slots(span.get("tags"), (*path, "tags"), owner, "span")
                if isinstance(span.get("process"), dict):
                    yield from _tag_slots(span["process"].get("tags"), (*path, "process", "tags"), owner[:1] + (None, None), "resource")
                for log_index, log in enumerate(span.get("logs") or ()):
                    # the `event` field is the event's name, not a value
                    yield from _tag_slots(log.get("fields"), (*path, "logs", log_index, "fields"), owner, "event", skip_event=True)


def _event(log: dict) -> dict[str, Any]:
    """A Jaeger log as SpanEvent fields: the `event` field is the name."""
    fields = tags(log.get("fields"))
    name = fields.pop("event", "") if isinstance(fields.get("event", ""), str) else ""
    timestamp = to_int(log.get("timestamp"))
    return dict(name=name, time_ns=timestamp * 1000 or None, attributes=fields)



def _tag_slots(items: Any, path: Path, owner: tuple, kind: str, skip_event: bool = False) -> Iterator[tuple[StringSlot, Path]]:
    for index, tag in enumerate(items or ()):
        if not isinstance(tag, dict) or not isinstance(tag.get("value"), str):
            continue
        if str(tag.get("type", "string")).lower() != "string":
            continue
        key = str(tag.get("key"))
        if kind == "span" and key in _SPAN_FACT_TAGS:
            if key == "otel.status_description":
                yield StringSlot(*owner, "status", "status.message", tag["value"]), (*path, index, "value")
            continue
        if skip_event and key == "event":
            continue
        yield StringSlot(*owner, kind, key, tag["value"]), (*path, index, "value")
