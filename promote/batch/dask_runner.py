"""The same block jobs on a Dask cluster: one task and one output part per block.

Workers write their part next to the output (a shared filesystem, as on a LocalCluster or a cluster
with a shared volume); the client concatenates the parts in order, so the bytes equal the local path's.
"""

from __future__ import annotations

import gc
import shutil
import tempfile
from collections import deque
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable, Iterator

from promote.batch.blocks import BlockJob, BlockResult, scrub_block
from promote.errors import PromoteError

_ENGINES: dict[Any, Any] = {}


def _scrub_part(job: BlockJob, policy: Any, key: bytes | None, part: str) -> BlockResult:
    from promote.batch.workers import GC_THRESHOLDS, make_engine

    cache_key = (policy.sha256, key)
    if cache_key not in _ENGINES:  # one engine per worker process, loaded on its first task
        _ENGINES[cache_key] = make_engine(policy, key)
        gc.set_threshold(*GC_THRESHOLDS)  # see promote.batch.workers
    result = scrub_block(job, _ENGINES[cache_key])
    Path(part).write_bytes(result.data)
    result.data = b""
    return result


class DaskRunner:
    """Submits blocks to a Dask scheduler (`local` starts a LocalCluster of `workers` processes)."""

    def __init__(self, address: str, workers: int, policy: Any, key: bytes | None) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise PromoteError("--dask needs the dask extra", hint="pip install 'promote[dask]'") from None
        self.presidio_version = metadata.version("presidio-analyzer")
        self._policy, self._key, self._workers = policy, key, workers
        if address == "local":
            self._cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None)
            self._client = Client(self._cluster)
        else:
            self._cluster = None
            try:
                self._client = Client(address, timeout=30)
            except OSError as exc:
                raise PromoteError(f"cannot reach the Dask scheduler: {exc}", where=address) from None
        self._parts = Path(tempfile.mkdtemp(prefix="promote-scrub-parts-"))
        self._submitted = 0

    def run(self, jobs: Iterable[BlockJob]) -> Iterator[BlockResult]:
        pending: deque = deque()
        in_flight = max(2, 2 * len(self._client.scheduler_info().get("workers", {})))
        for job in jobs:
            part = self._parts / f"part-{self._submitted:08d}"
            self._submitted += 1
            future = self._client.submit(_scrub_part, job, self._policy, self._key, str(part), pure=False)
            pending.append((future, part))
            if len(pending) >= in_flight:
                yield self._collect(*pending.popleft())
        while pending:
            yield self._collect(*pending.popleft())

    @staticmethod
    def _collect(future: Any, part: Path) -> BlockResult:
        result = future.result()
        result.data = part.read_bytes()
        part.unlink()
        return result

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        shutil.rmtree(self._parts, ignore_errors=True)
