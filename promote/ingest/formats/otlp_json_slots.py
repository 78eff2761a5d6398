"""Every string, key and number of an OTLP JSON request, with its path, for the scrubber.

Fail closed: names, trace state, unknown fields, ids and times are offered too (see `StringSlot`);
which of them are structure is the scrub policy's call, not this module's.

Each step appends its slots to one list (`Slots`) instead of yielding them: a 100 MB export has a
million slots, and a generator chain four levels deep resumed every level for each of them
(`docs/perf-history.md`, "Speed, thirteenth round").
"""

from __future__ import annotations

from typing import Any

from promote.ingest.formats.base import Path, StringSlot, decode_base64_text, json_slots, safe_id
from promote.ingest.formats.otlp_json_request import (
    ARRAY_KEYS,
    KVLIST_KEYS,
    REQUEST_KEYS,
    SCOPE_KEYS,
    SCOPE_SPANS_KEYS,
    STRING_KEYS,
    first_of,
    get_either,
    resource_blocks,
    scope_blocks,
)


Slots = list[tuple[StringSlot, Path]]
"""(slot, path) pairs, in document order."""


def request_slots(doc: dict) -> Slots:
    """Every string and number of the request (fail closed: see `StringSlot`), in document order."""
    out: Slots = []
    request_key = first_of(doc, REQUEST_KEYS)[0]
    if request_key is not None:
        _unknown(out, doc, (request_key,), (), (None, None, None, "request"))
    for block_path, block in resource_blocks(doc):
        spans = [(path, scope_spans) for path, scope_spans in scope_blocks(block)]
        trace_ids = {
            str(get_either(span, "traceId", "trace_id"))
            for _, scope_spans in spans
            for span in scope_spans.get("spans") or ()
            if isinstance(span, dict)
        }
        only_trace = safe_id(trace_ids.pop(), 16) if len(trace_ids) == 1 else None
        owner = (only_trace, None, None, "resource")
        scope_key = first_of(block, SCOPE_SPANS_KEYS)[0]
        _unknown(out, block, ("resource", scope_key, *_SCHEMA_URL), block_path, owner)
        _fields(out, block, _SCHEMA_URL, block_path, owner)
        resource = block.get("resource")
        if isinstance(resource, dict):
            _attributes_of(out, resource, (*block_path, "resource"), owner)
        elif resource is not None:
            out.extend(json_slots(resource, "resource", (*block_path, "resource"), owner))
        for scope_path, scope_spans in spans:
            _scope_spans_slots(out, scope_spans, (*block_path, *scope_path), only_trace)
    return out


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
# The fields of a span, an event and a link the format defines, as sets: every span asks for each of its
# fields whether it is one of them.
_SPAN_KNOWN = frozenset((*_SPAN_FIELDS, *_TEXT_FIELDS, "attributes", "events", "links", "status"))
_SPAN_ITEMS = (("events", _EVENT_FIELDS, frozenset((*_EVENT_FIELDS, *_TEXT_FIELDS, "attributes")), "event"),
               ("links", _LINK_FIELDS, frozenset((*_LINK_FIELDS, *_TEXT_FIELDS, "attributes")), "link"))


def _fields(out: Slots, obj: dict, names: tuple[str, ...], path: Path, owner: tuple) -> None:
    """Structural fields: offered with their field name (the policy keeps them when they have its shape)."""
    for name in names:
        value = obj.get(name)
        if value is not None and type(value) is not bool:
            if isinstance(value, (str, int, float)):
                form = "number" if type(value) is not str else "text"
                out.append((StringSlot(*owner, None, value, field=name, form=form), (*path, name)))
            else:
                out.extend(json_slots(value, name, (*path, name), owner))


def _texts(out: Slots, obj: dict, path: Path, owner: tuple) -> None:
    for name in _TEXT_FIELDS:
        if name in obj:
            out.extend(json_slots(obj[name], None, (*path, name), owner))


def _unknown(
    out: Slots, obj: dict, known: tuple[Any, ...] | frozenset[str], path: Path, owner: tuple
) -> None:
    """Fields the format does not define, with their keys: scrubbed like any value."""
    for name, value in obj.items():
        if name not in known:
            out.extend(json_slots(value, name, (*path, name), owner))
            out.append((StringSlot(*owner, None, name, field="key", form="key"), (*path, name)))


def _attributes_of(out: Slots, obj: dict, path: Path, owner: tuple, known: tuple[str, ...] = ()) -> None:
    """A resource's or scope's `attributes`, and the fields beside them nobody expected."""
    _unknown(out, obj, (*known, "attributes", *_DROPPED), path, owner)
    _attribute_slots(out, obj.get("attributes"), (*path, "attributes"), owner)
    _fields(out, obj, _DROPPED, path, owner)


def _scope_spans_slots(out: Slots, scope_spans: dict, path: Path, only_trace: str | None) -> None:
    scope_key, scope = first_of(scope_spans, SCOPE_KEYS)
    owner = (only_trace, None, None, "scope")
    _unknown(out, scope_spans, (scope_key, "spans", *_SCHEMA_URL), path, owner)
    _fields(out, scope_spans, _SCHEMA_URL, path, owner)
    if isinstance(scope, dict):
        scope_path = (*path, scope_key)
        for name in ("name", "version"):
            if name in scope:
                out.extend(json_slots(scope[name], f"otel.scope.{name}", (*scope_path, name), owner))
        _attributes_of(out, scope, scope_path, owner, ("name", "version"))
    elif scope is not None:
        out.extend(json_slots(scope, scope_key, (*path, scope_key), owner))
    spans = scope_spans.get("spans")
    if not isinstance(spans, list):
        if spans is not None:
            out.extend(json_slots(spans, "spans", (*path, "spans"), owner))
        return
    for index, span in enumerate(spans):
        if isinstance(span, dict):
            _span_slots(out, span, (*path, "spans", index))
        else:
            out.extend(json_slots(span, None, (*path, "spans", index), owner))


