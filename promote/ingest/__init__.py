"""Reading trace exports: every format becomes our `promote.trace_model.Span` here and nowhere else.

`open_export` sniffs a file's compression and format from its content; `Export.records` streams its
framing units; `Export.spans` converts one; `Export.slots`, `Export.rewrite` (those of a `RecordCodec`,
which batch workers use alone) and `write_export` let the batch scrubber change string values and write
the export back in its own format and compression.
`iter_spans` and `iter_record_spans` stream many files at once; `promote.source` groups them into traces.
"""

from promote.ingest.formats.base import Record, StringSlot
from promote.ingest.reader import Export, open_export
from promote.ingest.sniff import COMPRESSIONS, FORMATS, NOTHING_FOUND
from promote.ingest.window import iter_record_spans, iter_spans
from promote.ingest.writer import write_export
from promote.trace_model import Skipped

__all__ = [
    "COMPRESSIONS",
    "FORMATS",
    "NOTHING_FOUND",
    "Export",
    "Record",
    "Skipped",
    "StringSlot",
    "iter_record_spans",
    "iter_spans",
    "open_export",
    "write_export",
]
