"""Langfuse public-API trace export: `{"trace": {...}, "observations": [...]}` (also `GET
/api/public/traces/{id}`'s `TraceWithFullDetails`, whose observations sit beside the trace fields).

One observation is one span. Langfuse's OTel ingestion keeps the original span's attributes, resource
attributes and scope in `metadata.attributes`, `metadata.resourceAttributes` and `metadata.scope`: those
become the span's own, so the ADK / OpenInference / GenAI conventions read it as they read OTLP.
Langfuse's own fields are mapped to its OTel attribute names (`langfuse.observation.type`, `.input`,
`.output`, `.model.name`, `.usage_details`, `langfuse.user.id`, `langfuse.session.id`), read by
`promote.ingest.conventions.langfuse`. On native observations (the Langfuse SDK's, no OTel attributes)
they are all there is, and the trace itself becomes the root span (its name, input, output, user and
session); on OTel-ingested ones they sit beside the original attributes (usage aside), because
Langfuse's ingestion moved content there from span events and message attributes.

Ids: OTel-ingested traces keep hex trace and span ids; native ones have uuids or free text, mapped to
hex deterministically (a uuid's 32 hex digits; otherwise the first bytes of its SHA-256).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from promote.ingest.formats.base import JsonCodec, Path, StringSlot, json_slots, named_slots, note, safe_id
from promote.ingest.formats.console import iso_to_ns
from promote.trace_model import Skipped, Span, SpanEvent

TRACE_SPAN_NAME = "langfuse trace"
"""The name given to the span a native export's trace object becomes."""
# Observation fields that are content (scrubbed); everything else is structure (ids, names, times).
_CONTENT_FIELDS = {"input": "langfuse.observation.input", "output": "langfuse.observation.output",
                   "statusMessage": "langfuse.observation.status_message"}
_TRACE_FIELDS = {"input": "langfuse.trace.input", "output": "langfuse.trace.output",
                 "userId": "langfuse.user.id", "sessionId": "langfuse.session.id"}


def hex_id(value: Any, nbytes: int) -> str | None:
    """A Langfuse id as lower-case hex of `nbytes` bytes (OTel hex ids as they are)."""
    if value is None or value == "":
        return None
    text = str(value).strip()
    exact = safe_id(text, nbytes)
    if exact is not None and len(text.removeprefix("0x")) == nbytes * 2:
        return exact
    compact = text.replace("-", "").lower()
    if len(compact) == nbytes * 2 and all(c in "0123456789abcdef" for c in compact):
        return compact
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[: nbytes * 2]


def _parts(doc: Any) -> tuple[dict[str, Any], list[Any]]:
    """(trace object, observations) of either export shape."""
    if isinstance(doc.get("trace"), dict):
        return doc["trace"], doc.get("observations") or []
    return doc, doc.get("observations") or []


def _json_text(value: Any) -> Any:
    """Structured Langfuse content as the JSON string an OTel attribute would hold."""
    return value if isinstance(value, str) or value is None else json.dumps(value, ensure_ascii=False)


