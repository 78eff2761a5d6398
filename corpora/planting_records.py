"""Planting a carrier at every string a record can hold, for exports that are not one JSON document:
protobuf requests (every string field of every message present, set or not, and every bytes field) and
console span objects (every string leaf), written back in the export's own framing."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from corpora.planting import string_paths
from promote.ingest import Record, open_export, write_export

_STRING, _BYTES = FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES
_MESSAGE = FieldDescriptor.TYPE_MESSAGE


def proto_paths(message: Message, path: tuple = ()) -> Iterator[tuple]:
    """The path (field names and list indices) of every string and bytes field of each message present,
    set or not (so a span's empty `trace_state` or a status without a message is planted too)."""
    for field in message.DESCRIPTOR.fields:
        repeated = field.is_repeated
        value = getattr(message, field.name)
        if field.type == _MESSAGE:
            if repeated:
                for index, item in enumerate(value):
                    yield from proto_paths(item, (*path, field.name, index))
            elif message.HasField(field.name):
                yield from proto_paths(value, (*path, field.name))
        elif field.type in (_STRING, _BYTES):
            if repeated:
                yield from ((*path, field.name, index) for index in range(len(value)))
            else:
                yield (*path, field.name)


def _set_proto(message: Message, path: tuple, carrier: str) -> None:
    target: Any = message
    for step in path[:-1]:
        target = target[step] if isinstance(step, int) else getattr(target, step)
    last = path[-1]
    field = (target.DESCRIPTOR.fields_by_name[path[-2]] if isinstance(last, int)
             else target.DESCRIPTOR.fields_by_name[last])
    value: str | bytes = carrier.encode() if field.type == _BYTES else carrier
    if isinstance(last, int):
        target[last] = value
    else:
        setattr(target, last, value)


def _set_json(doc: Any, path: tuple, carrier: str) -> None:
    for step in path[:-1]:
        doc = doc[step]
    doc[path[-1]] = carrier


def plant_every_record_field(sources: list[Path], carriers: dict[str, str], folder: Path,
                             records: int = 3) -> dict[tuple, Path]:
    """A copy of each export per distinct string position (list indices folded) of its first `records`
    records and per carrier, with that string replaced by the carrier; by (export name, path, kind)."""
    made: dict[tuple, Path] = {}
    for source in sources:
        export = open_export(source)
        read = list(export.records())
        proto = export.format == "otlp-proto"
        shapes: set[tuple] = set()
        for number, record in enumerate(read[:records]):
            for path in (proto_paths(record.doc) if proto else string_paths(record.doc)):
                shape = tuple("#" if isinstance(step, int) else step for step in path)
                if shape in shapes:
                    continue
                shapes.add(shape)
                for kind, carrier in carriers.items():
                    doc = copy.deepcopy(record.doc)
                    (_set_proto if proto else _set_json)(doc, path, carrier)
                    raw = doc.SerializeToString() if proto else json.dumps(doc, indent=4).encode()
                    written = [*read[:number], Record(record.where, raw, doc, record.prefix, record.suffix),
                               *read[number + 1:]]
                    planted = made[(source.name, shape, kind)] = folder / f"{len(made):05d}-{source.name}"
                    write_export(written, planted, format=export.format, compression=None)
    return made
