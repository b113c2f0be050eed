"""Solves in worker processes: one a job, with its time limit, ended when its client goes away.

:class:`Supervisor` starts each job's worker (:mod:`cpsolver.serve.worker`)
in a process group led by a watchdog (:class:`~cpsolver.scale.watchdog.GuardedGroup`),
so nothing outlives the server. It waits without blocking the event loop,
looking every :data:`POLL` seconds whether the worker is done, the time limit
(plus :data:`GRACE` for the worker's start and its answer) has passed, or the
client has disconnected; in the last two cases it kills the group. The job goes
in and the answer comes out through temporary files, so no pipe can fill.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from cpsolver.io.reading import InputError, limit, loads_json, read_at_most
from cpsolver.scale.watchdog import GuardedGroup

POLL = 0.05  # seconds between looks at a running worker
GRACE = 5.0  # seconds a worker gets past its time limit (its start, its answer) before the kill
MAX_JOBS = 2  # workers at once (CI has two cores); more requests are told the board is busy


@dataclass(frozen=True)
class Outcome:
    """How a job ended: ``answer`` (``value`` is the answer), ``error`` (``value`` the line),
    ``timeout``, or ``cancelled`` (the client went away)."""

    status: str
    value: Any = None


class Busy(Exception):
    """Every worker slot is taken."""


class Supervisor:
    """Runs jobs in supervised workers, at most ``max_jobs`` at once."""

    def __init__(self, max_jobs: int = MAX_JOBS) -> None:
        self.max_jobs = max_jobs
        self.running = 0

    async def run(
        self,
        job: dict[str, Any],
        seconds: float,
        gone: Callable[[], Awaitable[bool]],
    ) -> Outcome:
        """Run ``job`` in a worker for at most ``seconds`` (+ :data:`GRACE`); ``gone`` says the client left."""
        if self.running >= self.max_jobs:
            raise Busy(f"the board is busy: {self.max_jobs} questions are being solved; try again")
        self.running += 1
        try:
            return await self._run(job, seconds, gone)
        finally:
            self.running -= 1

    async def _run(
        self, job: dict[str, Any], seconds: float, gone: Callable[[], Awaitable[bool]]
    ) -> Outcome:
        with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as reply:
            given.write(json.dumps(job).encode("utf-8"))
            given.seek(0)
            group = GuardedGroup()
            try:
                process = group.start(
                    [sys.executable, "-m", "cpsolver.serve.worker"],
                    stdin=given,
                    stdout=reply,
                    stderr=subprocess.DEVNULL,
                )
                deadline = time.monotonic() + seconds + GRACE
                while process.poll() is None:
                    if time.monotonic() > deadline:
                        return Outcome(
                            "timeout", f"no answer within the time limit of {seconds:g} s"
                        )
                    if await gone():
                        return Outcome("cancelled")
                    await asyncio.sleep(POLL)
            finally:
                group.kill()
                if group.program is not None:
                    group.program.wait()
            reply.seek(0)
            data = read_at_most(reply, limit("result") + 1)
        try:
            found = loads_json(data, "the worker")
        except InputError:
            return Outcome("error", "the worker ended without an answer")
        if not isinstance(found, dict):
            return Outcome("error", "the worker ended without an answer")
        if "error" in found:
            return Outcome("error", str(found["error"]))
        return Outcome("answer", found.get("answer"))
