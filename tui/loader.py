"""Reading and scrubbing exports in a child process, so the UI's event loop never waits for them.

Parsing JSON and running spaCy hold Python's GIL for long stretches; in a thread of the UI process that
stalls frames by hundreds of milliseconds. The child reads the exports and scrubs the traces; the UI
process receives metadata rows and scrubbed traces only, so raw text never reaches it at all.
No Textual here: `serve` runs in the child (`python -m tui.loader`), `Loader` is the UI's handle on it;
this module imports nothing heavy, so `promote tui` can start the child before it loads the UI.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# Each batch the table receives costs it one re-render of its visible rows: rows are batched for
# 0.1 s (the first ones go at once), snippets for 0.3 s (a wanted trace goes at once).
ROWS_SECONDS = 0.1
SNIPPETS_SECONDS = 0.3


def serve(paths: list[Path], repo_start: Path | None, requests: Any, results: Any, window: int) -> None:
    """The child: stream rows, then scrubbed traces (a wanted one first), onto `results`.

    The rows come first: only the ingester is imported before the first ones are sent. The scrubber
    (spaCy, seconds to load) and the eval repo are loaded after that, beside the reading."""
    from promote.errors import PromoteError
    from tui.trace_store import TraceStore

    store = TraceStore(window=window)
    stop = threading.Event()
    first_sent = threading.Event()

    def listen() -> None:
        while True:
            kind, value = requests.get()
            if kind == "stop":
                stop.set()
                first_sent.set()
                store.wake()
                return
            store.want(value)

    def read() -> None:
        batch: list = []
        sent = 0.0
        try:
            for rows in store.read_rows(paths):
                if stop.is_set():
                    return
                batch += rows
                if not sent or time.monotonic() - sent > ROWS_SECONDS:
                    results.put(("rows", batch))
                    batch, sent = [], time.monotonic()
                    first_sent.set()
        except PromoteError as exc:
            results.put(("error", str(_scrubbed(exc))))
        except Exception as exc:  # noqa: BLE001 - the type only: a message could carry trace content
            results.put(("error", f"cannot read the exports ({type(exc).__name__})"))
        finally:
            first_sent.set()
        results.put(("rows", batch))
        results.put(("read_done", len(store.skipped)))

    threading.Thread(target=listen, daemon=True).start()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    first_sent.wait()
    from tui import seams
    from tui.trace_store import snippet_updates

    engine = seams.engine()
    try:
        repo = seams.EvalRepo.find(repo_start) if repo_start is not None else None
    except PromoteError:
        repo = None  # no eval repo: nothing is marked as promoted
    duplicate = _duplicate_finder(repo)
    done: list = []
    sent = time.monotonic()
    while (scrubbed := store.scrub_next(engine, stop)) is not None:
        done.append(scrubbed)
        if time.monotonic() - sent > SNIPPETS_SECONDS or store.was_wanted(scrubbed.trace.trace_id):
            results.put(("scrubbed", [u for item in done for u in snippet_updates(item, duplicate)], done))
            done, sent = [], time.monotonic()
    results.put(("scrubbed", [u for item in done for u in snippet_updates(item, duplicate)], done))
    reader.join()
    results.put(("scrub_done", None))


def _scrubbed(error: Any) -> Any:
    """A read error that quotes the input (a bad id, a span name) passes the scrubber like the data."""
    if not error.quotes_input:
        return error
    from promote.scrub_trace import scrubbed_error
    from tui import seams

    return scrubbed_error(error, seams.engine())


def _duplicate_finder(repo: Any):
    if repo is None or not repo.case_files():
        return None
    memo: dict[tuple[str, tuple[str, ...]], Path | None] = {}

    def find(user_input: str, tools: list[str]) -> Path | None:
        key = (" ".join(user_input.split()), tuple(tools))
        if key not in memo:
            memo[key] = repo.find_duplicate(user_input, tools)
        return memo[key]

    return find


class Loader:
    """The UI's side: start the child (`python -m tui.loader`), iterate its messages, ask for a trace
    first, stop it. Messages are pickles on the child's stdout; requests are lines on its stdin."""

    def __init__(self, paths: list[Path], repo_start: Path | None, window: int = 256) -> None:
        """Start the child at once (it is started before the UI has even loaded: launch to first rows).

        `repo_start` is where the eval repo is looked for (its cases mark turns already promoted)."""
        config = {"paths": [str(p) for p in paths],
                  "repo": str(repo_start) if repo_start is not None else None,
                  "window": window}
        # stderr is dropped: nothing the child could print about a trace may reach a terminal or a log.
        self.process = subprocess.Popen([sys.executable, "-m", "tui.loader", json.dumps(config)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self._lock = threading.Lock()

    def messages(self) -> Iterator[tuple]:
        """Every message until scrubbing is done (or the child is gone)."""
        while True:
            try:
                message = pickle.load(self.process.stdout)
            except (EOFError, pickle.UnpicklingError, OSError):
                if self.process.poll() not in (None, 0):
                    yield ("error", "the loader stopped unexpectedly")
                return
            yield message
            if message[0] == "scrub_done":
                return

    def _send(self, line: str) -> None:
        with self._lock:
            try:
                self.process.stdin.write((line + "\n").encode())
                self.process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass  # the child is gone: nothing to ask of it

    def want(self, trace_id: str) -> None:
        self._send(f"want {trace_id}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self._send("stop")
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=2)
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass


class _Requests:
    """The child's stdin as the (kind, value) requests `serve` reads."""

    def get(self) -> tuple[str, str | None]:
        line = sys.stdin.readline()
        if not line:
            return "stop", None
        kind, _, value = line.strip().partition(" ")
        return kind, value or None


class _Results:
    """The child's real stdout, pickles only; anything else printed goes to stderr (dropped)."""

    def __init__(self) -> None:
        self._out = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
        self._lock = threading.Lock()

    def put(self, message: tuple) -> None:
        with self._lock:
            pickle.dump(message, self._out, protocol=pickle.HIGHEST_PROTOCOL)
            self._out.flush()


def main() -> None:
    config = json.loads(sys.argv[1])
    results = _Results()
    repo_start = Path(config["repo"]) if config["repo"] is not None else None
    try:
        serve([Path(p) for p in config["paths"]], repo_start, _Requests(), results, config["window"])
    except BrokenPipeError:
        pass  # the UI went away


if __name__ == "__main__":
    main()
