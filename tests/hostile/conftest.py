"""Fixtures every hostile-input module shares."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def engine():
    """The one engine of the default policy (`promote.scrubbing.engine`, cached per process)."""
    from promote import scrubbing

    return scrubbing.engine()
