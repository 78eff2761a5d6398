"""The trace browser on a large export: launch to first rows, to the full list, opening a turn, and the
longest frame the UI thread was blocked while loading. A benchmark, not a test.

    .venv/bin/python -m benchmarks.tui_bench --size-mb 100      # export from benchmarks/gen_exports.py
    .venv/bin/python -m benchmarks.tui_bench --size-mb 10 --why # and where the blocked frames were spent
    .venv/bin/python -m benchmarks.tui_bench --typing           # typing into the promote screen (issue 37)
    .venv/bin/python -m benchmarks.tui_bench --load --export F  # Enter on a row still scrubbing (issue 37)

Goals (issue 14): first rows < 1 s, no frame blocked > 100 ms. Each run is a fresh process started the
way `promote tui` starts: the clock starts at the top of that process, the loader child is started
first, then the UI is imported (its import time counts) and run headless (`App.run_test`) at 160x48.
"Blocked" is measured by a probe on the app's event loop that asks to wake every 10 ms and records how
late it woke: a late wake-up is a frame the UI could not draw (Textual lays out and renders on that loop;
the headless driver skips only writing the frame to a terminal). With `--why` a watchdog thread samples
the UI thread's stack whenever the loop is more than 50 ms late and reports the UI functions it was in.
"""

from __future__ import annotations

import time

LAUNCHED = time.perf_counter()  # before anything of the UI is imported

import argparse  # noqa: E402
import asyncio  # noqa: E402
import collections  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import traceback  # noqa: E402
from pathlib import Path  # noqa: E402


class BlockedFrames:
    """The probe (on the event loop) and the optional watchdog (a thread sampling the loop's stack)."""

    def __init__(self, why: bool) -> None:
        self.worst = 0.0
        self.over_100ms = 0
        self.running = True
        self.why = why
        self.last_wake = time.perf_counter()
        self.samples: collections.Counter[str] = collections.Counter()
        self.loop_thread = threading.get_ident()
        self.late: list[tuple[float, int]] = []
        """(seconds since launch, ms late) of every wake-up more than 50 ms late."""

    async def probe(self) -> None:
        while self.running:
            before = time.perf_counter()
            await asyncio.sleep(0.010)
            self.last_wake = now = time.perf_counter()
            lag = now - before - 0.010
            self.worst = max(self.worst, lag)
            self.over_100ms += lag > 0.100
            if lag > 0.050:
                self.late.append((round(before - LAUNCHED, 2), round(lag * 1000)))

    def watch(self) -> None:
        while self.running:
            time.sleep(0.02)
            if time.perf_counter() - self.last_wake > 0.05:
                frame = sys._current_frames().get(self.loop_thread)
                if frame is not None:
                    self.samples[_where(frame)] += 1


def _where(frame) -> str:
    """The innermost UI frames (tui/, textual's widgets and compositor) of a stack, outermost first."""
    stack = traceback.extract_stack(frame)
    ours = [f"{Path(f.filename).parent.name}/{Path(f.filename).name}:{f.name}" for f in stack
            if "/tui/" in f.filename or "/textual/" in f.filename]
    return " > ".join(ours[-3:]) or f"{Path(stack[-1].filename).name}:{stack[-1].name}"


def _time_calls(slow: list) -> None:
    """Wrap the browser's handlers and the widgets' heavy calls to record those taking 30 ms or more."""
    from tui.screens.browser import BrowserScreen
    from tui.widgets.filter_bar import FilterBar
    from tui.widgets.turn_table import TurnTable
    from textual.screen import Screen

    def timed(owner, name):
        original = getattr(owner, name)

        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                spent = time.perf_counter() - start
                if spent > 0.030:
                    slow.append((f"{owner.__name__}.{name}", round(start - LAUNCHED, 2), round(spent * 1000)))

        setattr(owner, name, wrapper)

    for owner, name in ((BrowserScreen, "_flush"), (BrowserScreen, "on_turns_read"),
                        (BrowserScreen, "on_turns_scrubbed"), (BrowserScreen, "on_load_progressed"),
                        (FilterBar, "set_choices"), (TurnTable, "render_line"), (Screen, "_refresh_layout"),
                        (Screen, "_compositor_refresh")):
        timed(owner, name)


