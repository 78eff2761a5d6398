"""The trace export formats `promote` reads, by name (standard library only: `--help` lists them
without importing the ingester)."""

from __future__ import annotations

FORMAT_NAMES = {
    "otlp-json": "OTLP JSON (one ExportTraceServiceRequest; hex or base64 ids, enums as numbers or names)",
    "otlp-jsonl": "OTLP JSON lines (Collector file exporter, opentelemetry-exporter-otlp-json-file)",
    "otlp-proto": "OTLP protobuf with the Collector's 4-byte length prefix",
    "jaeger": "Jaeger query-API JSON ({\"data\": [{traceID, spans, processes}]})",
    "tempo": "Grafana Tempo trace export ({\"batches\": [...]})",
    "console": "OpenTelemetry ConsoleSpanExporter output (ReadableSpan.to_json objects)",
    "monocle": "Monocle (monocle_apptrace) file export: a JSON array of to_json spans",
    "langfuse": "Langfuse public-API trace export ({\"trace\": {...}, \"observations\": [...]})",
    "adk-dev": "ADK dev server /debug/trace/session JSON",
}
"""Every format read (`Export.format` values), as `promote traces --help` and the README list them;
gzip or zstd compression around any of them is sniffed too."""
