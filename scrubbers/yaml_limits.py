"""Bounds for YAML that users hand us (scrub policies, case files): size and alias expansion.

A YAML alias refers to an anchored node instead of copying it, so a few hundred bytes can stand for
billions of nodes ("billion laughs"). Loading keeps the references; anything that walks the document
afterwards (validation, copying to plain data) would expand them. `expanded_size` counts what a walk
would visit without walking it, in time linear in the distinct nodes.
"""

from __future__ import annotations

from typing import Any

MAX_YAML_BYTES = 4 << 20
"""Largest policy or case file read (4 MiB): real ones are a few KB."""
MAX_YAML_NODES = 200_000
"""Most nodes a document may expand to, aliases counted as copies."""


def expanded_size(document: Any, limit: int = MAX_YAML_NODES) -> int:
    """Nodes the document holds once every alias is expanded, counting up to just past `limit`."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()

    def size(node: Any) -> int:
        if not isinstance(node, (dict, list)):
            return 1
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in on_path:  # a recursive alias: infinitely large
            return limit + 1
        on_path.add(key)
        total = 1
        children = node.items() if isinstance(node, dict) else enumerate(node)
        for name, child in children:
            total += size(child) + (size(name) if isinstance(node, dict) else 0)
            if total > limit:
                break
        on_path.discard(key)
        sizes[key] = total = min(total, limit + 1)
        return total

    return size(document)


def too_big(document: Any, limit: int = MAX_YAML_NODES) -> bool:
    """True when the document expands to more than `limit` nodes (an alias bomb, or just too large)."""
    return expanded_size(document, limit) > limit
