"""The fixture exports and the rewrite helpers that the format tests share."""

from __future__ import annotations

import json
from pathlib import Path

from promote.ingest import open_export, write_export
from promote.ingest.formats.base import Record

TRACES = Path(__file__).resolve().parent.parent / "fixtures" / "traces"
EXPECTED = (
    json.loads((TRACES / "expected.json").read_text())
    if (TRACES / "expected.json").exists()
    else {"files": {}}
)
FILES = EXPECTED["files"]


def rewrite_strings(export, record: Record, fn) -> Record:  # noqa: ANN001 - a StringSlot callback
    """`fn(slot)` for every value of the record; the record with what it returned (None: kept)."""
    changes = []
    for slot, path in export.slots(record):
        replacement = fn(slot)
        if replacement is not None and replacement != slot.value:
            changes.append((path, replacement, slot.form))
    return export.rewrite(record, changes)


def rewrite_file(source: Path, target: Path, fn) -> None:  # noqa: ANN001 - a StringSlot callback
    export = open_export(source)
    records = [rewrite_strings(export, item, fn) for item in export.records() if isinstance(item, Record)]
    write_export(records, target, format=export.format, compression=export.compression)
