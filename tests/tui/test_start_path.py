"""The browser's first rows come before the heavy parts load (issue 37: first rows < 1 s on 100 MB).

Both the UI process and its loader child are checked in a fresh process, by what `sys.modules` holds at
the moment that matters: the case model (with the eval repo, the editor and tldextract's set-up behind
it) loads in workers after the first rows, never before them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.tui.conftest import EXPORT

ROOT = Path(__file__).resolve().parents[2]
LATER = ("promote.case.model", "promote.eval_repo", "tldextract", "tui.screens.promote", "tui.edit_session")

UI_FIRST_FRAME = """
import asyncio, json, sys
from pathlib import Path
from tui.app import PromoteApp
from tui.screens.browser import BrowserScreen
from tui.widgets.turn_table import TurnTable

class NothingYet:
    '''A loader child that has sent nothing yet.'''
    def messages(self):
        return iter(())
    def want(self, trace_id):
        pass
    def stop(self):
        pass

async def first_frame():
    app = PromoteApp([Path("export.otlp.jsonl")], repo_dir=Path.cwd(), loader=NothingYet())
    app.prepare()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen) and app.screen.query_one(TurnTable).display
        print(json.dumps(sorted(sys.modules)))

asyncio.run(first_frame())
"""

CHILD_FIRST_ROWS = """
import json, os, sys, threading
from pathlib import Path
from tui.loader import serve
from tui.pipe import RowsRead

class Requests:
    def get(self):
        threading.Event().wait()

class Results:
    def put(self, message):
        if isinstance(message, RowsRead) and message.rows:
            print(json.dumps(sorted(sys.modules)), flush=True)
            os._exit(0)

serve([Path(sys.argv[1])], None, Requests(), Results())
"""


def modules_loaded(program: str, *args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", program, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_browsers_first_frame_loads_no_case_model_eval_repo_editor_or_tldextract(tmp_path):
    loaded = modules_loaded(UI_FIRST_FRAME)
    assert "tui.screens.browser" in loaded
    assert [name for name in LATER if name in loaded] == []


def test_the_loader_child_sends_its_first_rows_before_it_loads_the_scrub_queue():
    loaded = modules_loaded(CHILD_FIRST_ROWS, str(EXPORT))
    assert "promote.source.traces" in loaded  # the reader, which the rows need
    assert [name for name in ("promote.source.queue", *LATER) if name in loaded] == []
