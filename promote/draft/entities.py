"""Entities and tenant of a draft: the production user becomes an unresolved entity to map.

When the eval repo has an entity catalog (`evals/entities.yaml`, read by `promote.eval_repo`), the
draft's notes suggest the handles that share the most words with the turn's input and tool calls. The
entity a draft starts with comes from the repo's config (`evals/promote.yaml`), else `REQUESTING_USER`.
"""

from __future__ import annotations

import re
from typing import Any

from promote.case.model import Entity, Tenant
from promote.case.rules import PLACEHOLDER_RE, UNRESOLVED_PREFIX
from promote.eval_repo import Catalog
from promote.trace_model import Turn

REQUESTING_USER = Entity(
    handle=f"{UNRESOLVED_PREFIX}requesting_user",
    description=(
        # Worded so that the residual-PII gate's NER does not read a name into it ("Map" was a PERSON).
        "The production user who asked, scrubbed: replace with the overlay handle of a sandbox "
        "record in the same situation."
    ),
)
DEFAULT_TENANT = Tenant(id="unresolved", environment="sandbox", data="production-scrubbed")
_STOPWORDS = {
    "the", "and", "for", "you", "your", "are", "was", "what", "how", "much", "this", "that", "with",
    "get", "search", "list", "fetch", "update", "into", "from", "have", "has", "will", "not", "all",
    "my", "do", "if", "of", "to", "in", "is", "it", "me", "on", "or", "an", "at", "be", "by", "we",
    "up", "so", "no", "hi", "am", "can", "next", "year", "id",
}


def suggest_handles(catalog: Catalog, turn: Turn, limit: int = 3) -> list[tuple[str, list[str]]]:
    """(handle, shared words) of the catalog entries closest to the turn, best first."""
    wanted = _words(turn.user_input or "")
    for call in turn.tool_calls:
        wanted |= _words(call.name) | _words(_scalars(call.args))
    described = [(entity, _words(" ".join(filter(None, [entity.handle, entity.via, entity.description]))))
                 for entity in catalog.entities]
    # A word most entries share ("employee" in an HR catalog, "cluster" in an IT one) tells them apart
    # from nothing: the domain's vocabulary is read from the catalog, not listed here.
    counts: dict[str, int] = {}
    for _, words in described:
        for word in words:
            counts[word] = counts.get(word, 0) + 1
    common = {word for word, n in counts.items() if n > 2 and n > len(described) / 2}
    scored = []
    for entity, words in described:
        shared = sorted((wanted & words) - common)
        if shared:
            scored.append((len(shared), entity.handle, shared))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(handle, shared) for _, handle, shared in scored[:limit]]


def _scalars(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(_scalars(item) for item in value.values())
    if isinstance(value, list):
        return " ".join(_scalars(item) for item in value)
    return str(value) if value is not None else ""


def _words(text: str) -> set[str]:
    text = PLACEHOLDER_RE.sub(" ", text)
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if len(w) >= 2 and w not in _STOPWORDS}
