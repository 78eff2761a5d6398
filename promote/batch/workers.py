"""Local execution of block jobs: in this process, or a pool of processes with one engine each."""

from __future__ import annotations

import gc
import multiprocessing
import signal
from collections import deque
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from importlib import metadata
from typing import Any, Iterable, Iterator

from promote.batch.blocks import BlockJob, BlockResult, scrub_block
from promote.errors import PromoteError

_ENGINE: Any = None


def make_engine(policy: Any, key: bytes | None) -> Any:
    """This process's own engine (each worker process loads one; see `promote.scrubbing`)."""
    from promote.scrubbing import new_engine

    return new_engine(policy, key)


# Scrubbing allocates millions of short-lived, acyclic objects (decoded JSON, plans); with the default
# thresholds the cyclic collector runs every 700 allocations and walks the model's large object graph
# each time. `python -m benchmarks.speed.scrub_profile --size-mb 30 [--gc default]`: 12.0 s with the defaults,
# 9.5 s with 100,000 (freezing the model out of collections on top gained nothing more, and kept reloaded
# models alive). Objects still grow on balance while the caches fill, and each collection walks them:
# `scrub_profile --size-mb 100 --gc-young 100000`, 0.57 s of collections in the run; with a million, 0.26 s,
# for 8 MB more at peak (`docs/perf-history.md`, "Speed, twelfth round").
GC_THRESHOLDS = (1_000_000, 50, 50)


@contextmanager
def batch_gc() -> Iterator[None]:
    """Collector thresholds for a scrub run; the previous ones come back afterwards (the caller's
    process may be a long-lived one)."""
    previous = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def keep_batch_gc() -> None:
    """Give this process the collector thresholds of a scrub run for good: for a process that scrubs and
    then ends (the command line, a worker). `batch_gc` puts the previous thresholds back after the run,
    and with the defaults back the next allocation collects everything the run left: 0.4 s after a 10 MB
    scrub, in a process about to exit."""
    gc.set_threshold(*GC_THRESHOLDS)


def _init_worker(policy: Any, key: bytes | None) -> None:
    global _ENGINE
    # The parent turns SIGTERM into a clean-up exception; a worker has nothing to clean up and must
    # just end when the parent stops it (else it would print a traceback of its own).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _ENGINE is None:  # not inherited loaded from the parent (see LocalPool)
        _ENGINE = make_engine(policy, key)
    keep_batch_gc()  # a worker process lives for one run: no need to undo this


def _work(job: BlockJob) -> BlockResult:
    return scrub_block(job, _ENGINE)


class LocalPool:
    """Runs blocks in order; with several workers at most 2 blocks per worker are in flight, so
    memory stays flat however large the input. A worker that dies (killed, out of memory, a file-size
    limit) fails the run with a clear message instead of leaving it waiting for the lost block."""

    def __init__(self, workers: int, policy: Any, key: bytes | None, engine: Any) -> None:
        self.presidio_version = metadata.version("presidio-analyzer")
        self._workers = workers
        if workers == 1:
            self._engine = engine
            self._pool = None
        else:
            global _ENGINE
            self._engine = None
            # Forked workers inherit the parent's engine as it is now (loaded, caches empty) instead of
            # each loading the model again: a second less before the first block is scrubbed.
            _ENGINE = engine
            try:
                self._pool = ProcessPoolExecutor(
                    workers, mp_context=multiprocessing.get_context("fork"),
                    initializer=_init_worker, initargs=(policy, key),
                )
                # start them now, while the parent's engine is the one to inherit
                for _ in as_completed([self._pool.submit(int) for _ in range(workers)]):
                    pass
            finally:
                _ENGINE = None

    def run(self, jobs: Iterable[BlockJob]) -> Iterator[BlockResult]:
        if self._pool is None:
            for job in jobs:
                yield scrub_block(job, self._engine)
            return
        pending: deque = deque()
        try:
            for job in jobs:
                pending.append(self._pool.submit(_work, job))
                if len(pending) >= 2 * self._workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        except BrokenProcessPool:
            raise PromoteError(
                "a scrub worker process died (killed, out of memory, or a file-size limit);"
                " nothing was written",
                hint="run again with fewer --workers, or check the machine's limits (ulimit -a)",
            ) from None

    def close(self) -> None:
        if self._pool is not None:
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
            self._pool.shutdown(wait=True, cancel_futures=True)
