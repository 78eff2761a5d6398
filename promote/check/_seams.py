"""Adapters to the seams contract (typed `ArgRule`, `Budgets`, the engine factory) while it lands.

Each function reads the typed form when `promote.case` has it and today's untyped form otherwise, so
switching to the typed names is one edit here. Delete this module once seams is on main.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from promote.case.model import Case


@dataclass(frozen=True)
class BudgetLimits:
    """The four budgets of a case (None: no limit set)."""

    max_tool_calls: int | None = None
    max_model_calls: int | None = None
    max_tokens: int | None = None
    max_duration_ms: float | None = None


@dataclass(frozen=True)
class Rule:
    """One per-argument match rule."""

    kind: str  # exact | ignore | regex | tolerance | one_of
    pattern: str | None = None
    tolerance: float | None = None
    values: list[Any] | None = None


def budgets_of(case: Case) -> BudgetLimits | None:
    """The case's budgets: `case.budgets` when typed, else today's `metadata.budgets` as drafts write it."""
    typed = getattr(case, "budgets", None)
    if typed is not None:
        return BudgetLimits(typed.max_tool_calls, typed.max_model_calls, typed.max_tokens,
                            typed.max_duration_ms)
    raw = case.metadata.get("budgets")
    if not isinstance(raw, dict):
        return None
    tokens = raw.get("max_tokens")
    if tokens is None and (raw.get("input_tokens") is not None or raw.get("output_tokens") is not None):
        tokens = (raw.get("input_tokens") or 0) + (raw.get("output_tokens") or 0)
    limits = BudgetLimits(
        max_tool_calls=raw.get("max_tool_calls", raw.get("tool_calls")),
        max_model_calls=raw.get("max_model_calls", raw.get("model_calls")),
        max_tokens=tokens,
        max_duration_ms=raw.get("max_duration_ms", raw.get("duration_ms")),
    )
    return limits if limits != BudgetLimits() else None


def arg_rule(raw: Any) -> Rule:
    """A match rule from its typed form (`ArgRule`) or its YAML string / list form."""
    if hasattr(raw, "kind"):
        return Rule(raw.kind, getattr(raw, "pattern", None), getattr(raw, "tolerance", None),
                    getattr(raw, "values", None))
    if isinstance(raw, list):
        return Rule("one_of", values=raw)
    text = str(raw)
    if text.startswith("regex:"):
        return Rule("regex", pattern=text[len("regex:"):])
    if text.startswith("tolerance:"):
        return Rule("tolerance", tolerance=float(text[len("tolerance:"):]))
    if text.startswith("one_of:"):
        from promote.case.yaml_io import yaml_factory

        values = yaml_factory().load(text[len("one_of:"):])
        return Rule("one_of", values=list(values) if isinstance(values, list) else [values])
    return Rule("ignore" if text == "ignore" else "exact")


@lru_cache(maxsize=4)
def engine(policy: str | None = None) -> Any:
    """The scrub engine: the one factory `promote.scrubbing.engine` once it exists."""
    try:
        from promote.scrubbing import engine as factory
    except ImportError:
        from scrubbers import ScrubEngine, load_policy

        return ScrubEngine(load_policy(policy))
    return factory(policy)
