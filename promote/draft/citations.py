"""Retrieval chunks from tool results, and the citations of those chunks that the reply mentions."""

from __future__ import annotations

import re
from typing import Any

from promote.case.model import RetrievalChunk
from promote.trace_model import ToolCall

CITATION_RE = re.compile(r"[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)* §\d+(?:\.\d+)*")
_ID_KEYS = ("citation", "id", "source")
_TEXT_KEYS = ("text", "content")


def retrieval_chunks(calls: list[ToolCall], retrieval_tools: list[str] | None) -> list[RetrievalChunk]:
    """Chunks of every retrieval result, in call order, without repeats.

    A retrieval result is a list of objects with `citation|id|source` and `text|content`, at any depth
    of the result. With `retrieval_tools`, only those tools count (whatever their results look like
    elsewhere); without, any tool whose result holds such a list does.
    """
    chunks: list[RetrievalChunk] = []
    for call in calls:
        if retrieval_tools is not None and call.name not in retrieval_tools:
            continue
        for chunk in _chunks_in(call.result):
            if chunk not in chunks:
                chunks.append(chunk)
    return chunks


def _chunks_in(value: Any) -> list[RetrievalChunk]:
    if isinstance(value, list):
        chunks = [_as_chunk(item) for item in value]
        if chunks and all(chunk is not None for chunk in chunks):
            return chunks  # type: ignore[return-value]
        return [chunk for item in value for chunk in _chunks_in(item)]
    if isinstance(value, dict):
        return [chunk for item in value.values() for chunk in _chunks_in(item)]
    return []


def _as_chunk(item: Any) -> RetrievalChunk | None:
    if not isinstance(item, dict):
        return None
    citation = next((item[k] for k in _ID_KEYS if isinstance(item.get(k), (str, int))
                     and str(item[k]).strip()), None)
    text = next((item[k] for k in _TEXT_KEYS if isinstance(item.get(k), str) and item[k].strip()), None)
    if citation is None or text is None:
        return None
    return RetrievalChunk(citation=str(citation), text=text)


def cited_in_reply(reply: str, chunks: list[RetrievalChunk]) -> tuple[list[str], list[str]]:
    """The chunk citations the reply mentions (in reply order), and notes on citations it makes that
    no retrieved chunk carries (they cannot be `must_cite` entries)."""
    positions = {}
    for chunk in chunks:
        found = re.search(re.escape(chunk.citation) + r"(?![\w]|\.\d)", reply)
        if found and chunk.citation not in positions:
            positions[chunk.citation] = found.start()
    known = {chunk.citation for chunk in chunks}
    notes = [
        f"the reply cites {cited}, which no retrieved chunk carries: not added to must_cite"
        for cited in dict.fromkeys(m.group(0) for m in CITATION_RE.finditer(reply))
        if cited not in known
    ]
    return sorted(positions, key=positions.__getitem__), notes
