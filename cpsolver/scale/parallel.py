"""Running chunks of work in this process, on local cores, or on a Dask cluster.

Each runner takes a function and a (possibly endless) iterator of chunks, keeps
a bounded number of chunks in flight — so memory stays flat however long the
input — and yields each chunk's result as soon as it completes, in any order.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from typing import Any, Protocol, TypeVar

from cpsolver.rules.errors import CpsolverError
from cpsolver.scale.watchdog import exit_with_parent

T = TypeVar("T")
R = TypeVar("R")


MAX_TRIES = 3  # a chunk whose worker dies this many times is given up (an error record)
IN_FLIGHT = 4  # chunks a worker in flight by default: none waits for the next to be read
NO_WORKERS_TIMEOUT = 60.0  # seconds a Dask cluster may have no workers before the run fails


class RunnerError(CpsolverError):
    """The workers are gone for good (a Dask cluster with none left); the message says what."""


class Runner(Protocol):
    """Runs ``function`` on every chunk; yields results as they complete.

    A chunk whose worker dies is retried; after :data:`MAX_TRIES` deaths it is
    handed to ``lost`` (chunk, reason), whose result stands in for the chunk's.
    ``chunks`` is read lazily, at most ``per_worker`` chunks a worker in
    flight: one a worker lets a caller choose each next chunk from what the
    results so far say.
    """

    def run(
        self,
        function: Callable[[T], R],
        chunks: Iterable[T],
        lost: Callable[[T, str], R] | None = None,
        per_worker: int = IN_FLIGHT,
    ) -> Iterator[R]: ...

    def everywhere(self, function: Callable[[], object]) -> None:
        """Call ``function`` once in each worker process it can reach (to free what a
        run left there); a worker that cannot be reached ends with the runner."""
        ...

    def close(self) -> None: ...


class InProcess:
    """One chunk after another, here: the reference the others must match."""

    def run(
        self,
        function: Callable[[T], R],
        chunks: Iterable[T],
        lost: Callable[[T, str], R] | None = None,
        per_worker: int = IN_FLIGHT,
    ) -> Iterator[R]:
        return (function(chunk) for chunk in chunks)

    def everywhere(self, function: Callable[[], object]) -> None:
        function()

    def close(self) -> None:
        pass


def _give_up(chunk: object, reason: str) -> Any:
    raise RunnerError(reason)


def _worker_start(parent: int) -> None:
    """In each pool worker: a process group of its own, and a watchdog on the parent.

    Its own group keeps a terminal's Ctrl-C from killing it mid-write (the
    parent ends it); the watchdog ends it when the parent dies without a
    word (SIGKILL), so no worker outlives its batch by more than a second.
    Windows has neither process groups nor orphans: there the worker just works.
    """
    if hasattr(os, "setpgrp"):
        os.setpgrp()
    exit_with_parent(parent)


class LocalPool:
    """Worker processes on this machine (spawned fresh, so nothing is shared by accident).

    A worker that dies (killed, out of memory) breaks the pool: a new pool
    takes its place and the chunks in flight are retried one at a time, so
    the chunk that kills its worker is found and given up after
    :data:`MAX_TRIES` deaths, and no other is lost.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_start,
            initargs=(os.getpid(),),
        )

    def run(
        self,
        function: Callable[[T], R],
        chunks: Iterable[T],
        lost: Callable[[T, str], R] | None = None,
        per_worker: int = IN_FLIGHT,
    ) -> Iterator[R]:
        source = iter(chunks)
        retries: deque[tuple[T, int]] = deque()  # chunks whose worker died, with their deaths
        pending: dict[Future[R], tuple[T, int]] = {}
        exhausted = False
        while True:
            suspects = retries or any(deaths for _, deaths in pending.values())
            while len(pending) < (1 if suspects else per_worker * self.workers):
                if retries:
                    chunk, deaths = retries.popleft()
                else:
                    if exhausted or (chunk := next(source, _END)) is _END:
                        exhausted = True
                        break
                    deaths = 0
                pending[self._pool.submit(function, chunk)] = (chunk, deaths)
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken: list[tuple[T, int]] = []
            for future in done:
                chunk, deaths = pending.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken.append((chunk, deaths))
                    continue
                yield result
            if not broken:
                continue
            broken += pending.values()  # every chunk in flight died with the pool
            pending.clear()
            self._kill()
            self._pool = self._new_pool()
            for chunk, deaths in broken:
                if deaths + 1 < MAX_TRIES:
                    retries.append((chunk, deaths + 1))
                else:
                    yield (lost or _give_up)(chunk, f"its worker died {MAX_TRIES} times")

    def everywhere(self, function: Callable[[], object]) -> None:
        # A pool cannot aim a call at each of its processes; they end with it (close()).
        pass

    def _kill(self) -> None:
        # The executor has no way to end busy workers: kill them (they hold nothing to save).
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(OSError, ValueError):
                process.kill()
        for process in processes:
            with contextlib.suppress(OSError, ValueError, AssertionError):
                process.join(5)

    def close(self) -> None:
        self._kill()


