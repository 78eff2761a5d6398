"""The committed JSON Schema matches the models; core packages never import the UI."""

from __future__ import annotations

import subprocess
import sys

from promote.case.schema import SCHEMA_PATH, case_json_schema_text


def test_committed_schema_matches_the_models() -> None:
    assert SCHEMA_PATH.read_text() == case_json_schema_text(), (
        "schema/portable-v1.schema.json drifted from promote/case/model.py: "
        "run `python -m promote.case.schema` and commit the result"
    )


def test_core_packages_do_not_import_textual() -> None:
    code = (
        "import sys, pkgutil, importlib, promote, scrubbers\n"
        "for pkg in (promote, scrubbers):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        if m.name.endswith('__main__'): continue\n"
        "        importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.') or m == 'tui' or "
        "m.startswith('tui.'))\nprint(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == ""


def test_scrubbers_never_import_promote() -> None:
    code = (
        "import sys, pkgutil, importlib, scrubbers\n"
        "for m in pkgutil.walk_packages(scrubbers.__path__, 'scrubbers.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(','.join(sorted(m for m in sys.modules if m == 'promote' or m.startswith('promote.'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == ""
