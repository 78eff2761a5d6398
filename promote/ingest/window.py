"""Spans of many export files, streamed record by record (`iter_record_spans`) or one by one
(`iter_spans`). Grouping them into traces is `promote.source.traces`' business: one rule for every
front end.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import closing
from pathlib import Path

from promote.errors import PromoteError
from promote.ingest.formats.base import Record
from promote.ingest.reader import Export, open_export
from promote.ingest.sniff import NOTHING_FOUND
from promote.trace_model import Skipped, Span


def iter_record_spans(
    paths: Iterable[str | Path], *, skipped: list[Skipped] | None = None,
    digests: dict[str, str] | None = None,
) -> Iterator[list[Span]]:
    """The spans of each record of each file, in file order (one list per record).

    Raises PromoteError for a file that cannot be read or holds no usable span; everything else
    that cannot be read is noted in `skipped` and reading goes on. `digests`, when given, receives each
    file's sha256 (`Export.sha256`) once it is read, or once the reader stops early (closes this).
    """
    for path in paths:
        export = open_export(path)
        notes: list[Skipped] = []
        found = 0
        with closing(_export_spans(export, notes)) as records:
            try:
                for spans in records:
                    found += len(spans)
                    if spans:
                        yield spans
            except GeneratorExit:
                if digests is not None:
                    digests[str(path)] = export.sha256()
                raise
        if digests is not None:
            digests[str(path)] = export.sha256()
        if skipped is not None:
            skipped.extend(notes)
        if not found:
            first = f"first problem: {notes[0].where}: {notes[0].why}" if notes else "the file holds no spans"
            raise PromoteError(NOTHING_FOUND, where=export.path, hint=first, quotes_input=bool(notes))


def _export_spans(export: Export, notes: list[Skipped]) -> Iterator[list[Span]]:
    if export.format != "console":
        for item in export.records():
            if isinstance(item, Skipped):
                notes.append(item)
            else:
                yield list(export.spans(item, notes))
        return
    # Some console exporters print a span twice, once before it ends (`end_time` null): keep the ended
    # one. This holds the ids of a console file's spans in memory (console output is small).
    ended: set[str] = set()
    unended: dict[str, Span] = {}
    for item in export.records():
        if isinstance(item, Skipped):
            notes.append(item)
            continue
        has_end = _has_end(item)
        fresh = []
        for span in export.spans(item, notes):
            if span.span_id in ended:
                continue
            if has_end:
                ended.add(span.span_id)
                unended.pop(span.span_id, None)
                fresh.append(span)
            else:
                unended[span.span_id] = span
        yield fresh
    yield list(unended.values())


def _has_end(record: Record) -> bool:
    return isinstance(record.doc, dict) and record.doc.get("end_time") is not None


def iter_spans(paths: Iterable[str | Path], *, skipped: list[Skipped] | None = None) -> Iterator[Span]:
    """Every span of every file, streaming (memory does not grow with the files)."""
    for spans in iter_record_spans(paths, skipped=skipped):
        yield from spans