_END: Any = object()


class DaskRunner:
    """A Dask cluster: an existing scheduler's address, or a LocalCluster of ``workers`` processes.

    A LocalCluster's workers watch this process, as the pool's do, and end
    with it however it ends.

    A chunk that keeps killing its workers (Dask's ``KilledWorker``) is
    handed to ``lost``; a cluster with no worker at all for
    ``no_workers_timeout`` seconds fails the run with :class:`RunnerError`.
    """

    def __init__(
        self,
        scheduler: str | None = None,
        workers: int = 2,
        no_workers_timeout: float | None = None,
    ) -> None:
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
            from cpsolver.scale.dask_supervision import ExitWithParent

            self._client.register_plugin(ExitWithParent(os.getpid()))
        else:
            self._client = _connect(Client, scheduler)
        self.workers = max(1, len(self._client.scheduler_info()["workers"]))
        self.no_workers_timeout = (
            no_workers_timeout
            if no_workers_timeout is not None
            else float(os.environ.get("CPSOLVER_NO_WORKERS_TIMEOUT", NO_WORKERS_TIMEOUT))
        )

    def run(
        self,
        function: Callable[[T], R],
        chunks: Iterable[T],
        lost: Callable[[T, str], R] | None = None,
        per_worker: int = IN_FLIGHT,
    ) -> Iterator[R]:
        from dask.distributed import as_completed
        from distributed.scheduler import KilledWorker

        source = iter(chunks)
        submitted: dict[Any, T] = {}

        def submit(chunk: T) -> Any:
            future = self._client.submit(function, chunk, pure=False)
            submitted[future] = chunk
            return future

        first = islice(source, per_worker * self.workers)
        completed = as_completed([submit(chunk) for chunk in first])
        alone_since: float | None = None
        checked = time.monotonic()
        while not completed.is_empty():
            batch = completed.next_batch(block=False)
            if not batch:
                if time.monotonic() - checked > 1.0:  # a question to the scheduler: not too often
                    alone_since, checked = self._check_workers(alone_since), time.monotonic()
                time.sleep(0.02)
                continue
            alone_since = None
            for future in batch:
                chunk = submitted.pop(future)
                try:
                    result = future.result()
                except KilledWorker:
                    result = (lost or _give_up)(chunk, "it killed its Dask workers repeatedly")
                future.release()
                yield result
                for chunk in islice(source, 1):
                    completed.add(submit(chunk))

    def everywhere(self, function: Callable[[], object]) -> None:
        # Outside the task queue, so a worker busy on a task still answers.
        with contextlib.suppress(Exception):  # a worker gone holds nothing to free
            self._client.run(function)

    def _check_workers(self, alone_since: float | None) -> float | None:
        """When the cluster has had no workers since; RunnerError past the timeout."""
        if self._client.scheduler_info()["workers"]:
            return None
        now = time.monotonic()
        if alone_since is None:
            return now
        if now - alone_since > self.no_workers_timeout:
            raise RunnerError(
                f"the Dask cluster has had no workers for {self.no_workers_timeout:g} s; "
                "stopped (the results so far are kept; rerun to resume)"
            )
        return alone_since

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
