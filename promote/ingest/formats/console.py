"""`ConsoleSpanExporter` output (one JSON object per span, `0x` hex ids, ISO times) and the ADK dev
server's `/debug/trace/session` list (decimal integer ids, nanosecond integer times).

Attributes here are plain JSON values, so string slots are addressed by attribute key (and list index).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

from promote.ingest.formats.base import (JsonCodec, Path, StringSlot, json_slots, named_slots, norm_id, note,
                                         safe_id)
from promote.trace_model import Skipped, Span

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_KINDS = ("UNSPECIFIED", "INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER")


def iso_to_ns(value: Any) -> int | None:
    """`2026-03-01T20:47:18.716835Z` as Unix nanoseconds (the console format keeps microseconds)."""
    if not value:
        return None
    moment = datetime.fromisoformat(str(value))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000


def _plain(attributes: Any) -> dict[str, Any]:
    return dict(attributes) if isinstance(attributes, dict) else {}


class ConsoleCodec(JsonCodec):
    """One `ReadableSpan.to_json()` object per record."""

    def check(self, doc: Any) -> str | None:
        if isinstance(doc, dict) and isinstance(doc.get("context"), dict):
            return None
        return "not a console span object (no context)"

    def spans(self, doc: dict, where: str, skipped: list[Skipped] | None) -> Iterator[Span]:
        name = str(doc.get("name") or "")
        try:
            span = self._span(doc, name, where, skipped)
        except (TypeError, ValueError, AttributeError) as error:
            note(skipped, where, f"span {name!r}: {error}")
            return
        if span is not None:
            yield span

    def _span(self, doc: dict, name: str, where: str, skipped: list[Skipped] | None) -> Span | None:
        context = doc["context"]
        trace_id = norm_id(context.get("trace_id"), 16)
        span_id = norm_id(context.get("span_id"), 8)
        if trace_id is None or span_id is None:
            note(skipped, where, f"span {name!r} has no {'trace id' if trace_id is None else 'span id'}")
            return None
        start_ns = iso_to_ns(doc.get("start_time")) or 0
        status = doc.get("status") if isinstance(doc.get("status"), dict) else {}
        kind = str(doc.get("kind") or "").removeprefix("SpanKind.").upper()
        status_code = str(status.get("status_code") or "UNSET").upper()
        resource = doc.get("resource") if isinstance(doc.get("resource"), dict) else {}
        return Span(
            trace_id=trace_id,
            span_id=span_id,
            parent_span_id=norm_id(doc.get("parent_id"), 8),
            name=name,
            kind=kind if kind in _KINDS else "UNSPECIFIED",
            start_ns=start_ns,
            end_ns=iso_to_ns(doc.get("end_time")) or start_ns,  # an unended span printed at start
            status_code=status_code if status_code in ("OK", "ERROR") else "UNSET",
            # Monocle's `serialize_span` renames the SDK's `description` to OTLP's `message`.
            status_message=status.get("description") or status.get("message") or None,
            attributes=_plain(doc.get("attributes")),
            events=[
                {"name": str(event.get("name") or ""), "time_ns": iso_to_ns(event.get("timestamp")),
                 "attributes": _plain(event.get("attributes"))}
                for event in doc.get("events") or ()
            ],
            resource=_plain(resource.get("attributes")),
            where=where,
        )

    def slots(self, doc: dict) -> Iterator[tuple[StringSlot, Path]]:
        """Every string and number of the span (fail closed: see `StringSlot`)."""
        context = doc["context"]
        owner = (safe_id(context.get("trace_id"), 16), safe_id(context.get("span_id"), 8), doc.get("name"))
        yield from _object_slots(doc, (), (*owner, "span"), _SPAN_FIELDS)
        for name, kind in (("events", "event"), ("links", "link")):
            items = doc.get(name)
            for index, item in enumerate(items if isinstance(items, list) else ()):
                yield from _object_slots(item, (name, index), (*owner, kind), _EVENT_FIELDS)
        resource = doc.get("resource")
        if isinstance(resource, dict):
            yield from _object_slots(resource, ("resource",), (owner[0], None, None, "resource"),
                                     _RESOURCE_FIELDS)


_SPAN_FIELDS = {"context": "context", "kind": "kind", "parent_id": "parent_id", "start_time": "start_time",
                "end_time": "end_time", "status": "status", "attributes": "attributes", "events": None,
                "links": None, "resource": None, "name": "text"}
_EVENT_FIELDS = {"timestamp": "timestamp", "attributes": "attributes", "context": "context", "name": "text"}
_RESOURCE_FIELDS = {"attributes": "attributes", "schema_url": "schema_url"}
_CONTEXT_FIELDS = ("trace_id", "span_id")


def _object_slots(
    obj: Any, path: Path, owner: tuple, fields: dict[str, str | None]
) -> Iterator[tuple[StringSlot, Path]]:
    """The members of a span, event, link or resource object by what they are; unknown ones as any value."""
    if not isinstance(obj, dict):
        yield from json_slots(obj, None, path, owner)
        return
    for name, value in obj.items():
        role = fields.get(name, "unknown")
        here = (*path, name)
        if role is None:
            continue  # walked by the caller
        if role == "attributes":
            if isinstance(value, dict):
                yield from _dict_slots(value, here, owner)
            else:
                yield from json_slots(value, None, here, owner)
        elif role == "context" and isinstance(value, dict):
            for member, item in value.items():
                field = member if member in _CONTEXT_FIELDS else None
                if field and isinstance(item, str):
                    yield StringSlot(*owner, None, item, field=field), (*here, member)
                else:  # under its own name: a number under `ssn` is personal
                    yield from json_slots(item, member, (*here, member), owner)
                    if not field:
                        yield StringSlot(*owner, None, member, field="key", form="key"), (*here, member)
        elif role == "status" and isinstance(value, dict):
            for member, item in value.items():
                if member == "status_code" and isinstance(item, str):
                    yield StringSlot(*owner, None, item, field="status_code"), (*here, member)
                else:
                    message = member in ("description", "message")
                    yield from json_slots(item, "status.message" if message else member,
                                          (*here, member), (*owner[:3], "status"))
                    if not message:
                        yield StringSlot(*owner, None, member, field="key", form="key"), (*here, member)
        elif role == "text" or role == "unknown":
            yield from json_slots(value, None if role == "text" else name, here, owner)
            if role == "unknown":
                yield StringSlot(*owner, None, name, field="key", form="key"), here
        elif isinstance(value, str) or (isinstance(value, (int, float)) and type(value) is not bool):
            yield StringSlot(*owner, None, value, field=role,
                             form="text" if type(value) is str else "number"), here
        elif value is not None:
            yield from json_slots(value, name, here, owner)


class AdkDevCodec(JsonCodec):
    """One span of the ADK dev server's `/debug/trace/session/{id}` list."""

    def check(self, doc: Any) -> str | None:
        if isinstance(doc, dict) and "span_id" in doc and "trace_id" in doc:
            return None
        return "not an ADK dev-server span (no span_id/trace_id)"

    def spans(self, doc: dict, where: str, skipped: list[Skipped] | None) -> Iterator[Span]:
        name = str(doc.get("name") or "")
        try:
            trace_id = norm_id(doc.get("trace_id"), 16)
            span_id = norm_id(doc.get("span_id"), 8)
            if trace_id is None or span_id is None:
                note(skipped, where, f"span {name!r} has no {'trace id' if trace_id is None else 'span id'}")
                return
            start_ns = int(doc.get("start_time") or 0)
            span = Span(
                trace_id=trace_id, span_id=span_id, parent_span_id=norm_id(doc.get("parent_span_id"), 8),
                name=name, start_ns=start_ns, end_ns=int(doc.get("end_time") or start_ns),
                attributes=_plain(doc.get("attributes")),
                where=where,
            )
        except (TypeError, ValueError) as error:
            note(skipped, where, f"span {name!r}: {error}")
            return
        yield span

    def slots(self, doc: dict) -> Iterator[tuple[StringSlot, Path]]:
        """Every string and number of the span (fail closed: see `StringSlot`)."""
        owner = (safe_id(doc.get("trace_id"), 16), safe_id(doc.get("span_id"), 8), doc.get("name"), "span")
        yield from _object_slots(doc, (), owner, _ADK_DEV_FIELDS)


_ADK_DEV_FIELDS = {"trace_id": "trace_id", "span_id": "span_id", "parent_span_id": "parent_span_id",
                   "start_time": "start_time", "end_time": "end_time", "attributes": "attributes",
                   "name": "text"}


def _dict_slots(values: dict, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    for key, value in values.items():
        yield from named_slots(value, str(key), (*path, key), owner)
        yield StringSlot(*owner, None, str(key), field="key", form="key"), (*path, key)
