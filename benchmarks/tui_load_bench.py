"""Loading a large export in the trace browser (issue 37's loading goals): launch to first rows, Enter on a
row still scrubbing (feedback at once, the turn open once its trace is scrubbed), and the longest frame
the UI thread was blocked: while reading, and from Enter until the promote screen has been up for
OPENED_SETTLE_S (its first frames). A benchmark, not a test.

    .venv/bin/python -m benchmarks.gen_exports --size-mb 100 -o /tmp/load-100mb.otlp.jsonl
    .venv/bin/python -m benchmarks.tui_load_bench --export /tmp/load-100mb.otlp.jsonl

Goals: first rows < 1 s, a selected turn open < 2 s once scrubbed, no frame blocked > 100 ms. Each run is
a fresh process started the way `promote tui` starts (`benchmarks/tui_bench.py` says how, and how a
blocked frame is measured). The turn asked for is the last one listed once reading is done: its trace
is the furthest from being scrubbed, so the loader scrubs it ahead of the queue (`ScrubQueue.want`).
"""

from __future__ import annotations

import time

LAUNCHED = time.perf_counter()  # before anything of the UI is imported

OPENED_SETTLE_S = 0.5
"""How long the frames after the promote screen opened are watched (its first layout, the views)."""

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402


async def _until(done, limit_s: float = 120.0, step_s: float = 0.002) -> float:
    """Wait on the app's loop until `done()` holds (at most `limit_s`); the moment it did."""
    started = time.perf_counter()
    while not done():
        if time.perf_counter() - started > limit_s:
            raise SystemExit(f"still waiting after {limit_s} s")
        await asyncio.sleep(step_s)
    return time.perf_counter()


def editing(app) -> bool:
    """The promote screen is up. Its module is imported by the worker that opens the turn, not here: the
    first rows are measured as `promote tui` gets them, before the editor is loaded."""
    screen_type = getattr(sys.modules.get("tui.screens.promote"), "PromoteScreen", None)  # None: loading
    return screen_type is not None and isinstance(app.screen, screen_type)


async def measure(export: Path, repo: Path, full_wait_s: float) -> dict:
    from tui.loader import Loader

    loader = Loader([export], repo)  # as `promote tui` does: the child reads while the UI loads
    from benchmarks.tui_bench import BlockedFrames
    from tui.app import PromoteApp
    from tui.screens.browser import BrowserScreen
    from tui.widgets.turn_table import TurnTable

    since_launch = lambda moment: round(moment - LAUNCHED, 3)  # noqa: E731
    figures: dict = {"ui_imported_s": since_launch(time.perf_counter())}
    app = PromoteApp([export], repo_dir=repo, by="bench", loader=loader)
    app.prepare()
    blocked = BlockedFrames(why=False)
    async with app.run_test(size=(160, 48)) as pilot:
        probe = asyncio.create_task(blocked.probe())

        def listed() -> bool:
            return isinstance(app.screen, BrowserScreen) and bool(app.screen.query_one(TurnTable).row_count)

        figures["first_rows_s"] = since_launch(await _until(listed, step_s=0.005))
        browser, table = app.screen, app.screen.query_one(TurnTable)
        every_row = lambda: browser.reading_done and len(browser.rows) == table.row_count  # noqa: E731
        figures["full_list_s"] = since_launch(await _until(every_row, limit_s=full_wait_s, step_s=0.02))
        figures.update(turns=len(browser.rows), traces_scrubbed_by_then=browser.traces_scrubbed,
                       longest_blocked_frame_ms_while_reading=round(blocked.worst * 1000, 1))
        keys = list(table.order)
        last = max(index for index, key in enumerate(keys) if browser.rows[key].has_input)
        table.move_cursor(row=last)
        await pilot.pause()
        row = browser.rows[keys[last]]
        figures["asked_turn_scrubbed_before"] = row.trace_id in browser.scrubbed
        notes = len(app._notifications)
        before_enter, blocked.worst = blocked.worst, 0.0
        asked = time.perf_counter()
        # Not awaited: `pilot.press` waits for the app to be idle, and the turn may open before that.
        pressed = asyncio.create_task(pilot.press("enter"))
        opened_screen = lambda: editing(app)  # noqa: E731
        told = await _until(lambda: len(app._notifications) != notes or opened_screen())
        scrubbed_at = await _until(lambda: row.trace_id in browser.scrubbed or opened_screen())
        opened = await _until(opened_screen)
        await pressed
        await pilot.pause()
        await asyncio.sleep(OPENED_SETTLE_S)  # the screen's first frames (its views come from a worker)
        figures.update(enter_feedback_ms=round((told - asked) * 1000, 1),
                       asked_turn_scrubbed_after_s=round(scrubbed_at - asked, 3),
                       open_once_scrubbed_s=round(opened - scrubbed_at, 3),
                       enter_to_open_s=round(opened - asked, 3),
                       longest_blocked_frame_ms_opening=round(blocked.worst * 1000, 1),
                       longest_blocked_frame_ms_overall=round(max(before_enter, blocked.worst) * 1000, 1),
                       frames_blocked_over_100ms=blocked.over_100ms)
        blocked.running = False
        await probe
        browser._stop.set()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--export", type=Path, help="the export (default: a generated one of --size-mb)")
    parser.add_argument("--size-mb", type=int, default=100)
    parser.add_argument("--full-wait-s", type=float, default=600.0)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # the fresh process
    args = parser.parse_args(argv)
    if args.measure:
        from benchmarks.tui_scratch import fresh_eval_repo

        with fresh_eval_repo() as repo:
            figures = asyncio.run(measure(args.export, repo, args.full_wait_s))
        print(json.dumps(figures))
        return 0
    from benchmarks.gen_exports import generate
    from benchmarks.tui_scratch import compile_sources, measure_in_fresh_process

    export = args.export or Path(generate(args.size_mb)["path"])
    compile_sources()
    command = [sys.executable, "-m", "benchmarks.tui_load_bench", "--measure", "--export", str(export),
               "--full-wait-s", str(args.full_wait_s)]
    figures = measure_in_fresh_process(command, export)
    if figures is None:
        return 1
    print(json.dumps(figures, indent=1))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
