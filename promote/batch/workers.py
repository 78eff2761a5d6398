"""Local execution of block jobs: in this process, or a pool of processes with one engine each."""

from __future__ import annotations

import gc
import multiprocessing
from collections import deque
from contextlib import contextmanager
from importlib import metadata
from typing import Any, Iterable, Iterator

from promote.batch.blocks import BlockJob, BlockResult, scrub_block

_ENGINE: Any = None


def make_engine(policy: Any, key: bytes | None) -> Any:
    """This process's own engine (each worker process loads one; see `promote.scrubbing`)."""
    from promote.scrubbing import new_engine

    return new_engine(policy, key)


# Scrubbing allocates millions of short-lived, acyclic objects (decoded JSON, plans); with the default
# thresholds the cyclic collector runs every 700 allocations and walks the model's large object graph
# each time. `python -m benchmarks.scrub_profile --size-mb 30 [--gc default]`: 12.0 s with the defaults,
# 9.5 s with these (freezing the model out of collections on top gained nothing more, and kept reloaded
# models alive).
GC_THRESHOLDS = (100_000, 50, 50)


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


def _init_worker(policy: Any, key: bytes | None) -> None:
    global _ENGINE
    if _ENGINE is None:  # not inherited loaded from the parent (see LocalPool)
        _ENGINE = make_engine(policy, key)
    gc.set_threshold(*GC_THRESHOLDS)  # a worker process lives for one run: no need to undo this


def _work(job: BlockJob) -> BlockResult:
    return scrub_block(job, _ENGINE)


class LocalPool:
    """Runs blocks in order; with several workers at most 2 blocks per worker are in flight, so
    memory stays flat however large the input."""

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
                self._pool = multiprocessing.get_context("fork").Pool(
                    workers, initializer=_init_worker, initargs=(policy, key)
                )
            finally:
                _ENGINE = None

    def run(self, jobs: Iterable[BlockJob]) -> Iterator[BlockResult]:
        if self._pool is None:
            for job in jobs:
                yield scrub_block(job, self._engine)
            return
        pending: deque = deque()
        for job in jobs:
            pending.append(self._pool.apply_async(_work, (job,)))
            if len(pending) >= 2 * self._workers:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
