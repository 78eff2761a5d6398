"""Google ADK 2.x: the same `gcp.vertex.agent` tracer, with GenAI semconv on the inference span.

Spans: `invoke_workflow <root>` (or `invocation`) > `invoke_agent <agent>` > `call_llm` >
`generate_content <model>`, and `execute_tool <tool>` as a sibling of `call_llm` (schema v2) or below
it. One model request is the `call_llm` and its `generate_content` child together: usage is on both,
content is in `gen_ai.input.messages` / `gen_ai.output.messages` on `generate_content` when the GenAI
opt-in is set, and in ADK's legacy `llm_request` / `llm_response` on `call_llm` unless
`ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=false`.
"""

from __future__ import annotations

from promote.ingest.conventions import adk1, genai
from promote.ingest.conventions.base import Convention
from promote.trace_model import Span

_GENAI_CONTENT_KEYS = ("gen_ai.input.messages", "gen_ai.output.messages")


def _major(version: str | None) -> int | None:
    head = (version or "").split(".", 1)[0]
    return int(head) if head.isdigit() else None


def detect(spans: list[Span]) -> bool:
    if not adk1.is_adk(spans):
        return False
    versions = {_major(s.scope_version) for s in spans if s.scope_name == adk1.SCOPE} - {None}
    if versions:
        return max(versions) >= 2  # type: ignore[type-var]
    # Exports that drop the scope version: only 2.x has workflow roots; GenAI content is opt-in on 2.x.
    return any(
        s.name.startswith("invoke_workflow") or any(k in s.attributes for k in _GENAI_CONTENT_KEYS)
        for s in spans
    )


CONVENTION = Convention(
    name="adk-2",
    detect=detect,
    model_readers=(genai.read_model, adk1.read_model),
    tool_readers=(adk1.read_tool, genai.read_tool),
    root_readers=(adk1.read_root, genai.read_root),
    capture_hint=adk1.ADK_CAPTURE_HINT,
)
