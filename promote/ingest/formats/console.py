"""`ConsoleSpanExporter` output (one JSON object per span, `0x` hex ids, ISO times) and the ADK dev
server's `/debug/trace/session` list (decimal integer ids, nanosecond integer times).

Attributes here are plain JSON values, so string slots are addressed by attribute key (and list index).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

from promote.ingest.formats.base import JsonCodec, Path, StringSlot, norm_id, note, safe_id
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
        context = doc["context"]
        owner = (safe_id(context.get("trace_id"), 16), safe_id(context.get("span_id"), 8), doc.get("name"))
        yield from _dict_slots(doc.get("attributes"), ("attributes",), (*owner, "span"))
        for index, event in enumerate(doc.get("events") or ()):
            if isinstance(event, dict):
                yield from _dict_slots(event.get("attributes"), ("events", index, "attributes"), (*owner, "event"))
        for index, link in enumerate(doc.get("links") or ()):
            if isinstance(link, dict):
                yield from _dict_slots(link.get("attributes"), ("links", index, "attributes"), (*owner, "link"))
        status = doc.get("status")
        for key in ("description", "message"):
            if isinstance(status, dict) and isinstance(status.get(key), str) and status[key]:
                yield StringSlot(*owner, "status", "status.message", status[key]), ("status", key)
        resource = doc.get("resource")
        if isinstance(resource, dict):
            yield from _dict_slots(resource.get("attributes"), ("resource", "attributes"), (owner[0], None, None, "resource"))


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
                trace_id=trace_id, span_id=span_id, parent_span_id=norm_id(doc.get("parent_span_id"), 8), name=name,
                start_ns=start_ns, end_ns=int(doc.get("end_time") or start_ns), attributes=_plain(doc.get("attributes")),
                where=where,
            )
        except (TypeError, ValueError) as error:
            note(skipped, where, f"span {name!r}: {error}")
            return
        yield span

    def slots(self, doc: dict) -> Iterator[tuple[StringSlot, Path]]:
        owner = (safe_id(doc.get("trace_id"), 16), safe_id(doc.get("span_id"), 8), doc.get("name"), "span")
        yield from _dict_slots(doc.get("attributes"), ("attributes",), owner)



def _dict_slots(values: Any, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    if isinstance(values, dict):
        for key, value in values.items():
            yield from _value_slots(value, str(key), (*path, key), owner)


def _value_slots(value: Any, key: str, path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    if isinstance(value, str):
        yield StringSlot(*owner, key, value), path
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _value_slots(item, f"{key}.{index}", (*path, index), owner)
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from _value_slots(item, f"{key}.{name}", (*path, name), owner)
