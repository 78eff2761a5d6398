"""Typing into the promote screen at 20 ms a key: is every key kept, and how long does the UI thread
spend on each? A benchmark, not a test (the Pilot tests are tests/tui/test_edit_loop.py and
tests/tui/test_typing_every_field.py).

    .venv/bin/python -m benchmarks.tui_bench --typing

The case is the golden `wfm.accrual_balance_007` grown to 10 tool calls (each with args and match rules)
and 10 accepted figures. Into every text field of the screen, 40 characters are sent as key events every
20 ms without waiting for the app (a person typing fast); then the field's text and the case are compared
with what was typed. "UI-thread time per keystroke" is the CPU time of the event loop's thread in each
20 ms slot (Textual handles keys, messages and rendering on that thread; the debounced views run in a
worker thread); the work the views cost the UI thread once a burst ends is reported on its own.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

TYPED = "ukg-accrual-engine.v2/abcdefghijklmnopqr"  # 40 characters
INTERVAL_S = 0.020
# (tab, selector, where the case keeps what is typed: a function of the case, or None for text the case
# cannot take and keeps as a problem: letters in a number, JSON that does not parse).
FIELDS = [
    ("basics", "#basics-title", lambda c: c.title), ("basics", "#basics-agent", lambda c: c.agent),
    ("basics", "#basics-tier", lambda c: c.tier), ("basics", "#basics-input", lambda c: c.input),
    ("basics", "#basics-datasets", lambda c: ",".join(c.datasets)),
    ("basics", "#basics-metadata TextArea", None),
    ("output", "#output-text", lambda c: c.expected_output),
    ("tools", "#tool-args TextArea", None),
    ("tools", "#rule-text-0", lambda c: c.expected_tools.calls[0].match["employee_id"].pattern),
    ("numbers", "#fig-name", lambda c: c.numeric[0].name),
    ("numbers", "#fig-unit", lambda c: c.numeric[0].unit),
    ("numbers", "#fig-oracle", lambda c: c.numeric[0].oracle), ("numbers", "#fig-value", None),
    ("numbers", "#fig-tolerance", None), ("safety", "#safety-scope", None),
    ("entities", "#tenant-id", lambda c: c.tenant.id), ("entities", "#entity-params TextArea", None),
]


def bench_case():
    from promote.case.model import Case
    from promote.case.store import load_case

    from benchmarks.gen_exports import ROOT

    golden = load_case(ROOT / "fixtures" / "cases" / "golden" / "wfm.accrual_balance_007.yaml").case
    data = golden.model_dump(mode="json", exclude_none=True)
    data["expected_tools"]["calls"] = [
        {"name": f"tool_{n}", "args": {"employee_id": f"E-{30100 + n}", "as_of": "2026-03-31", "n": n},
         "match": {"employee_id": "regex:E-\\d+", "n": "tolerance:1"}} for n in range(10)]
    data["numeric"] = [{"name": f"figure_{n}", "value": 40.0 + n, "unit": "h", "oracle": "ukg-accrual-engine",
                        "tolerance": 0.5} for n in range(10)]
    data["expected_output"] = " ".join(f"figure_{n} is {40 + n} h." for n in range(10))
    data["safety"] = {"must_not": [{"category": "pii-leak", "scope": "other-employee records"}]}
    return Case.model_validate(data)


async def type_into(app, pilot, screen, tab: str, selector: str) -> list[float]:
    """Clear the field, type TYPED at 20 ms a key; the UI thread's CPU time of each 20 ms slot."""
    from textual.widgets import Input, TextArea

    await show_tab(pilot, screen, tab)
    if tab == "tools":
        calls = screen.query_one("#tools-calls")
        calls.highlighted = 0
        await pilot.pause()
        await pilot.pause()
    widget = screen.query_one(selector)
    widget.focus()
    if isinstance(widget, Input):
        widget.value = ""
    elif isinstance(widget, TextArea):
        widget.clear()
    await settle(pilot, screen)
    return await type_keys(app)


async def show_tab(pilot, screen, tab: str) -> None:
    """Show `tab` as F6 would: a tab is built the first time it is shown (issue 37's lazy tabs)."""
    if hasattr(screen, "_show_tab"):
        await screen._show_tab(tab)
    else:
        screen.query_one("#case-tabs").active = tab
    await pilot.pause()


