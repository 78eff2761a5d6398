"""An OTLP JSON request as a document: its keys in every spelling, its blocks, AnyValues and enums.

Accepts every spelling seen in real files (trace-formats.md §1.2): camelCase and snake_case keys,
`batches` (Tempo) for `resourceSpans`, one bare ResourceSpans per line (pre-release json-file exporter),
`instrumentationLibrarySpans`/`instrumentationLibrary` for `scopeSpans`/`scope`, ids as hex or base64,
enums as numbers or names, int64 as strings or numbers. `shape_problem` says why a request cannot be
read before any span of it is converted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from promote.ingest.formats.base import Path, norm_id, to_int

REQUEST_KEYS = ("resourceSpans", "resource_spans", "batches")
SCOPE_SPANS_KEYS = ("scopeSpans", "scope_spans", "instrumentationLibrarySpans",
                     "instrumentation_library_spans")
SCOPE_KEYS = ("scope", "instrumentationLibrary", "instrumentation_library")

KINDS = ("UNSPECIFIED", "INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER")
STATUS_CODES = ("UNSET", "OK", "ERROR")

STRING_KEYS = ("stringValue", "string_value")
ARRAY_KEYS = ("arrayValue", "array_value")
KVLIST_KEYS = ("kvlistValue", "kvlist_value")


def first_of(obj: dict, keys: tuple[str, ...]) -> tuple[str | None, Any]:
    for key in keys:
        if key in obj:
            return key, obj[key]
    return None, None


def get_either(obj: dict, camel: str, snake: str) -> Any:
    value = obj.get(camel)
    return obj.get(snake) if value is None else value


def resource_blocks(doc: dict) -> Iterator[tuple[Path, dict]]:
    """(path, ResourceSpans) of a request, or of a bare ResourceSpans line."""
    key, blocks = first_of(doc, REQUEST_KEYS)
    if key is None:
        yield (), doc
        return
    for index, block in enumerate(blocks or ()):
        if isinstance(block, dict):
            yield (key, index), block


def scope_blocks(block: dict) -> Iterator[tuple[Path, dict]]:
    key, scopes = first_of(block, SCOPE_SPANS_KEYS)
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
        if key in STRING_KEYS:
            return item
        if key in ("intValue", "int_value"):
            return to_int(item)
        if key in ("doubleValue", "double_value"):
            return float(item)
        if key in ("boolValue", "bool_value"):
            return item if isinstance(item, bool) else str(item).lower() == "true"
        if key in ARRAY_KEYS:
            return [any_value(v) for v in (item or {}).get("values") or ()]
        if key in KVLIST_KEYS:
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
    key, blocks = first_of(doc, REQUEST_KEYS)
    if key is None:
        key, blocks = "resourceSpans", [doc]
    if problem := _list_problem(blocks, key):
        return problem
    for b, block in enumerate(blocks or ()):
        resource = block.get("resource")
        if resource is not None and not isinstance(resource, dict):
            return f"{key}[{b}].resource is a {_json_type(resource)}, not an object"
        scopes_key, scopes = first_of(block, SCOPE_SPANS_KEYS)
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


def span_ids(span: dict) -> tuple[str | None, str | None, str | None]:
    """(trace id, span id, parent id), normalised; ValueError for an id that is not one."""
    return (norm_id(get_either(span, "traceId", "trace_id"), 16),
            norm_id(get_either(span, "spanId", "span_id"), 8),
            norm_id(get_either(span, "parentSpanId", "parent_span_id"), 8))


def has_ids(span: dict) -> bool:
    """Whether `_span` accepts the span's ids (a trace and a span id, every id well-formed)."""
    try:
        trace_id, span_id, _ = span_ids(span)
    except ValueError:
        return False
    return trace_id is not None and span_id is not None
