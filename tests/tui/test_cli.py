"""`promote tui` on the command line: errors a user can act on, and the core never loads Textual."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT, run_cli


def test_nothing_to_open_is_exit_2():
    done = run_cli("tui")
    assert done.returncode == 2
    assert b"give trace exports to browse, or --case CASE.yaml" in done.stderr


def test_a_missing_export_is_named():
    done = run_cli("tui", "no/such/export.jsonl")
    assert done.returncode == 2
    assert done.stderr.decode().strip() == "promote tui: no/such/export.jsonl: no such file"


def test_the_command_line_does_not_import_textual():
    code = ("import sys; from promote.cli.main import build_parser; build_parser(); "
            "import promote.draft, promote.listing, promote.case.validate; "
            "ui = [m for m in sys.modules if m == 'textual' or m.startswith(('textual.', 'tui'))]; "
            "sys.exit(1 if ui else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
