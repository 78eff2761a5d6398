"""Jaeger query-API JSON: `{"data":[{traceID, spans, processes}]}` (µs times, typed tags, logs).

The OTel→Jaeger translation moves span facts into tags (`otel.scope.name`, `span.kind`,
`otel.status_code`, ...); they are moved back here so a Jaeger span equals the OTLP span it came from.
Arrays arrive as JSON strings and stay strings: only the turn builder knows where an array is expected.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from promote.ingest.formats.base import (JsonCodec, Path, StringSlot, decode_base64_text, json_slots, norm_id,
                                         note, safe_id, to_int)
from promote.trace_model import Skipped, Span

_SPAN_FACT_TAGS = frozenset(
    {"otel.scope.name", "otel.scope.version", "otel.library.name", "otel.library.version", "span.kind",
     "otel.status_code", "otel.status_description", "internal.span.format", "w3c.tracestate"}
)
_KINDS = {"internal": "INTERNAL", "server": "SERVER", "client": "CLIENT", "producer": "PRODUCER",
          "consumer": "CONSUMER"}


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

    def _span(
        self, span: Any, trace: dict, processes: dict, where: str, skipped: list[Skipped] | None
    ) -> Span | None:
        if not isinstance(span, dict):
            note(skipped, where, "a Jaeger span that is not a JSON object")
            return None
        name = span.get("operationName") or ""
        try:
            trace_id = norm_id(span.get("traceID") or trace.get("traceID"), 16)
            span_id = norm_id(span.get("spanID"), 8)
            parent_id = next(
                (norm_id(ref.get("spanID"), 8) for ref in span.get("references") or ()
                 if ref.get("refType") == "CHILD_OF"),
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
            note(skipped, where,
                 f"span {name!r} ({span_id}) names process {span.get('processID')!r}, which the "
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
        """Every string and number of the document (fail closed: see `StringSlot`), in document order."""
        yield from _unknown(doc, ("data",), (), (None, None, None, "request"))
        for trace_index, trace in enumerate(doc["data"]):
            trace_path: Path = ("data", trace_index)
            if not isinstance(trace, dict):
                yield from json_slots(trace, None, trace_path, (None, None, None, "request"))
                continue
            trace_id = safe_id(trace.get("traceID"), 16)
            trace_owner = (trace_id, None, None, "resource")
            yield from _unknown(trace, ("traceID", "spans", "processes"), trace_path, trace_owner)
            yield from _fields(trace, ("traceID",), trace_path, trace_owner)
            processes = trace.get("processes")
            if isinstance(processes, dict):
                for pid, process in processes.items():
                    yield (
                        StringSlot(*trace_owner, None, pid, field="processID", form="key"),
                        (*trace_path, "processes", pid),
                    )
                    yield from _process_slots(process, pid, (*trace_path, "processes", pid), trace_owner)
            elif processes is not None:
                yield from json_slots(processes, None, (*trace_path, "processes"), trace_owner)
            spans = trace.get("spans")
            for span_index, span in enumerate(spans if isinstance(spans, list) else ()):
                path = (*trace_path, "spans", span_index)
                if not isinstance(span, dict):
                    yield from json_slots(span, None, path, trace_owner)
                    continue
                owner = (safe_id(span.get("traceID"), 16) or trace_id, safe_id(span.get("spanID"), 8),
                         span.get("operationName"))
                span_owner = (*owner, "span")
                yield from _unknown(span,
                                    (*_SPAN_FIELDS, "operationName", "references", "tags", "logs", "process"),
                                    path, span_owner)
                yield from _fields(span, _SPAN_FIELDS, path, span_owner)
                if "operationName" in span:
                    yield from json_slots(span["operationName"], None, (*path, "operationName"), span_owner)
                references = span.get("references")
                for index, ref in enumerate(references if isinstance(references, list) else ()):
                    ref_path = (*path, "references", index)
                    if isinstance(ref, dict):
                        yield from _unknown(ref, _REF_FIELDS, ref_path, span_owner)
                        yield from _fields(ref, _REF_FIELDS, ref_path, span_owner)
                    else:
                        yield from json_slots(ref, None, ref_path, span_owner)
                yield from _tag_slots(span.get("tags"), (*path, "tags"), owner, "span")
                if "process" in span:
                    yield from _process_slots(span["process"], "process", (*path, "process"),
                                              owner[:1] + (None, None, "resource"))
                logs = span.get("logs")
                for log_index, log in enumerate(logs if isinstance(logs, list) else ()):
                    log_path = (*path, "logs", log_index)
                    if not isinstance(log, dict):
                        yield from json_slots(log, None, log_path, (*owner, "event"))
                        continue
                    yield from _unknown(log, ("timestamp", "fields"), log_path, (*owner, "event"))
                    yield from _fields(log, ("timestamp",), log_path, (*owner, "event"))
                    yield from _tag_slots(log.get("fields"), (*log_path, "fields"), owner, "event")


_SPAN_FIELDS = ("traceID", "spanID", "parentSpanID", "flags", "startTime", "duration", "processID")
_REF_FIELDS = ("refType", "traceID", "spanID")


def _fields(obj: dict, names: tuple[str, ...], path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    """Structural fields: offered with their field name (the policy keeps them when they have its shape)."""
    for name in names:
        value = obj.get(name)
        if isinstance(value, (str, int, float)) and type(value) is not bool:
            yield (
                StringSlot(*owner, None, value, field=name, form="text" if type(value) is str else "number"),
                (*path, name),
            )
        elif value is not None and type(value) is not bool:
            yield from json_slots(value, name, (*path, name), owner)


def _unknown(
    obj: dict, known: tuple[str, ...], path: Path, owner: tuple
) -> Iterator[tuple[StringSlot, Path]]:
    for name, value in obj.items():
        if name not in known:
            yield from json_slots(value, name, (*path, name), owner)
            yield StringSlot(*owner, None, name, field="key", form="key"), (*path, name)


def _process_slots(process: Any, pid: str, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    if not isinstance(process, dict):  # not a process: a value under its id, which may be a personal key
        yield from json_slots(process, pid, path, owner)
        return
    yield from _unknown(process, ("serviceName", "tags"), path, owner)
    if "serviceName" in process:
        yield from json_slots(process["serviceName"], "service.name", (*path, "serviceName"), owner)
    yield from _tag_slots(process.get("tags"), (*path, "tags"), owner[:3], "resource")


def _event(log: dict) -> dict[str, Any]:
    """A Jaeger log as SpanEvent fields: the `event` field is the name."""
    fields = tags(log.get("fields"))
    name = fields.pop("event", "") if isinstance(fields.get("event", ""), str) else ""
    timestamp = to_int(log.get("timestamp"))
    return dict(name=name, time_ns=timestamp * 1000 or None, attributes=fields)



def _tag_slots(items: Any, path: Path, owner: tuple, kind: str) -> Iterator[tuple[StringSlot, Path]]:
    """A tag list: each tag's key, type and value (typed values in the form their type needs)."""
    owner = (*owner[:3], kind)
    if not isinstance(items, list):
        if items is not None:
            yield from json_slots(items, None, path, owner)
        return
    for index, tag in enumerate(items):
        tag_path = (*path, index)
        if not isinstance(tag, dict) or type(tag.get("key")) is not str:
            yield from json_slots(tag, None, tag_path, owner)
            continue
        key, value = tag["key"], tag.get("value")
        kind_name = str(tag.get("type", "string")).lower()
        yield from _unknown(tag, ("key", "type", "value"), tag_path, owner)
        yield from _fields(tag, ("type",), tag_path, owner)
        if kind == "span" and key == "otel.status_description":
            key, owner_here = "status.message", (*owner[:3], "status")
        elif key in ("event", "w3c.tracestate"):
            key, owner_here = None, owner  # an event's name, the trace state: texts under no key
        else:
            owner_here = owner
        if kind_name in ("int64", "float64") and type(value) in (int, float):
            yield StringSlot(*owner_here, key, value, form="jaeger_tag"), tag_path
        elif kind_name == "int64" and type(value) is str and value.lstrip("-").isdigit():
            yield StringSlot(*owner_here, key, int(value), form="jaeger_tag"), tag_path
        elif kind_name == "bool" and type(value) is bool:
            pass
        elif kind_name == "binary" and type(value) is str:
            yield StringSlot(*owner_here, key, decode_base64_text(value), form="base64"), (*tag_path, "value")
        elif "value" in tag:
            yield from json_slots(value, key, (*tag_path, "value"), owner_here)
        yield StringSlot(*owner, None, tag["key"], field="key"), (*tag_path, "key")
