"""One codec per export format; the reader picks one by sniffing content (see promote.ingest.reader)."""

from __future__ import annotations

from promote.ingest.formats.base import Codec
from promote.ingest.formats.console import AdkDevCodec, ConsoleCodec
from promote.ingest.formats.jaeger import JaegerCodec
from promote.ingest.formats.otlp_json import OtlpJsonCodec
from promote.ingest.formats.otlp_proto import OtlpProtoCodec

_OTLP_JSON = OtlpJsonCodec()

CODECS: dict[str, Codec] = {
    "otlp-json": _OTLP_JSON,
    "otlp-jsonl": _OTLP_JSON,
    "tempo": _OTLP_JSON,
    "otlp-proto": OtlpProtoCodec(),
    "jaeger": JaegerCodec(),
    "console": ConsoleCodec(),
    "adk-dev": AdkDevCodec(),
}
"""Format name (as `Export.format` reports it) → codec."""