def _span_slots(out: Slots, span: dict, path: Path) -> None:
    owner = (safe_id(get_either(span, "traceId", "trace_id"), 16),
             safe_id(get_either(span, "spanId", "span_id"), 8),
             span.get("name"))
    span_owner = (*owner, "span")
    _unknown(out, span, _SPAN_KNOWN, path, span_owner)
    _fields(out, span, _SPAN_FIELDS, path, span_owner)
    _texts(out, span, path, span_owner)
    _attribute_slots(out, span.get("attributes"), (*path, "attributes"), span_owner)
    for name, fields, known, kind in _SPAN_ITEMS:
        items = span.get(name)
        for index, item in enumerate(items if isinstance(items, list) else ()):
            item_path, item_owner = (*path, name, index), (*owner, kind)
            if not isinstance(item, dict):
                out.extend(json_slots(item, None, item_path, item_owner))
                continue
            _unknown(out, item, known, item_path, item_owner)
            _fields(out, item, fields, item_path, item_owner)
            _texts(out, item, item_path, item_owner)
            _attribute_slots(out, item.get("attributes"), (*item_path, "attributes"), item_owner)
        if items is not None and not isinstance(items, list):
            out.extend(json_slots(items, name, (*path, name), span_owner))
    status = span.get("status")
    if isinstance(status, dict):
        status_owner = (*owner, "status")
        _unknown(out, status, ("code", "message"), (*path, "status"), status_owner)
        _fields(out, status, ("code",), (*path, "status"), status_owner)
        if "message" in status:
            out.extend(json_slots(status["message"], "status.message", (*path, "status", "message"),
                                  status_owner))
    elif status is not None:
        out.extend(json_slots(status, "status", (*path, "status"), span_owner))


def _attribute_slots(out: Slots, items: Any, path: Path, owner: tuple) -> None:
    if items is None:
        return
    if not isinstance(items, list):  # not the `[{key, value}]` list: every value in it is offered
        out.extend(json_slots(items, None, path, owner))
        return
    append = out.append
    for index, kv in enumerate(items):
        if type(kv) is dict and "value" in kv and len(kv) == 2 and type(kv.get("key")) is str:
            value, key = kv["value"], kv["key"]
            if type(value) is dict and len(value) == 1 and type(value.get("stringValue")) is str:
                # the common case, what `_value_slots` gives without a call per attribute
                append((StringSlot(*owner, key, value["stringValue"]),
                        (*path, index, "value", "stringValue")))
            else:
                _value_slots(out, value, key, (*path, index, "value"), owner)
            append((StringSlot(*owner, None, key, field="key"), (*path, index, "key")))
        else:
            out.extend(json_slots(kv, None, (*path, index), owner))


_NUMBER_KEYS = ("intValue", "int_value", "doubleValue", "double_value")
_BYTES_KEYS = ("bytesValue", "bytes_value")


def _value_slots(out: Slots, value: Any, key: str, path: Path, owner: tuple) -> None:
    if type(value) is not dict:  # a bare string or number instead of an AnyValue
        out.extend(json_slots(value, key, path, owner))
        return
    if len(value) > 1:  # not one AnyValue: every member is offered as it is
        out.extend(json_slots(value, key, path, owner))
        return
    for name, item in value.items():
        if name in STRING_KEYS and isinstance(item, str):
            out.append((StringSlot(*owner, key, item), (*path, name)))
        elif name in _NUMBER_KEYS and (type(item) in (int, float)
                                       or (type(item) is str and item.lstrip("-").isdigit())):
            out.append((StringSlot(*owner, key, int(item) if type(item) is str else item, form="any_number"),
                        path))
        elif name in ("boolValue", "bool_value") and type(item) is bool:
            continue
        elif name in _BYTES_KEYS and isinstance(item, str):
            out.append((StringSlot(*owner, key, decode_base64_text(item), form="base64"), (*path, name)))
        elif (
            name in ARRAY_KEYS
            and isinstance(item, dict)
            and list(item) == ["values"]
            and isinstance(item["values"], list)
        ):
            for index, element in enumerate(item["values"]):
                _value_slots(out, element, f"{key}.{index}", (*path, name, "values", index), owner)
        elif name in KVLIST_KEYS and isinstance(item, dict) and list(item) == ["values"]:
            _attribute_slots_nested(out, item["values"], key, (*path, name, "values"), owner)
        else:
            out.extend(json_slots(item, key, (*path, name), owner))


def _attribute_slots_nested(out: Slots, items: Any, key: str, path: Path, owner: tuple) -> None:
    if not isinstance(items, list):
        out.extend(json_slots(items, key, path, owner))
        return
    for index, kv in enumerate(items):
        if type(kv) is dict and type(kv.get("key")) is str and set(kv) <= {"key", "value"}:
            _value_slots(out, kv.get("value"), f"{key}.{kv['key']}", (*path, index, "value"), owner)
            out.append((StringSlot(*owner, None, kv["key"], field="key"), (*path, index, "key")))
        else:
            out.extend(json_slots(kv, key, (*path, index), owner))
