"""OTLP JSON (ExportTraceServiceRequest / TracesData), its JSON-lines form and Grafana Tempo exports.

Accepts every spelling seen in real files (trace-formats.md §1.2): camelCase and snake_case keys,
`batches` (Tempo) for `resourceSpans`, one bare ResourceSpans per line (pre-release json-file exporter),
`instrumentationLibrarySpans`/`instrumentationLibrary` for `scopeSpans`/`scope`, ids as hex or base64,
enums as numbers or names, int64 as strings or numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from promote.ingest.formats.base import (JsonCodec, Path, StringSlot, decode_base64_text, json_slots, norm_id,
                                         note, safe_id, to_int)
from promote.trace_model import Skipped, Span

_REQUEST_KEYS = ("resourceSpans", "resource_spans", "batches")
_SCOPE_SPANS_KEYS = ("scopeSpans", "scope_spans", "instrumentationLibrarySpans",
                     "instrumentation_library_spans")
_SCOPE_KEYS = ("scope", "instrumentationLibrary", "instrumentation_library")

KINDS = ("UNSPECIFIED", "INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER")
STATUS_CODES = ("UNSET", "OK", "ERROR")

_STRING_KEYS = ("stringValue", "string_value")
_ARRAY_KEYS = ("arrayValue", "array_value")
_KVLIST_KEYS = ("kvlistValue", "kvlist_value")


def _first(obj: dict, keys: tuple[str, ...]) -> tuple[str | None, Any]:
    for key in keys:
        if key in obj:
            return key, obj[key]
    return None, None


def _get(obj: dict, camel: str, snake: str) -> Any:
    value = obj.get(camel)
    return obj.get(snake) if value is None else value


def resource_blocks(doc: dict) -> Iterator[tuple[Path, dict]]:
    """(path, ResourceSpans) of a request, or of a bare ResourceSpans line."""
    key, blocks = _first(doc, _REQUEST_KEYS)
    if key is None:
        yield (), doc
        return
    for index, block in enumerate(blocks or ()):
        if isinstance(block, dict):
            yield (key, index), block


def scope_blocks(block: dict) -> Iterator[tuple[Path, dict]]:
    key, scopes = _first(block, _SCOPE_SPANS_KEYS)
    for index, scope_spans in enumerate(scopes or ()):
        if isinstance(scope_spans, dict):
            yield (key, index), scope_spans


def enum_name(value: Any, names: tuple[str, ...], prefix: str, default: str) -> str:
    """An enum given as a number, a numeric string or a name (`SPAN_KIND_SERVER`, `SERVER`)."""
    if value is None or value == "":
        return default
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        index = int(value)
        return names[index] if 0 <= index < len(names) else default
    name = str(value).upper().removeprefix(prefix)
    return name if name in names else default


def any_value(value: Any) -> Any:
    """Decode an OTLP AnyValue (`{}` is null; bytes stay base64 text)."""
    if not isinstance(value, dict) or not value:
        return None
    text = value.get("stringValue")
    if text is not None:  # by far the most common case
        return text
    for key, item in value.items():
        if key in _STRING_KEYS:
            return item
        if key in ("intValue", "int_value"):
            return to_int(item)
        if key in ("doubleValue", "double_value"):
            return float(item)
        if key in ("boolValue", "bool_value"):
            return item if isinstance(item, bool) else str(item).lower() == "true"
        if key in _ARRAY_KEYS:
            return [any_value(v) for v in (item or {}).get("values") or ()]
        if key in _KVLIST_KEYS:
            return {kv.get("key"): any_value(kv.get("value")) for kv in (item or {}).get("values") or ()}
        if key in ("bytesValue", "bytes_value"):
            return item
    return None


def attributes(items: Any) -> dict[str, Any]:
    """OTLP `[{key, value}]` attributes as a dict of decoded values."""
    decoded = {}
    for kv in items or ():
        try:
            value = kv.get("value")
            text = value.get("stringValue") if type(value) is dict else None
            decoded[kv["key"]] = text if text is not None else any_value(value)
        except (AttributeError, KeyError, TypeError):
            continue  # not a {key, value} pair: nothing to read
    return decoded


def _list_problem(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, list):
        return f"{where} is a {_json_type(value)}, not a list"
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            return f"{where}[{index}] is a {_json_type(item)}, not an object"
    return None


def _json_type(value: Any) -> str:
    return {str: "string", int: "number", float: "number", bool: "boolean", list: "list",
            dict: "object"}.get(type(value), "null")


def shape_problem(doc: dict) -> str | None:
    """What makes a request's structure unreadable (a list that is not a list of objects), or None.

    A record that fails this is skipped with its file:line (and redacted whole by `scrub`) instead of
    being half read: fail closed on structure we do not understand.
    """
    key, blocks = _first(doc, _REQUEST_KEYS)
    if key is None:
        key, blocks = "resourceSpans", [doc]
    if problem := _list_problem(blocks, key):
        return problem
    for b, block in enumerate(blocks or ()):
        resource = block.get("resource")
        if resource is not None and not isinstance(resource, dict):
            return f"{key}[{b}].resource is a {_json_type(resource)}, not an object"
        scopes_key, scopes = _first(block, _SCOPE_SPANS_KEYS)
        if problem := _list_problem(scopes, f"{key}[{b}].{scopes_key}"):
            return problem
        if resource and (problem := _list_problem(resource.get("attributes"),
                                                  f"{key}[{b}].resource.attributes")):
            return problem
        for s, scope_spans in enumerate(scopes or ()):
            if problem := _spans_problem(scope_spans.get("spans"), f"{key}[{b}].{scopes_key}[{s}].spans"):
                return problem
    return None


def _spans_problem(spans: Any, where: str) -> str | None:
    if problem := _list_problem(spans, where):
        return problem
    for n, span in enumerate(spans or ()):
        for part in ("attributes", "events", "links"):
            if problem := _list_problem(span.get(part), f"{where}[{n}].{part}"):
                return problem
        for part in ("events", "links"):
            for e, item in enumerate(span.get(part) or ()):
                if problem := _list_problem(item.get("attributes"), f"{where}[{n}].{part}[{e}].attributes"):
                    return problem
    return None


class OtlpJsonCodec(JsonCodec):
    """OTLP JSON requests (also Tempo `batches` and bare ResourceSpans lines)."""

    def check(self, doc: Any) -> str | None:
        if not isinstance(doc, dict):
            return "not an OTLP JSON object"
        if _first(doc, _REQUEST_KEYS)[0] or _first(doc, _SCOPE_SPANS_KEYS)[0]:
            return shape_problem(doc)
        return "not an OTLP trace request (no resourceSpans)"

    def spans(self, doc: dict, where: str, skipped: list[Skipped] | None) -> Iterator[Span]:
        for _, block in resource_blocks(doc):
            resource = attributes((block.get("resource") or {}).get("attributes"))
            for _, scope_spans in scope_blocks(block):
                scope = _first(scope_spans, _SCOPE_KEYS)[1] or {}
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
            trace_id, span_id, parent_id = _span_ids(span)
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
                    time_ns=to_int(_get(event, "timeUnixNano", "time_unix_nano")) or None,
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
                start_ns=to_int(_get(span, "startTimeUnixNano", "start_time_unix_nano")),
                end_ns=to_int(_get(span, "endTimeUnixNano", "end_time_unix_nano")),
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
                    if isinstance(span, dict) and _has_ids(span):
                        count += 1
        return count

    def trace_ids(self, doc: dict) -> set[str | None]:
        """The trace ids of the record's spans (what the batch scrubber groups by), without walking values."""
        return {
            safe_id(_get(span, "traceId", "trace_id"), 16)
            for _, block in resource_blocks(doc)
            for _, scope_spans in scope_blocks(block)
            for span in scope_spans.get("spans") or ()
            if isinstance(span, dict)
        }

    def slots(self, doc: dict) -> Iterator[tuple[StringSlot, Path]]:
        """Every string and number of the request (fail closed: see `StringSlot`), in document order."""
        request_key = _first(doc, _REQUEST_KEYS)[0]
        if request_key is not None:
            yield from _unknown(doc, (request_key,), (), (None, None, None, "request"))
        for block_path, block in resource_blocks(doc):
            spans = [(path, scope_spans) for path, scope_spans in scope_blocks(block)]
            trace_ids = {
                str(_get(span, "traceId", "trace_id"))
                for _, scope_spans in spans
                for span in scope_spans.get("spans") or ()
                if isinstance(span, dict)
            }
            only_trace = safe_id(trace_ids.pop(), 16) if len(trace_ids) == 1 else None
            owner = (only_trace, None, None, "resource")
            scope_key = _first(block, _SCOPE_SPANS_KEYS)[0]
            yield from _unknown(block, ("resource", scope_key, *_SCHEMA_URL), block_path, owner)
            yield from _fields(block, _SCHEMA_URL, block_path, owner)
            resource = block.get("resource")
            if isinstance(resource, dict):
                yield from _attributes_of(resource, (*block_path, "resource"), owner)
            elif resource is not None:
                yield from json_slots(resource, "resource", (*block_path, "resource"), owner)
            for scope_path, scope_spans in spans:
                yield from _scope_spans_slots(scope_spans, (*block_path, *scope_path), only_trace)


