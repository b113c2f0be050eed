"""Processes that end with the cpsolver process that started them, however it ends.

A process killed with SIGKILL tells nobody: its pool workers, the programs it
runs (external solvers) and their children would live on. So each is watched:

- a pool worker calls :func:`exit_with_parent`: a thread that ends the worker
  once its parent is gone;
- a program is started in a process group led by a watchdog
  (:class:`GuardedGroup`): a tiny process that kills its whole group — the
  program, every child it started, and itself — once cpsolver is gone. The
  group exists before the program does, so there is no moment in which a
  kill could leave the program unwatched.

Both wait the same way (:func:`wait_while_parent_lives`): when a process dies,
its children are handed to another (init, or a subreaper), so their parent id
changes; a system call every half second notices, so nothing outlives
cpsolver by more than about a second. On POSIX only: Windows has no process
groups to kill and does not change a process's parent id when its parent
dies, so there a :class:`GuardedGroup` starts no watchdog and :meth:`kill
<GuardedGroup.kill>` ends the program and its children with ``taskkill /T``
(nothing ends them if cpsolver itself is killed).

This file is also the watchdog's program (``python watchdog.py PARENT``), run
without the package, so it imports only the standard library.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

POLL = 0.5  # seconds between looks at the parent
PROCESS_GROUPS = hasattr(os, "killpg")  # POSIX; not Windows


def wait_while_parent_lives(parent: int, poll: float = POLL) -> None:
    """Return once ``parent`` is no longer this process's parent (it has died)."""
    while os.getppid() == parent:
        time.sleep(poll)


def exit_with_parent(parent: int, before: Callable[[], None] | None = None) -> None:
    """End this process (at once, without cleanup) when ``parent`` dies: a daemon thread watches.

    ``before`` runs first: a worker ends the programs it started there, so
    they go with it rather than a poll of their own watchdog later.
    """

    def watch() -> None:
        wait_while_parent_lives(parent)
        if before is not None:
            with contextlib.suppress(Exception):
                before()
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="cpsolver-watchdog").start()


class GuardedGroup:
    """A process group led by a watchdog, killed whole when this process dies or on :meth:`kill`.

    Start the program with :meth:`start`. Without process groups (Windows)
    there is no watchdog, and :meth:`kill` ends the program's process tree.
    """

    def __init__(self) -> None:
        self.program: subprocess.Popen[Any] | None = None
        self.watchdog: subprocess.Popen[bytes] | None = None
        if PROCESS_GROUPS:
            # -I -S: no site, no environment, no current folder; the standard library suffices.
            self.watchdog = subprocess.Popen(
                [sys.executable, "-I", "-S", os.path.abspath(__file__), str(os.getpid())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                process_group=0,
            )

    def start(self, argv: list[str], **options: Any) -> subprocess.Popen[Any]:
        """Start ``argv`` in this group (``options`` go to :class:`subprocess.Popen`)."""
        if self.watchdog is not None:
            options["process_group"] = self.watchdog.pid
        self.program = subprocess.Popen(argv, **options)
        return self.program

    def kill(self) -> None:
        """Kill every process of the group (the watchdog with them), then reap the watchdog.

        The watchdog is reaped only after the group is killed, so its pid — the
        group's id — cannot have been reused by then.
        """
        if self.watchdog is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.watchdog.pid, signal.SIGKILL)
            self.watchdog.wait()
        elif self.program is not None and self.program.poll() is None:
            # The children first (taskkill walks the tree from the program), then the program.
            with contextlib.suppress(OSError):
                subprocess.run(
                    ["taskkill", "/F", "/T", "/PID", str(self.program.pid)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    check=False,
                )
            with contextlib.suppress(OSError):
                self.program.kill()


def _main(arguments: list[str]) -> None:
    """The watchdog: wait for the parent to die, then kill this process's own group."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is for cpsolver to handle
    wait_while_parent_lives(int(arguments[0]))
    os.killpg(0, signal.SIGKILL)


if __name__ == "__main__":
    _main(sys.argv[1:])
