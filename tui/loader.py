"""The UI's loader child: it reads and scrubs the exports through `promote.source`, so the UI's event
loop never waits for them, and sends typed messages (`tui.pipe`) up its stdout.

Parsing JSON and running spaCy hold Python's GIL for long stretches; in a thread of the UI process that
stalls frames by hundreds of milliseconds. The child streams the traces (`promote.source.read_traces`,
the same rule as `promote traces`), sends each trace's rows, and scrubs them (`ScrubQueue`, a wanted one
first); the UI process receives rows and scrubbed traces only, so raw text never reaches it at all.
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

from tui.pipe import (
    Down,
    LoadFailed,
    ReadDone,
    RecoveriesFound,
    RowsRead,
    ScrubDone,
    SnippetUpdate,
    Stop,
    TracesScrubbed,
    Up,
    Want,
)

# Each batch the table receives costs it one re-render of its visible rows: rows are batched for
# 0.1 s (the first ones go at once), snippets for 0.3 s (a wanted trace goes at once).
ROWS_SECONDS = 0.1
SNIPPETS_SECONDS = 0.3


def serve(paths: list[Path], repo_start: Path | None, requests: Any, results: Any) -> None:
    """The child: stream rows, then scrubbed traces (a wanted one first), onto `results`.

    The rows come first: only the reader is imported before the first ones are sent. The scrub queue
    (with the case model), the scrubber (spaCy, seconds to load) and the eval repo are loaded after
    that, beside the reading."""
    handoff = _QueueHandoff()
    stop = threading.Event()
    first_sent = threading.Event()

    def listen() -> None:
        while True:
            request = requests.get()
            if isinstance(request, Stop):
                stop.set()
                first_sent.set()
                handoff.get().wake()
                return
            handoff.get().want(request.trace_id)

    threading.Thread(target=listen, daemon=True).start()
    reader = threading.Thread(target=_read, args=(paths, handoff, results, stop, first_sent), daemon=True)
    reader.start()
    first_sent.wait()
    from promote.source.queue import ScrubQueue

    queue = ScrubQueue()
    handoff.set(queue)
    results.put(_recoveries(repo_start))
    from tui import seams

    engine = seams.engine()
    duplicate = _duplicate_finder(repo_start)
    done: list = []
    sent = time.monotonic()
    while (scrubbed := queue.scrub_next(engine, stop)) is not None:
        done.append(scrubbed.without_raw())
        if time.monotonic() - sent > SNIPPETS_SECONDS or queue.was_wanted(scrubbed.trace.trace_id):
            results.put(_scrubbed_message(done, duplicate))
            done, sent = [], time.monotonic()
    results.put(_scrubbed_message(done, duplicate))
    reader.join()
    results.put(ScrubDone())


class _QueueHandoff:
    """The scrub queue, made once the first rows are sent: the reader and the listener wait for it."""

    def __init__(self) -> None:
        self._made = threading.Event()
        self._queue: Any = None

    def set(self, queue: Any) -> None:
        self._queue = queue
        self._made.set()

    def get(self) -> Any:
        self._made.wait()
        return self._queue


def _read(paths: list[Path], handoff: _QueueHandoff, results: Any, stop: threading.Event,
          first_sent: threading.Event) -> None:
    """The reader thread: rows of each agent trace as `read_traces` hands it on, batched; a trace goes to
    the scrub queue once its rows are sent (its snippets can never arrive before its rows)."""
    from promote.errors import PromoteError
    from promote.source import read_traces
    from tui.turn_rows import turn_row

    rows: list = []
    held: list = []
    skipped: list = []
    sent = 0.0

    def send() -> None:
        nonlocal rows, held, sent
        results.put(RowsRead(rows))
        first_sent.set()
        for trace in held:
            handoff.get().put(trace)
        rows, held, sent = [], [], time.monotonic()

    try:
        for trace in read_traces(paths, skipped=skipped):
            if stop.is_set():
                return
            if trace.producer is None or not trace.turns:
                continue
            rows += [turn_row(trace, turn) for turn in trace.turns]
            held.append(trace)
            if not sent or time.monotonic() - sent > ROWS_SECONDS:
                send()
    except PromoteError as exc:
        results.put(LoadFailed(str(_scrubbed(exc))))
    except Exception as exc:  # noqa: BLE001 - the type only: a message could carry trace content
        results.put(LoadFailed(f"cannot read the exports ({type(exc).__name__})"))
    finally:
        send()
        handoff.get().close()
    results.put(ReadDone(len(skipped)))


def _scrubbed_message(done: list, duplicate: Any) -> TracesScrubbed:
    from tui.turn_rows import row_key, snippet_of

    updates = []
    for item in done:
        for turn in item.trace.turns:
            promoted = None
            if turn.user_input is not None and duplicate is not None:
                promoted = duplicate(turn.user_input, [call.name for call in turn.tool_calls])
            key = row_key(item.trace.trace_id, turn.index)
            updates.append(SnippetUpdate(key, snippet_of(turn), promoted))
    return TracesScrubbed(updates, done)


def _scrubbed(error: Any) -> Any:
    """A read error that quotes the input (a bad id, a span name) passes the scrubber like the data."""
    if not error.quotes_input:
        return error
    from promote.scrub_trace import scrubbed_error
    from tui import seams

    return scrubbed_error(error, seams.engine())


def _recoveries(repo_start: Path | None) -> RecoveriesFound:
    """Read here, not in the UI: finding the eval repo imports the case model, and a UI thread importing
    it shares the GIL with the frames of the first rows (blocked 90-150 ms instead of 30-60)."""
    from tui import seams
    from tui.recovery import pending_recoveries

    repo = seams.EvalRepo.find(repo_start) if repo_start is not None else None
    return RecoveriesFound(frozenset(pending_recoveries(repo)))


def _duplicate_finder(repo_start: Path | None):
    """(user input, tool names) → the eval-repo case that already holds that turn (None: no repo)."""
    if repo_start is None:
        return None
    from promote.draft.inputs import duplicate_key, existing_cases
    from promote.errors import PromoteError
    from tui import seams

    try:
        _, duplicates = existing_cases(seams.EvalRepo.find(repo_start))
    except PromoteError:
        return None  # no eval repo: nothing is marked as promoted
    if not duplicates:
        return None
    return lambda user_input, tools: duplicates.get(duplicate_key(user_input, tools))


class Loader:
    """The UI's side: start the child (`python -m tui.loader`), iterate its messages, ask for a trace
    first, stop it. Both ways the messages are `tui.pipe` objects, pickled."""

    def __init__(self, paths: list[Path], repo_start: Path | None) -> None:
        """Start the child at once (it is started before the UI has even loaded: launch to first rows).

        `repo_start` is where the eval repo is looked for (its cases mark turns already promoted)."""
        config = {"paths": [str(p) for p in paths],
                  "repo": str(repo_start) if repo_start is not None else None}
        # stderr is dropped: nothing the child could print about a trace may reach a terminal or a log.
        self.process = subprocess.Popen([sys.executable, "-m", "tui.loader", json.dumps(config)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self._lock = threading.Lock()

    def messages(self) -> Iterator[Up]:
        """Every message until scrubbing is done (or the child is gone)."""
        while True:
            try:
                message = pickle.load(self.process.stdout)
            except (EOFError, pickle.UnpicklingError, OSError):
                if self.process.poll() not in (None, 0):
                    yield LoadFailed("the loader stopped unexpectedly")
                return
            yield message
            if isinstance(message, ScrubDone):
                return

    def _send(self, request: Down) -> None:
        with self._lock:
            try:
                pickle.dump(request, self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
                self.process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass  # the child is gone: nothing to ask of it

    def want(self, trace_id: str) -> None:
        self._send(Want(trace_id))

    def stop(self) -> None:
        if self.process.poll() is None:
            self._send(Stop())
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
    """The child's stdin as the `tui.pipe` requests `serve` reads (the UI gone: `Stop`)."""

    def get(self) -> Down:
        try:
            return pickle.load(sys.stdin.buffer)
        except (EOFError, pickle.UnpicklingError, OSError):
            return Stop()


class _Results:
    """The child's real stdout, pickles only; anything else printed goes to stderr (dropped)."""

    def __init__(self) -> None:
        self._out = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
        self._lock = threading.Lock()

    def put(self, message: Up) -> None:
        with self._lock:
            pickle.dump(message, self._out, protocol=pickle.HIGHEST_PROTOCOL)
            self._out.flush()


def main() -> None:
    config = json.loads(sys.argv[1])
    results = _Results()
    repo_start = Path(config["repo"]) if config["repo"] is not None else None
    try:
        serve([Path(p) for p in config["paths"]], repo_start, _Requests(), results)
    except BrokenPipeError:
        pass  # the UI went away


if __name__ == "__main__":
    main()
