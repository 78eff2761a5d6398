"""OTLP protobuf messages (`ExportTraceServiceRequest`), as the Collector file exporter frames them."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from promote.ingest.formats.base import Path, StringSlot, norm_id, note
from promote.ingest.formats.otlp_json_request import KINDS, STATUS_CODES
from promote.trace_model import Skipped, Span


def any_value(value: Any) -> Any:
    """Decode a protobuf AnyValue (unset is null; bytes become base64 text, as in OTLP JSON)."""
    which = value.WhichOneof("value")
    if which is None:
        return None
    if which == "array_value":
        return [any_value(item) for item in value.array_value.values]
    if which == "kvlist_value":
        return {kv.key: any_value(kv.value) for kv in value.kvlist_value.values}
    if which == "bytes_value":
        return base64.b64encode(value.bytes_value).decode("ascii")
    return getattr(value, which)


def attributes(items: Any) -> dict[str, Any]:
    return {kv.key: any_value(kv.value) for kv in items}


def decode(raw: bytes) -> ExportTraceServiceRequest:
    try:
        return ExportTraceServiceRequest.FromString(raw)
    except DecodeError as error:
        raise ValueError(f"not an OTLP protobuf message ({error})") from None


def looks_like_request(raw: bytes) -> bool:
    """True when `raw` parses as an ExportTraceServiceRequest holding at least one well-formed span."""
    try:
        message = ExportTraceServiceRequest.FromString(raw)
    except DecodeError:
        return False
    return any(
        len(span.trace_id) == 16 and len(span.span_id) == 8
        for block in message.resource_spans
        for scope_spans in block.scope_spans
        for span in scope_spans.spans
    )


class OtlpProtoCodec:
    """Length-prefixed OTLP protobuf."""

    decode = staticmethod(decode)

    def check(self, doc: Any) -> str | None:
        return None if doc.resource_spans else "protobuf message without resource spans"

    @staticmethod
    def hidden(doc: ExportTraceServiceRequest, raw: bytes, members: int | None = None) -> bool:
        """Unknown fields are dropped (nobody can say what they hold): True when there were any
        (`members` is for JSON codecs)."""
        return discard_unknown(doc, raw)

    def encode(self, doc: ExportTraceServiceRequest, like: bytes) -> bytes:
        return doc.SerializeToString()

    def spans(
        self, doc: ExportTraceServiceRequest, where: str, skipped: list[Skipped] | None
    ) -> Iterator[Span]:
        for block in doc.resource_spans:
            resource = attributes(block.resource.attributes)
            for scope_spans in block.scope_spans:
                scope = scope_spans.scope
                for span in scope_spans.spans:
                    try:
                        trace_id = norm_id(span.trace_id, 16)
                        span_id = norm_id(span.span_id, 8)
                        parent_id = norm_id(span.parent_span_id, 8) if span.parent_span_id else None
                    except ValueError as error:
                        note(skipped, where, f"span {span.name!r}: {error}")
                        continue
                    if trace_id is None or span_id is None:
                        note(skipped, where,
                             f"span {span.name!r} has no {'trace id' if trace_id is None else 'span id'}")
                        continue
                    yield Span(
                        trace_id=trace_id,
                        span_id=span_id,
                        parent_span_id=parent_id,
                        name=span.name,
                        kind=KINDS[span.kind] if 0 <= span.kind < len(KINDS) else "UNSPECIFIED",
                        start_ns=span.start_time_unix_nano,
                        end_ns=span.end_time_unix_nano,
                        status_code=STATUS_CODES[span.status.code] if span.status.code < 3 else "UNSET",
                        status_message=span.status.message or None,
                        attributes=attributes(span.attributes),
                        events=[
                            dict(name=event.name, time_ns=event.time_unix_nano or None,
                                 attributes=attributes(event.attributes)
                            )
                            for event in span.events
                        ],
                        resource=resource,
                        scope_name=scope.name or None,
                        scope_version=scope.version or None,
                        where=where,
                    )

    def slots(self, doc: ExportTraceServiceRequest) -> Iterator[tuple[StringSlot, Path]]:
        """Every text of the message: names, trace states, keys, string, bytes and number values, and ids
        that are not of their length (times are integers by the schema; unknown fields are dropped, see
        `discard_unknown`)."""
        for block_index, block in enumerate(doc.resource_spans):
            block_path: Path = ("resource_spans", block_index)
            trace_ids = {span.trace_id for scope_spans in block.scope_spans for span in scope_spans.spans}
            only_trace = trace_ids.pop().hex() if len(trace_ids) == 1 else None
            owner = (only_trace, None, None, "resource")
            yield from _text(block.schema_url, None, (*block_path, "schema_url"), owner, "schema_url")
            yield from _attribute_slots(block.resource.attributes, (*block_path, "resource", "attributes"),
                                        owner)
            for scope_index, scope_spans in enumerate(block.scope_spans):
                scope_path = (*block_path, "scope_spans", scope_index)
                owner = (only_trace, None, None, "scope")
                yield from _text(scope_spans.schema_url, None, (*scope_path, "schema_url"), owner,
                                 "schema_url")
                scope = scope_spans.scope
                yield from _text(scope.name, "otel.scope.name", (*scope_path, "scope", "name"), owner)
                yield from _text(scope.version, "otel.scope.version", (*scope_path, "scope", "version"),
                                 owner)
                yield from _attribute_slots(scope.attributes, (*scope_path, "scope", "attributes"), owner)
                for span_index, span in enumerate(scope_spans.spans):
                    path = (*scope_path, "spans", span_index)
                    owner = (span.trace_id.hex() or None, span.span_id.hex() or None, span.name)
                    yield from _text(span.name, None, (*path, "name"), (*owner, "span"))
                    for name, size in _SPAN_IDS:
                        yield from _id(getattr(span, name), size, (*path, name), (*owner, "span"), name)
                    yield from _text(span.trace_state, None, (*path, "trace_state"), (*owner, "span"))
                    yield from _attribute_slots(span.attributes, (*path, "attributes"), (*owner, "span"))
                    for index, event in enumerate(span.events):
                        yield from _text(event.name, None, (*path, "events", index, "name"),
                                         (*owner, "event"))
                        yield from _attribute_slots(event.attributes, (*path, "events", index, "attributes"),
                                                    (*owner, "event"))
                    for index, link in enumerate(span.links):
                        for name, size in _SPAN_IDS[:2]:
                            yield from _id(getattr(link, name), size, (*path, "links", index, name),
                                           (*owner, "link"), name)
                        yield from _text(link.trace_state, None, (*path, "links", index, "trace_state"),
                                         (*owner, "link"))
                        yield from _attribute_slots(link.attributes, (*path, "links", index, "attributes"),
                                                    (*owner, "link"))
                    yield from _text(span.status.message, "status.message", (*path, "status", "message"),
                                     (*owner, "status"))


def discard_unknown(doc: ExportTraceServiceRequest, raw: bytes) -> bool:
    """Drop the fields the schema does not define (nobody can say what they hold); True when there were
    any, so the message must be written anew."""
    doc.DiscardUnknownFields()
    return doc.ByteSize() != len(raw)


def _text(
    value: str, key: str | None, path: Path, owner: tuple, field: str | None = None
) -> Iterator[tuple[StringSlot, Path]]:
    if value:
        yield StringSlot(*owner, key, value, field=field), path


_SPAN_IDS = (("trace_id", 16), ("span_id", 8), ("parent_span_id", 8))


def _id(value: bytes, size: int, path: Path, owner: tuple, field: str) -> Iterator[tuple[StringSlot, Path]]:
    """An id of its schema's length is structure. Any other bytes are not an id (a text written where
    the id goes): offered as text under the id's field, so the policy's id shape refuses it. An id of
    the right length that is all printable ASCII (a random one is, once in 3,000 span ids) may be a
    text too, base64 of an SSN has 16 characters: it is scrubbed as text, so it stays unless something
    is found in it."""
    if not value:
        return
    if len(value) != size:
        yield StringSlot(*owner, None, value.decode("utf-8", "surrogateescape"), field=field,
                         form="proto_bytes"), path
    elif value.isascii() and value.decode("ascii").isprintable():
        yield StringSlot(*owner, None, value.decode("ascii"), form="proto_bytes"), path


def _attribute_slots(items: Any, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    for index, kv in enumerate(items):
        yield from _value_slots(kv.value, kv.key, (*path, index, "value"), owner)
        yield from _text(kv.key, None, (*path, index, "key"), owner, "key")


def _value_slots(value: Any, key: str, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    which = value.WhichOneof("value")
    if which == "string_value":
        yield StringSlot(*owner, key, value.string_value), (*path, "string_value")
    elif which in ("int_value", "double_value"):
        yield StringSlot(*owner, key, getattr(value, which), form="proto_number"), path
    elif which == "bytes_value":
        text = value.bytes_value.decode("utf-8", "surrogateescape")
        yield StringSlot(*owner, key, text, form="proto_bytes"), (*path, "bytes_value")
    elif which == "array_value":
        for index, item in enumerate(value.array_value.values):
            yield from _value_slots(item, f"{key}.{index}", (*path, "array_value", "values", index), owner)
    elif which == "kvlist_value":
        for index, kv in enumerate(value.kvlist_value.values):
            yield from _value_slots(kv.value, f"{key}.{kv.key}",
                                    (*path, "kvlist_value", "values", index, "value"), owner)
            yield from _text(kv.key, None, (*path, "kvlist_value", "values", index, "key"), owner, "key")