class LangfuseCodec(JsonCodec):
    """One exported trace (trace object + observations) per record."""

    def check(self, doc: Any) -> str | None:
        if isinstance(doc, dict):
            trace, observations = _parts(doc)
            if isinstance(observations, list) and (trace is not doc or "id" in doc):
                return None
        return 'not a Langfuse trace export (no "trace" and "observations")'

    def spans(self, doc: dict, where: str, skipped: list[Skipped] | None) -> Iterator[Span]:
        trace, observations = _parts(doc)
        trace_id = hex_id(trace.get("id"), 16)
        if trace_id is None:
            note(skipped, where, "Langfuse trace without an id")
            return
        observations = [o for o in observations if isinstance(o, dict)]
        native = not any(isinstance(_metadata(o).get("attributes"), dict) for o in observations)
        root_id = hex_id(f"trace:{trace.get('id')}", 8) if native else None
        if native:
            yield self._trace_span(trace, trace_id, root_id, observations, where)  # type: ignore[arg-type]
        for observation in observations:
            try:
                span = self._span(observation, trace, trace_id, root_id, where)
            except (TypeError, ValueError) as error:
                note(skipped, where, f"observation {observation.get('name')!r}: {error}")
                continue
            if span is None:
                note(skipped, where, f"observation {observation.get('name')!r} has no id")
                continue
            yield span

    def _trace_span(
        self, trace: dict, trace_id: str, root_id: str, observations: list[dict], where: str
    ) -> Span:
        times = [t for o in observations for t in (_ns(o.get("startTime")), _ns(o.get("endTime"))) if t]
        start = _ns(trace.get("timestamp")) or (min(times) if times else 0)
        attributes: dict[str, Any] = {"langfuse.observation.type": "TRACE"}
        for field, key in _TRACE_FIELDS.items():
            if trace.get(field) is not None:
                attributes[key] = _json_text(trace[field])
        if trace.get("name"):
            attributes["langfuse.trace.name"] = str(trace["name"])
        name = f"{TRACE_SPAN_NAME} {trace.get('name') or ''}".strip()
        return Span(trace_id=trace_id, span_id=root_id, name=name, start_ns=start,
                    end_ns=max([start, *times]), attributes=attributes, where=where)

    def _span(self, item: dict, trace: dict, trace_id: str, root_id: str | None, where: str) -> Span | None:
        span_id = hex_id(item.get("id"), 8)
        if span_id is None:
            return None
        metadata = _metadata(item)
        original = metadata.get("attributes")
        start = iso_to_ns(item.get("startTime")) or 0
        level = str(item.get("level") or "DEFAULT").upper()
        if isinstance(original, dict):
            # Langfuse's own fields stay beside the span's attributes (the span's win): its ingestion
            # moves content (pydantic-ai's events, Agent Framework's messages) into input and output.
            # Not its usage: where the span reported none, Langfuse estimated it with a tokenizer.
            attributes = {**self._langfuse_attributes(item, trace, usage=False), **original}
            scope = metadata.get("scope") if isinstance(metadata.get("scope"), dict) else {}
            resource = metadata.get("resourceAttributes")
        else:
            attributes, scope, resource = self._langfuse_attributes(item, trace), {}, None
        parent = hex_id(item.get("parentObservationId"), 8) or root_id
        return Span(
            trace_id=trace_id,
            span_id=span_id,
            parent_span_id=parent if parent != span_id else None,
            name=str(item.get("name") or item.get("type") or ""),
            start_ns=start,
            end_ns=iso_to_ns(item.get("endTime")) or start,
            status_code="ERROR" if level == "ERROR" else "UNSET",
            status_message=item.get("statusMessage") or None,
            attributes=attributes,
            events=[SpanEvent(name="exception", attributes={"exception.message": item["statusMessage"]})]
            if level == "ERROR" and item.get("statusMessage") else [],
            resource=dict(resource) if isinstance(resource, dict) else {},
            scope_name=scope.get("name") or None,
            scope_version=scope.get("version") or None,
            where=where,
        )

    @staticmethod
    def _langfuse_attributes(item: dict, trace: dict, usage: bool = True) -> dict[str, Any]:
        attributes: dict[str, Any] = {"langfuse.observation.type": str(item.get("type") or "SPAN").upper()}
        for field, key in _CONTENT_FIELDS.items():
            if item.get(field) is not None:
                attributes[key] = _json_text(item[field])
        if item.get("model"):
            attributes["langfuse.observation.model.name"] = str(item["model"])
        details = (item.get("usageDetails") or item.get("usage")) if usage else None
        if isinstance(details, dict):
            attributes["langfuse.observation.usage_details"] = json.dumps(details)
        for field, key in (("userId", "langfuse.user.id"), ("sessionId", "langfuse.session.id")):
            if item.get(field) or trace.get(field):  # observations carry them in the v2 API
                attributes[key] = str(item.get(field) or trace[field])
        return attributes

    def slots(self, doc: dict) -> Iterator[tuple[StringSlot, Path]]:
        trace, observations = _parts(doc)
        base: Path = ("trace",) if trace is not doc else ()
        trace_id = hex_id(trace.get("id"), 16)
        root = (trace_id, None, None, "resource")
        trace_fields = (*_TRACE_FIELDS.items(), ("metadata", "langfuse.trace.metadata"), ("tags", "tag.tags"))
        for field, key in trace_fields:
            yield from named_slots(trace.get(field), key, (*base, field), root)
        yield from _rest(trace, {field for field, _ in trace_fields} | {"observations"}, base, root)
        if trace is not doc:
            yield from _rest(doc, {"trace", "observations"}, (), root)
        for index, item in enumerate(observations):
            path: Path = ("observations", index)
            if not isinstance(item, dict):
                yield from json_slots(item, None, path, root)
                continue
            owner = (trace_id, hex_id(item.get("id"), 8), item.get("name"), "span")
            for field, key in _CONTENT_FIELDS.items():
                yield from named_slots(item.get(field), key, (*path, field), owner)
            yield from _rest(item, {*_CONTENT_FIELDS, "metadata"}, path, owner)
            metadata = item.get("metadata")
            if not isinstance(metadata, dict):
                yield from named_slots(metadata, "langfuse.observation.metadata", (*path, "metadata"), owner)
                continue
            for name, value in metadata.items():
                yield StringSlot(*owner, None, str(name), field="key", form="key"), (*path, "metadata", name)
                if name in ("attributes", "resourceAttributes") and isinstance(value, dict):
                    here = owner if name == "attributes" else (trace_id, None, None, "resource")
                    for key, attribute in value.items():
                        yield from named_slots(attribute, str(key), (*path, "metadata", name, key), here)
                        yield StringSlot(*here, None, str(key), field="key", form="key"), (
                            *path, "metadata", name, key)
                elif name == "scope":  # the tracer's name and version: text with no key rule
                    yield from json_slots(value, None, (*path, "metadata", name), owner)
                else:
                    key = f"langfuse.observation.metadata.{name}"
                    yield from named_slots(value, key, (*path, "metadata", name), owner)


