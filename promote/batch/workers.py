"""Local execution of block jobs: in this process, or a pool of processes with one engine each."""

from __future__ import annotations

import multiprocessing
from collections import deque
from importlib import metadata
from typing import Any, Iterable, Iterator

from promote.batch.blocks import BlockJob, BlockResult, scrub_block

_ENGINE: Any = None


def make_engine(policy: Any, key: bytes | None) -> Any:
    from scrubbers import ScrubEngine

    return ScrubEngine(policy, key=key)


def _init_worker(policy: Any, key: bytes | None) -> None:
    global _ENGINE
    _ENGINE = make_engine(policy, key)


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
            self._engine = None
            self._pool = multiprocessing.get_context("fork").Pool(
                workers, initializer=_init_worker, initargs=(policy, key)
            )

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
