"""Names a package lends from its submodules, loaded on first use (PEP 562): importing the package loads
nothing heavy, and no import cycle forms through it (`scrubbers`, `scrubbers.speed`)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_names(package: str, homes: dict[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The package's `__getattr__`: `name` is read from the module `homes[name]` and kept in `namespace`."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = namespace[name] = getattr(importlib.import_module(home), name)
        return value

    return __getattr__
