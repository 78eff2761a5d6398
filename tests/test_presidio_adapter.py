"""Presidio's private API is used in one module (`scrubbers.analysis.presidio_adapter`), listed in its
`PRIVATE_API`: an installed Presidio that no longer has a listed name, signature or call fails here,
naming the symbol."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from scrubbers.analysis import presidio_adapter
from scrubbers.analysis.presidio_adapter import (
    PRESIDIO_VERSION,
    PRIVATE_API,
    PrivateName,
    private_api_problems,
)

ROOT = Path(__file__).resolve().parent.parent
MANGLED_OR_PRIVATE = re.compile(
    r"_AnalyzerEngine__|_doc_to_nlp_artifact|_get_(?:updated_)?entities|_get_scores_for_entities"
    r"|_find_index_of_match_token|_enhance_using_context")


def test_the_installed_presidio_has_every_private_name_the_adapter_relies_on():
    problems = private_api_problems()
    assert problems == [], ("Presidio's private API changed; rewrite "
                            "scrubbers/analysis/presidio_adapter.py:\n" + "\n".join(problems))


def test_the_adapter_is_pinned_to_the_presidio_it_was_written_for():
    pins = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert f"presidio-analyzer=={PRESIDIO_VERSION}" in pins, (
        f"pyproject.toml no longer pins presidio-analyzer=={PRESIDIO_VERSION}, the release "
        "scrubbers/analysis/presidio_adapter.py was written for: check its PRIVATE_API, then move "
        "PRESIDIO_VERSION")
    assert presidio_adapter.installed_presidio() == PRESIDIO_VERSION, (
        f"presidio-analyzer {presidio_adapter.installed_presidio()} is installed, the adapter was written "
        f"for {PRESIDIO_VERSION}: run this file, rewrite what it names, then move PRESIDIO_VERSION")


@pytest.mark.parametrize("broken, named", [
    (PrivateName(presidio_adapter.AnalyzerEngine, "_AnalyzerEngine__gone", ("results",), "called"),
     "AnalyzerEngine._AnalyzerEngine__gone is gone"),
    (PRIVATE_API[1]._replace(parameters=("self", "results")), "_AnalyzerEngine__remove_low_scores takes"),
    (PRIVATE_API[3]._replace(called_in="get_recognizers"),
     "no longer called in AnalyzerEngine.get_recognizers"),
])
def test_a_changed_private_name_is_reported_by_name(monkeypatch, broken, named):
    monkeypatch.setattr(presidio_adapter, "PRIVATE_API", (*PRIVATE_API, broken))
    problems = private_api_problems()
    assert len(problems) == 1 and named in problems[0]


def test_no_other_scrubber_module_uses_a_private_presidio_name():
    adapter = Path(presidio_adapter.__file__).resolve()
    users = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "scrubbers").rglob("*.py"))
             if path.resolve() != adapter and MANGLED_OR_PRIVATE.search(path.read_text())]
    assert users == []
