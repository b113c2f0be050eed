"""A guarded group: its program runs in the watchdog's process group, and kill ends it all.

Where there are no process groups (Windows), no watchdog is started and kill
ends the program's tree with ``taskkill /T``; that path is taken here by
pretending the platform has no process groups.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from cpsolver.scale import watchdog
from cpsolver.scale.watchdog import GuardedGroup

SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]


@pytest.mark.skipif(not watchdog.PROCESS_GROUPS, reason="POSIX process groups")
def test_the_program_runs_in_the_watchdogs_group_and_kill_ends_both() -> None:
    group = GuardedGroup()
    program = group.start(SLEEPER)
    assert group.watchdog is not None
    assert os.getpgid(program.pid) == group.watchdog.pid
    group.kill()
    assert program.wait(timeout=10) != 0
    assert group.watchdog.poll() is not None


def test_without_process_groups_kill_ends_the_program_tree_with_taskkill(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(watchdog, "PROCESS_GROUPS", False)
    asked: list[list[str]] = []
    real_run = subprocess.run

    def run(argv: list[str], **options: Any) -> Any:
        if argv[0] == "taskkill":
            asked.append(argv)
            return subprocess.CompletedProcess(argv, 0)
        return real_run(argv, **options)

    monkeypatch.setattr(watchdog.subprocess, "run", run)
    group = GuardedGroup()
    assert group.watchdog is None
    program = group.start(SLEEPER)
    group.kill()
    assert asked == [["taskkill", "/F", "/T", "/PID", str(program.pid)]]
    assert program.wait(timeout=10) != 0
