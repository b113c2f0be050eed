"""A command run as a process of its own, timed: wall seconds, and CPU seconds of it and its children."""

from __future__ import annotations

import resource
import signal
import subprocess
import time
from collections.abc import Callable


def timed_run(
    argv: list[str],
    before_start: Callable[[], None] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Run ``argv`` to its end: (wall s, CPU s of it and every child it waited for, the run).

    ``before_start`` runs in the child before the command does (its CPU
    affinity, say); ``env`` is its environment (this process's by default).
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        argv, capture_output=True, text=True, check=False, preexec_fn=before_start, env=env
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def children_end_with_us() -> None:
    """Make SIGTERM end this benchmark as Ctrl-C does, the command it is running with it.

    With SIGTERM's default disposition the benchmark dies at once, and the
    command it started (a ``cpsolver endgame --workers`` run of five minutes,
    a batch of a thousand deals) lives on, its own parent gone. Raised as
    ``KeyboardInterrupt``, the signal unwinds the benchmark: ``subprocess.run``
    kills its command on the way out, a peer is killed in a ``finally``, and
    the command's own workers end with it (``cpsolver.scale.watchdog``).
    """
    signal.signal(signal.SIGTERM, signal.default_int_handler)