# Fields Langfuse itself writes (ids, times, kinds, names, versions, costs): scrubbed as text with no key
# rule (a `name` here names a trace or a step, not a person). Every other field is scrubbed under its key.
_OWN_FIELDS = frozenset({
    "id", "traceId", "parentObservationId", "name", "type", "level", "timestamp", "startTime", "endTime",
    "completionStartTime", "createdAt", "updatedAt", "projectId", "release", "version", "environment",
    "htmlPath", "public", "bookmarked", "model", "modelId", "modelParameters", "promptId", "promptName",
    "promptVersion", "usage", "usageDetails", "costDetails", "latency", "timeToFirstToken", "totalCost",
    "calculatedTotalCost", "calculatedInputCost", "calculatedOutputCost", "inputPrice", "outputPrice",
    "totalPrice", "unit", "promptTokens", "completionTokens", "totalTokens", "scores"})


def _rest(obj: dict, handled: set[str], path: Path, owner: tuple) -> Iterator[tuple[StringSlot, Path]]:
    """Fail closed: every field the codec did not offer above, with the keys of the unknown ones."""
    for name, value in obj.items():
        if name in handled:
            continue
        if name in _OWN_FIELDS:
            yield from json_slots(value, None, (*path, name), owner)
        else:
            yield from json_slots(value, name, (*path, name), owner)
            yield StringSlot(*owner, None, name, field="key", form="key"), (*path, name)


def _ns(value: Any) -> int | None:
    """An ISO time as Unix ns, None when absent or unreadable (the observation itself reports it)."""
    try:
        return iso_to_ns(value)
    except (TypeError, ValueError):
        return None


def _metadata(item: dict) -> dict[str, Any]:
    """An observation's metadata, also where the export holds it as JSON text (Langfuse's stored rows)."""
    metadata = item.get("metadata")
    if isinstance(metadata, str) and metadata.lstrip().startswith("{"):
        try:
            metadata = json.loads(metadata)
        except (ValueError, RecursionError):
            return {}
    return metadata if isinstance(metadata, dict) else {}
