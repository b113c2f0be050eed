"""Running chunks of work in this process, on local cores, or on a Dask cluster.

Each runner takes a function and a (possibly endless) iterator of chunks, keeps
a bounded number of chunks in flight — so memory stays flat however long the
input — and yields each chunk's result as soon as it completes, in any order.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import islice
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Runner(Protocol):
    """Runs ``function`` on every chunk; yields results as they complete."""

    def run(self, function: Callable[[T], R], chunks: Iterable[T]) -> Iterator[R]: ...

    def close(self) -> None: ...


class InProcess:
    """One chunk after another, here: the reference the others must match."""

    def run(self, function: Callable[[T], R], chunks: Iterable[T]) -> Iterator[R]:
        return (function(chunk) for chunk in chunks)

    def close(self) -> None:
        pass


class LocalPool:
    """Worker processes on this machine (spawned fresh, so nothing is shared by accident)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

    def run(self, function: Callable[[T], R], chunks: Iterable[T]) -> Iterator[R]:
        pending: set[Future[R]] = set()
        source = iter(chunks)
        limit = 4 * self.workers
        pending.update(self._pool.submit(function, chunk) for chunk in islice(source, limit))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            pending.update(
                self._pool.submit(function, chunk) for chunk in islice(source, len(done))
            )
            for future in done:
                yield future.result()

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)


class DaskRunner:
    """A Dask cluster: an existing scheduler's address, or a LocalCluster of ``workers`` processes."""

    def __init__(self, scheduler: str | None = None, workers: int = 2) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise ValueError("Dask is not installed: pip install 'cpsolver[dask]'") from None
        self._cluster: Any = None
        if scheduler is None:
            self._cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self._client = Client(self._cluster)
        else:
            self._client = _connect(Client, scheduler)
        self.workers = max(1, len(self._client.scheduler_info()["workers"]))

    def run(self, function: Callable[[T], R], chunks: Iterable[T]) -> Iterator[R]:
        from dask.distributed import as_completed

        source = iter(chunks)
        limit = 4 * self.workers
        first = [
            self._client.submit(function, chunk, pure=False) for chunk in islice(source, limit)
        ]
        completed = as_completed(first)
        for future in completed:
            yield future.result()
            future.release()
            for chunk in islice(source, 1):
                completed.add(self._client.submit(function, chunk, pure=False))

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _connect(client: Any, scheduler: str, seconds: float = 15.0) -> Any:
    """A Dask client of ``scheduler``, or ValueError: never a hang, never a traceback.

    The connection is made in a daemon thread, because a peer that accepts the
    connection but never speaks Dask's protocol would hold the handshake forever.
    """
    outcome: list[Any] = []

    def attempt() -> None:
        try:
            outcome.append(client(scheduler, timeout=seconds))
        except Exception as error:  # noqa: BLE001 - anything here means "not a scheduler"
            outcome.append(error)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(seconds + 1)
    if not outcome:
        raise ValueError(f"no Dask scheduler answered at {scheduler} within {seconds:g} s")
    if isinstance(outcome[0], BaseException):
        raise ValueError(f"cannot reach the Dask scheduler at {scheduler}: {outcome[0]}")
    return outcome[0]


def runner_for(
    workers: int, scheduler: str | None = None, local_cluster: int | None = None
) -> Runner:
    """The runner the options ask for: a Dask cluster, a pool, or this process for one worker."""
    if scheduler is not None or local_cluster is not None:
        return DaskRunner(scheduler, local_cluster or 2)
    return InProcess() if workers <= 1 else LocalPool(workers)


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of ``size`` items (the last may be shorter), read lazily."""
    source = iter(items)
    while chunk := list(islice(source, size)):
        yield chunk
