"""One codec per export format; the reader picks one by sniffing content (see promote.ingest.sniff)."""

from __future__ import annotations

from promote.ingest.formats.base import Codec
from promote.ingest.formats.console import AdkDevCodec, ConsoleCodec
from promote.ingest.formats.jaeger import JaegerCodec
from promote.ingest.formats.langfuse import LangfuseCodec
from promote.ingest.formats.otlp_json import OtlpJsonCodec
from promote.ingest.formats.otlp_proto import OtlpProtoCodec

_OTLP_JSON = OtlpJsonCodec()
_CONSOLE = ConsoleCodec()

CODECS: dict[str, Codec] = {
    "otlp-json": _OTLP_JSON,
    "otlp-jsonl": _OTLP_JSON,
    "tempo": _OTLP_JSON,
    "otlp-proto": OtlpProtoCodec(),
    "jaeger": JaegerCodec(),
    "console": _CONSOLE,
    "monocle": _CONSOLE,  # Monocle writes `to_json` spans in a JSON array; its convention is read later
    "langfuse": LangfuseCodec(),
    "adk-dev": AdkDevCodec(),
}
"""Format name (as `Export.format` reports it) → codec."""
