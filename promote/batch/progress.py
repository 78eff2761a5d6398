"""A rich progress bar on a terminal; nothing when output is piped."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator


@contextmanager
def progress_bar(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    if not enabled:
        yield None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    # No auto-refresh thread: worker processes are forked while it runs.
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  auto_refresh=False, transient=True, console=None) as progress:
        task = progress.add_task("scrubbing", total=None)
        totals = {"records": 0, "spans": 0}

        def advance(records: int, spans: int) -> None:
            totals["records"] += records
            totals["spans"] += spans
            description = f"scrubbing: {totals['spans']} spans, {totals['records']} records"
            progress.update(task, description=description)
            progress.refresh()

        yield advance