async def measure(export: Path, repo: Path, full_wait_s: float, why: bool) -> dict:
    from tui.loader import Loader

    loader = Loader([export], repo)  # as `promote tui` does: the child reads while the UI loads
    from tui.app import PromoteApp
    from tui.screens.browser import BrowserScreen
    from tui.screens.promote import PromoteScreen
    from tui.widgets.turn_table import TurnTable

    figures: dict = {"ui_imported_s": round(time.perf_counter() - LAUNCHED, 3)}
    slow_calls: list[tuple[str, float, int]] = []
    if why:
        _time_calls(slow_calls)
    app = PromoteApp([export], repo_dir=repo, by="bench", loader=loader)
    app.prepare()
    blocked = BlockedFrames(why)
    async with app.run_test(size=(160, 48)) as pilot:
        task = asyncio.create_task(blocked.probe())
        if why:
            threading.Thread(target=blocked.watch, daemon=True).start()
        while not isinstance(app.screen, BrowserScreen) or not app.screen.query_one(TurnTable).row_count:
            await asyncio.sleep(0.005)
        figures["first_rows_s"] = round(time.perf_counter() - LAUNCHED, 3)
        browser = app.screen
        table = browser.query_one(TurnTable)
        while not browser.reading_done or len(browser.rows) != table.row_count:
            await asyncio.sleep(0.02)
            if time.perf_counter() - LAUNCHED > full_wait_s:
                break
        figures["full_list_s"] = round(time.perf_counter() - LAUNCHED, 3)
        figures["turns"] = len(browser.rows)
        figures["traces_scrubbed_by_then"] = browser.traces_scrubbed
        figures["longest_blocked_frame_ms_while_loading"] = round(blocked.worst * 1000, 1)
        figures["frames_blocked_over_100ms_while_loading"] = blocked.over_100ms
        # Open the last turn listed that has content: its trace is scrubbed on demand, ahead of the queue.
        keys = list(table.order)
        last = max(index for index, key in enumerate(keys) if browser.rows[key].has_input)
        table.move_cursor(row=last)
        figures["open_turn_scrubbed_before"] = browser.rows[keys[last]].trace_id in browser.scrubbed
        opened = time.perf_counter()
        await pilot.press("enter")
        while not isinstance(app.screen, PromoteScreen):
            await asyncio.sleep(0.005)
            if time.perf_counter() - opened > 120:
                raise SystemExit("the turn did not open within 120 s")
        await pilot.pause()
        figures["open_turn_s"] = round(time.perf_counter() - opened, 3)
        figures["longest_blocked_frame_ms_overall"] = round(blocked.worst * 1000, 1)
        blocked.running = False
        await task
        browser._stop.set()
    if why:
        figures["blocked_in (50 ms+ samples)"] = dict(blocked.samples.most_common(8))
        figures["late_wakeups (s since launch, ms)"] = blocked.late
        figures["ui_calls_over_30ms (name, s since launch, ms)"] = slow_calls
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=100)
    parser.add_argument("--export", type=Path, help="use this export instead of a generated one")
    parser.add_argument("--full-wait-s", type=float, default=600.0)
    parser.add_argument("--why", action="store_true", help="sample where the blocked frames are spent")
    parser.add_argument("--no-compile", action="store_true",
                        help="measure without the sources' bytecode on disk")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # the fresh process
    parser.add_argument("--typing", action="store_true",
                        help="type 40 characters at 20 ms a key into every text field of the promote screen "
                             "(benchmarks/tui_typing.py): keys lost, UI-thread time per key")
    parser.add_argument("--load", action="store_true",
                        help="Enter on a row still scrubbing: feedback, open once scrubbed "
                             "(benchmarks/tui_load_bench.py)")
    args = parser.parse_args(argv)
    if args.load:
        from benchmarks.tui_load_bench import main as load

        return load(["--export", str(args.export)] if args.export else ["--size-mb", str(args.size_mb)])
    if args.typing:
        from benchmarks.tui_typing import main as typing

        load = os.getloadavg()[0]
        figures = typing()
        figures["load_average_1min_before"] = round(load, 2)
        figures["cores"] = os.cpu_count()
        print(json.dumps(figures, indent=1))
        return 1 if figures["fields_with_lost_or_reordered_keys"] else 0
    if args.measure:
        from benchmarks.tui_scratch import fresh_eval_repo

        with fresh_eval_repo() as repo:
            figures = asyncio.run(measure(args.export, repo, args.full_wait_s, args.why))
        print(json.dumps(figures))
        return 0
    from benchmarks.gen_exports import generate
    from benchmarks.tui_scratch import compile_sources, measure_in_fresh_process

    export = args.export or Path(generate(args.size_mb)["path"])
    if not args.no_compile:
        compile_sources()
    command = [sys.executable, "-m", "benchmarks.tui_bench", "--measure", "--export", str(export),
               "--full-wait-s", str(args.full_wait_s), *(["--why"] if args.why else [])]
    figures = measure_in_fresh_process(command, export)
    if figures is None:
        return 1
    figures["bytecode_compiled_first"] = not args.no_compile
    print(json.dumps(figures, indent=1))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
