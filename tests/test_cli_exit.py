"""The quick exit after a command: the exit code, the exit handlers and the buffered output all survive."""

from __future__ import annotations

import subprocess
import sys

PROGRAM = """
import atexit, sys, tempfile, threading
from promote.cli.main import exit_quickly
folder = tempfile.TemporaryDirectory()
atexit.register(lambda: print("handler ran", flush=False))
print(folder.name)
sys.stdout.write("buffered, not flushed")
{extra}
exit_quickly({code})
"""


def _run(code: int, extra: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROGRAM.format(code=code, extra=extra)], capture_output=True,
                          text=True, timeout=60)


def test_the_code_the_handlers_and_the_buffered_output_survive_the_quick_exit(tmp_path) -> None:
    done = _run(3)
    assert done.returncode == 3
    folder, rest = done.stdout.split("\n", 1)
    assert rest == "buffered, not flushedhandler ran\n"
    assert not __import__("os").path.exists(folder)  # the temporary folder's finalizer ran


def test_with_another_thread_running_the_process_ends_the_usual_way() -> None:
    extra = "threading.Thread(target=lambda: (__import__('time').sleep(0.3), print('thread done'))).start()"
    done = _run(0, extra)
    assert done.returncode == 0
    assert "thread done" in done.stdout  # the usual exit waited for the thread
