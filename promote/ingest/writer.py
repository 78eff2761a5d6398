"""Writing records back in the framing, format and compression they were read with."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

import zstandard

from promote.ingest.compression import CompressedWriter
from promote.ingest.containers import framed
from promote.ingest.formats.base import Record
from promote.ingest.sniff import COMPRESSIONS, FORMATS


def write_export(records: Iterable[Record], out: BinaryIO | str | Path, *, format: str,
                 compression: str | None) -> None:
    """Write records in the framing, format and compression they were read with.

    Unchanged records are written as their original bytes, so rewriting with nothing changed
    reproduces the decompressed input byte for byte (a compressed container is compressed anew).
    `out` is a binary stream (left open), a path, or `-` for stdout.
    """
    if format not in FORMATS or compression not in COMPRESSIONS:
        raise ValueError(f"unknown format {format!r} or compression {compression!r}")
    to_close = None
    if isinstance(out, (str, Path)):
        if str(out) == "-":
            out = sys.stdout.buffer
        else:
            out = to_close = open(out, "wb")  # noqa: SIM115 - closed below
    try:
        if compression == "zstd-framed":
            compressor = zstandard.ZstdCompressor()
            for record in records:
                out.write(framed(record.raw, compressor))
            out.flush()
            return
        writer = CompressedWriter(out, compression)
        if format == "otlp-proto":
            for record in records:
                writer.write(framed(record.raw, None))
        else:
            for record in records:
                writer.write(record.prefix + record.raw + record.suffix)
        writer.finish()
    finally:
        if to_close is not None:
            to_close.close()
