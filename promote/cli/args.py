"""Argument types shared by the subcommands."""

from __future__ import annotations

import argparse
from typing import Any, Callable


def at_least(minimum: float, kind: type) -> Callable[[str], Any]:
    """An argparse type: a number of `kind` no smaller than `minimum` (argparse reports anything else)."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {text}")
        return value

    return parse
