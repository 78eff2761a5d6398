"""Why a trace gave no turn: what its spans carry and which conventions were tried.

Never zero in silence: `promote traces` and `promote draft` say this per trace instead of "0 turns".
"""

from __future__ import annotations

from collections import Counter

from promote.ingest.conventions import CONVENTIONS, Convention
from promote.ingest.conventions.base import (
    LANGFUSE_TYPE,
    MONOCLE_TYPE,
    is_model_span,
    is_tool_span,
    is_transport_span,
)
from promote.trace_model import Span

LABELS = {"monocle": "Monocle", "openinference": "OpenInference", "adk-2": "Google ADK 2",
          "adk-1": "Google ADK 1", "langfuse": "Langfuse", "genai": "OpenTelemetry GenAI"}
"""Each convention's name as the messages say it."""
_FAMILIES = (
    ("Monocle", lambda key: key in (MONOCLE_TYPE, "monocle_apptrace.version") or key.startswith("entity.")),
    ("OpenInference",
     lambda key: key.startswith(("openinference.", "llm.")) or key in ("input.value", "output.value")),
    ("Google ADK", lambda key: key.startswith("gcp.vertex.agent.")),
    ("OpenTelemetry GenAI", lambda key: key.startswith("gen_ai.")),
    ("Langfuse", lambda key: key == LANGFUSE_TYPE),
    ("HTTP/RPC", lambda key: key.startswith(("http.", "url.", "rpc.", "grpc."))),
)


def tried() -> str:
    """The conventions tried, in order, as a message names them."""
    return ", ".join(LABELS.get(c.name, c.name) for c in CONVENTIONS)


def why_no_turns(spans: list[Span], convention: Convention | None) -> str:
    """One sentence (or two) for a trace that gave no turn."""
    names = Counter(s.name for s in spans)
    shown = ", ".join(f"`{name}`" for name, _ in names.most_common(3)) + (", ..." if len(names) > 3 else "")
    scopes = sorted({s.scope_name for s in spans if s.scope_name})
    seen = f"{len(spans)} span(s) ({shown}" + (f"; scope {', '.join(scopes[:3])}" if scopes else "") + ")"
    families = [label for label, has in _FAMILIES if any(has(k) for s in spans for k in s.attributes)]
    if convention is not None:
        label = LABELS.get(convention.name, convention.name)
        return (f"{seen}: spans carry {label} attributes but no {convention.root_kind} and no model or tool "
                f"span, so there is no turn to rebuild")
    if spans and all(is_transport_span(s) for s in spans):
        return (f"{seen}: only HTTP/RPC transport spans (a controller or proxy), no agent framework span; "
                f"export the agent's own spans too (tried {tried()})")
    if not families:
        return f"{seen}: no span carries the attributes of an agent convention (tried {tried()})"
    found_roles = any(is_model_span(s) or is_tool_span(s) for s in spans)
    what = "no agent turn" if found_roles else "no agent, model or tool span"
    return f"{seen}: spans carry {' and '.join(families)} attributes but {what} (tried {tried()})"
