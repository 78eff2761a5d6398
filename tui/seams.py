"""The core calls the UI makes, in one place: the case store, validation, the eval repo, the engine.

Everything here is the core's own (`promote.case.store`, `promote.case.validate`, `promote.repo`,
`promote.scrubbing`); the UI imports these names from this module only.
"""

from __future__ import annotations

from pathlib import Path

from promote.case.model import Case
from promote.case.problems import Problem
from promote.case.store import (CaseRefused, LoadedCase, SavedCase, load_case, raw_value_fields, render_case,
                                 save_case)
from promote.case.validate import validate_case
from promote.eval_repo import EvalRepo
from promote.scrubbing import engine

__all__ = ["CaseRefused", "EvalRepo", "LoadedCase", "Problem", "SavedCase", "engine", "live_problems",
           "load_case", "raw_value_fields", "render_case", "save_case"]


def live_problems(case: Case, path: Path) -> list[Problem]:
    """What `promote validate` says of the case as it would be saved at `path`, without the NER scan
    (seconds per run: it runs at save, in `save_case`'s gate)."""
    return validate_case(case, path=path, residual_scan=None)
