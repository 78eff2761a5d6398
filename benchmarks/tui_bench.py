"""The trace browser on a large export: launch to first rows, to the full list, opening a turn, and the
longest frame the UI thread was blocked while loading. A benchmark, not a test.

    .venv/bin/python -m benchmarks.tui_bench --size-mb 100      # export from benchmarks/gen_exports.py

Goals (issue 14): first rows < 1 s, no frame blocked > 100 ms. "Blocked" is measured by a probe on the
app's event loop that asks to wake every 10 ms and records how late it woke: a late wake-up is a frame
the UI could not draw. The app runs headless (`App.run_test`) at 160x48.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from benchmarks.gen_exports import generate


async def measure(export: Path, repo: Path, full_wait_s: float) -> dict:
    from tui.app import PromoteApp
    from tui.screens.browser import BrowserScreen
    from tui.screens.promote import PromoteScreen
    from tui.widgets.turn_table import TurnTable

    figures: dict = {}
    started = time.perf_counter()
    app = PromoteApp([export], repo_dir=repo, by="bench")
    app.prepare()
    worst = {"lag": 0.0}
    probing = True

    async def probe() -> None:
        while probing:
            before = time.perf_counter()
            await asyncio.sleep(0.010)
            worst["lag"] = max(worst["lag"], time.perf_counter() - before - 0.010)

    async with app.run_test(size=(160, 48)) as pilot:
        task = asyncio.create_task(probe())
        while not isinstance(app.screen, BrowserScreen) or not app.screen.query_one(TurnTable).row_count:
            await asyncio.sleep(0.005)
        figures["first_rows_s"] = round(time.perf_counter() - started, 3)
        browser = app.screen
        while not browser.reading_done or len(browser.rows) != browser.query_one(TurnTable).row_count:
            await asyncio.sleep(0.02)
            if time.perf_counter() - started > full_wait_s:
                break
        figures["full_list_s"] = round(time.perf_counter() - started, 3)
        figures["turns"] = len(browser.rows)
        figures["traces_scrubbed_by_then"] = browser.traces_scrubbed
        figures["longest_blocked_frame_ms_while_loading"] = round(worst["lag"] * 1000, 1)
        # Open the last turn listed: its trace is scrubbed on demand, ahead of the queue.
        table = browser.query_one(TurnTable)
        table.move_cursor(row=table.row_count - 1)
        opened = time.perf_counter()
        await pilot.press("enter")
        while not isinstance(app.screen, PromoteScreen):
            await asyncio.sleep(0.005)
        await pilot.pause()
        figures["open_turn_s"] = round(time.perf_counter() - opened, 3)
        figures["longest_blocked_frame_ms_overall"] = round(worst["lag"] * 1000, 1)
        probing = False
        await task
        browser._stop.set()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=100)
    parser.add_argument("--export", type=Path, help="use this export instead of a generated one")
    parser.add_argument("--full-wait-s", type=float, default=600.0)
    args = parser.parse_args(argv)
    export = args.export or Path(generate(args.size_mb)["path"])
    with tempfile.TemporaryDirectory() as repo:
        figures = asyncio.run(measure(export, Path(repo), args.full_wait_s))
    figures["export"] = str(export)
    figures["export_mb"] = round(export.stat().st_size / 1e6, 1)
    print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