_SCHEMA_URL = ("schemaUrl", "schema_url")
_DROPPED = ("droppedAttributesCount", "dropped_attributes_count")
_SPAN_FIELDS = ("traceId", "trace_id", "spanId", "span_id", "parentSpanId", "parent_span_id", "flags",
                "kind", "startTimeUnixNano", "start_time_unix_nano", "endTimeUnixNano", "end_time_unix_nano",
                "droppedAttributesCount", "dropped_attributes_count", "droppedEventsCount",
                "dropped_events_count", "droppedLinksCount", "dropped_links_count")
_EVENT_FIELDS = ("timeUnixNano", "time_unix_nano", *_DROPPED)
_LINK_FIELDS = ("traceId", "trace_id", "spanId", "span_id", "flags", *_DROPPED)
_TEXT_FIELDS = ("name", "traceState", "trace_state")
"""Texts of a span, event or link under no attribute key: scrubbed as text."""


def _fields(obj: dict, names: tuple[str, ...], path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    """Structural fields: offered with their field name (the policy keeps them when they have its shape)."""
    for name in names:
        value = obj.get(name)
        if value is not None and type(value) is not bool:
            if isinstance(value, (str, int, float)):
                yield (
                    StringSlot(
                        *owner, None, value, field=name, form="number" if type(value) is not str else "text"
                    ),
                    (*path, name),
                )
            else:
                yield from json_slots(value, name, (*path, name), owner)


def _texts(obj: dict, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    for name in _TEXT_FIELDS:
        if name in obj:
            yield from json_slots(obj[name], None, (*path, name), owner)


def _unknown(
    obj: dict, known: tuple[Any, ...], path: Path, owner: tuple
) -> Iterator[tuple[StringSlot, Path]]:
    """Fields the format does not define, with their keys: scrubbed like any value."""
    for name, value in obj.items():
        if name not in known:
            yield from json_slots(value, name, (*path, name), owner)
            yield StringSlot(*owner, None, name, field="key", form="key"), (*path, name)


def _attributes_of(
    obj: dict, path: Path, owner: tuple, known: tuple[str, ...] = ()
) -> Iterator[tuple[StringSlot, Path]]:
    """A resource's or scope's `attributes`, and the fields beside them nobody expected."""
    yield from _unknown(obj, (*known, "attributes", *_DROPPED), path, owner)
    yield from _attribute_slots(obj.get("attributes"), (*path, "attributes"), owner)
    yield from _fields(obj, _DROPPED, path, owner)


def _scope_spans_slots(
    scope_spans: dict, path: Path, only_trace: str | None
) -> Iterator[tuple[StringSlot, Path]]:
    scope_key, scope = _first(scope_spans, _SCOPE_KEYS)
    owner = (only_trace, None, None, "scope")
    yield from _unknown(scope_spans, (scope_key, "spans", *_SCHEMA_URL), path, owner)
    yield from _fields(scope_spans, _SCHEMA_URL, path, owner)
    if isinstance(scope, dict):
        scope_path = (*path, scope_key)
        for name in ("name", "version"):
            if name in scope:
                yield from json_slots(scope[name], f"otel.scope.{name}", (*scope_path, name), owner)
        yield from _attributes_of(scope, scope_path, owner, ("name", "version"))
    elif scope is not None:
        yield from json_slots(scope, scope_key, (*path, scope_key), owner)
    spans = scope_spans.get("spans")
    if not isinstance(spans, list):
        if spans is not None:
            yield from json_slots(spans, "spans", (*path, "spans"), owner)
        return
    for index, span in enumerate(spans):
        if isinstance(span, dict):
            yield from _span_slots(span, (*path, "spans", index))
        else:
            yield from json_slots(span, None, (*path, "spans", index), owner)


def _span_ids(span: dict) -> tuple[str | None, str | None, str | None]:
    """(trace id, span id, parent id), normalised; ValueError for an id that is not one."""
    return (norm_id(_get(span, "traceId", "trace_id"), 16), norm_id(_get(span, "spanId", "span_id"), 8),
            norm_id(_get(span, "parentSpanId", "parent_span_id"), 8))


def _has_ids(span: dict) -> bool:
    """Whether `_span` accepts the span's ids (a trace and a span id, every id well-formed)."""
    try:
        trace_id, span_id, _ = _span_ids(span)
    except ValueError:
        return False
    return trace_id is not None and span_id is not None


def _span_slots(span: dict, path: Path) -> Iterator[tuple[StringSlot, Path]]:
    owner = (safe_id(_get(span, "traceId", "trace_id"), 16), safe_id(_get(span, "spanId", "span_id"), 8),
             span.get("name"))
    span_owner = (*owner, "span")
    yield from _unknown(span, (*_SPAN_FIELDS, *_TEXT_FIELDS, "attributes", "events", "links", "status"), path,
                        span_owner)
    yield from _fields(span, _SPAN_FIELDS, path, span_owner)
    yield from _texts(span, path, span_owner)
    yield from _attribute_slots(span.get("attributes"), (*path, "attributes"), span_owner)
    for name, fields, kind in (("events", _EVENT_FIELDS, "event"), ("links", _LINK_FIELDS, "link")):
        items = span.get(name)
        for index, item in enumerate(items if isinstance(items, list) else ()):
            item_path, item_owner = (*path, name, index), (*owner, kind)
            if not isinstance(item, dict):
                yield from json_slots(item, None, item_path, item_owner)
                continue
            yield from _unknown(item, (*fields, *_TEXT_FIELDS, "attributes"), item_path, item_owner)
            yield from _fields(item, fields, item_path, item_owner)
            yield from _texts(item, item_path, item_owner)
            yield from _attribute_slots(item.get("attributes"), (*item_path, "attributes"), item_owner)
        if items is not None and not isinstance(items, list):
            yield from json_slots(items, name, (*path, name), span_owner)
    status = span.get("status")
    if isinstance(status, dict):
        status_owner = (*owner, "status")
        yield from _unknown(status, ("code", "message"), (*path, "status"), status_owner)
        yield from _fields(status, ("code",), (*path, "status"), status_owner)
        if "message" in status:
            yield from json_slots(status["message"], "status.message", (*path, "status", "message"),
                                  status_owner)
    elif status is not None:
        yield from json_slots(status, "status", (*path, "status"), span_owner)


def _attribute_slots(items: Any, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    if items is None:
        return
    if not isinstance(items, list):  # not the `[{key, value}]` list: every value in it is offered
        yield from json_slots(items, None, path, owner)
        return
    for index, kv in enumerate(items):
        if type(kv) is dict and "value" in kv and len(kv) == 2 and type(kv.get("key")) is str:
            value, key = kv["value"], kv["key"]
            if type(value) is dict and len(value) == 1 and type(value.get("stringValue")) is str:
                # the common case, what `_value_slots` gives without a generator per attribute
                yield StringSlot(*owner, key, value["stringValue"]), (*path, index, "value", "stringValue")
            else:
                yield from _value_slots(value, key, (*path, index, "value"), owner)
            yield StringSlot(*owner, None, key, field="key"), (*path, index, "key")
        else:
            yield from json_slots(kv, None, (*path, index), owner)


_NUMBER_KEYS = ("intValue", "int_value", "doubleValue", "double_value")
_BYTES_KEYS = ("bytesValue", "bytes_value")


def _value_slots(value: Any, key: str, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    if type(value) is not dict:  # a bare string or number instead of an AnyValue
        yield from json_slots(value, key, path, owner)
        return
    if len(value) > 1:  # not one AnyValue: every member is offered as it is
        yield from json_slots(value, key, path, owner)
        return
    for name, item in value.items():
        if name in _STRING_KEYS and isinstance(item, str):
            yield StringSlot(*owner, key, item), (*path, name)
        elif name in _NUMBER_KEYS and (type(item) in (int, float)
                                       or (type(item) is str and item.lstrip("-").isdigit())):
            yield StringSlot(*owner, key, int(item) if type(item) is str else item, form="any_number"), path
        elif name in ("boolValue", "bool_value") and type(item) is bool:
            continue
        elif name in _BYTES_KEYS and isinstance(item, str):
            yield StringSlot(*owner, key, decode_base64_text(item), form="base64"), (*path, name)
        elif (
            name in _ARRAY_KEYS
            and isinstance(item, dict)
            and list(item) == ["values"]
            and isinstance(item["values"], list)
        ):
            for index, element in enumerate(item["values"]):
                yield from _value_slots(element, f"{key}.{index}", (*path, name, "values", index), owner)
        elif name in _KVLIST_KEYS and isinstance(item, dict) and list(item) == ["values"]:
            yield from _attribute_slots_nested(item["values"], key, (*path, name, "values"), owner)
        else:
            yield from json_slots(item, key, (*path, name), owner)


def _attribute_slots_nested(
    items: Any, key: str, path: Path, owner: tuple
) -> Iterator[tuple[StringSlot, Path]]:
    if not isinstance(items, list):
        yield from json_slots(items, key, path, owner)
        return
    for index, kv in enumerate(items):
        if type(kv) is dict and type(kv.get("key")) is str and set(kv) <= {"key", "value"}:
            yield from _value_slots(kv.get("value"), f"{key}.{kv['key']}", (*path, index, "value"), owner)
            yield StringSlot(*owner, None, kv["key"], field="key"), (*path, index, "key")
        else:
            yield from json_slots(kv, key, (*path, index), owner)
