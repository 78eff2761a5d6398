"""The field types that say what a value of a case means: a text that says something, a count, an
amount that can be compared with.

An empty or blank title, tool name or citation means nothing and would match everything (`''` is in
every reply); a revision of `true` or a turn of -1 is not a number of anything; a tolerance of NaN
passes every figure and a negative one fails every figure. The schema refuses them, so `validate`
says so where the file does.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, StringConstraints, WithJsonSchema

Text = Annotated[str, StringConstraints(min_length=1, pattern=r"\S")]
"""A text with at least one character that is not white space."""
Count = Annotated[int, Field(strict=True, ge=0)]
"""A whole number of at least 0 (not `true`, not `"3"`)."""
Positive = Annotated[int, Field(strict=True, ge=1)]
"""A whole number of at least 1."""
def _not_a_flag(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("a number, not true or false")
    return value


def _finite(value: float | int) -> float | int:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("a finite number (not .nan or .inf)")
    return value


def _non_negative(value: float | int) -> float | int:
    if _finite(value) < 0:
        raise ValueError("a number of at least 0")
    return value


Tolerance = Annotated[float | int, BeforeValidator(_not_a_flag), AfterValidator(_non_negative),
                      WithJsonSchema({"type": "number", "minimum": 0})]
"""An allowed absolute difference: a finite number of at least 0."""
Amount = Annotated[float | int, BeforeValidator(_not_a_flag), AfterValidator(_finite),
                   WithJsonSchema({"type": "number"})]
"""A finite number (a figure's value)."""