async def type_keys(app) -> list[float]:
    from textual import events
    from textual.keys import _character_to_key

    slots = []
    for char in TYPED:
        before = time.thread_time()
        event = events.Key(char if char.isalnum() else _character_to_key(char), char)
        event.set_sender(app)
        app._driver.send_message(event)
        await asyncio.sleep(INTERVAL_S)
        slots.append(time.thread_time() - before)
    return slots


async def settle(pilot, screen) -> float:
    """Let the debounced views run; the UI thread's CPU time meanwhile."""
    from textual.worker import WorkerCancelled

    before = time.thread_time()
    await pilot.pause()
    if hasattr(screen, "refresh_views"):  # (absent before issue 37: every key worked the views out)
        screen.refresh_views()
    while True:
        try:
            await pilot.app.workers.wait_for_complete()
            break
        except WorkerCancelled:  # an exclusive worker replaced by a newer one: wait for that one
            await pilot.pause()
    await pilot.pause()
    return time.thread_time() - before


async def measure() -> dict:
    from textual.widgets import Input, TextArea

    from tui.app import PromoteApp
    from tui.edit_session import EditSession
    from tui.screens.promote import PromoteScreen

    with tempfile.TemporaryDirectory() as scratch:
        # Its recovery file stays in the scratch folder: a run cut short never asks the next to recover.
        os.environ["XDG_STATE_HOME"] = scratch
        repo = Path(scratch) / "evals-repo"
        (repo / "evals" / "cases").mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        case = bench_case()
        path = repo / "evals" / "cases" / f"{case.id}.yaml"
        session = EditSession(case=case, path=path, drafted=case, source=f"case:{path}")
        app = PromoteApp([], repo_dir=repo, by="bench", session=session)
        app.prepare()
        session.repo = app.repo
        lost, slots, views = [], [], []
        async with app.run_test(size=(160, 48)) as pilot:
            while not isinstance(app.screen, PromoteScreen):  # pushed once the app has mounted
                await pilot.pause()
            screen = app.screen
            await settle(pilot, screen)
            for tab, selector, kept in FIELDS:
                await show_tab(pilot, screen, tab)
                if tab != "tools" and not screen.query(selector):
                    lost.append({"field": selector, "shown": "(no such field)"})
                    continue
                slots += await type_into(app, pilot, screen, tab, selector)
                views.append(await settle(pilot, screen))
                widget = screen.query_one(selector)
                shown = widget.value if isinstance(widget, Input) else widget.text
                try:
                    in_case = kept(screen.session.case) if kept else TYPED
                except (AttributeError, KeyError, IndexError, TypeError):
                    in_case = None
                if shown != TYPED or in_case != TYPED:
                    lost.append({"field": selector, "shown": shown, "in_case": in_case})
    slots_ms = sorted(1000 * s for s in slots)
    return {
        "fields": len(FIELDS), "keys": len(slots), "interval_ms": INTERVAL_S * 1000,
        "fields_with_lost_or_reordered_keys": lost,
        "ui_thread_ms_per_key_p50": round(statistics.median(slots_ms), 2),
        "ui_thread_ms_per_key_p95": p95(slots),
        "ui_thread_ms_per_key_max": round(slots_ms[-1], 2),
        "ui_thread_ms_views_once_per_burst_median": round(1000 * statistics.median(views), 2),
    }


async def baseline() -> list[float]:
    """The same typing into a lone Textual Input at 160x48: what Textual itself costs per key."""
    from textual.app import App
    from textual.widgets import Input

    class Lone(App):
        def compose(self):
            yield Input(id="lone")

    app = Lone()
    async with app.run_test(size=(160, 48)) as pilot:
        app.query_one("#lone").focus()
        await pilot.pause()
        return await type_keys(app)


def p95(slots: list[float]) -> float:
    ordered = sorted(slots)
    return round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 2)


def main() -> dict:
    figures = asyncio.run(measure())
    figures["textual_input_alone_ms_per_key_p95"] = p95(asyncio.run(baseline()))
    return figures
