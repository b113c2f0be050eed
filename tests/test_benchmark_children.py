"""A benchmark stopped with SIGTERM ends the command it was running (benchmarks/timed.py).

A benchmark runs long commands of its own (``cpsolver endgame --workers`` for
five minutes, a batch of a thousand deals); killed with SIGTERM, it must not
leave them running without it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BENCHMARK = """
import sys
sys.path.insert(0, {benchmarks!r})
from timed import children_end_with_us, timed_run
children_end_with_us()
command = [sys.executable, "-c", "import os, time; open({pid_file!r}, 'w').write(str(os.getpid())); time.sleep(120)"]
timed_run(command)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _waited_for(found: Callable[[], bool], seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found():
            return True
        time.sleep(0.05)
    return False


def test_a_benchmark_ended_with_sigterm_ends_the_command_it_runs(tmp_path: Path) -> None:
    pid_file = tmp_path / "command.pid"
    script = BENCHMARK.format(benchmarks=str(ROOT / "benchmarks"), pid_file=str(pid_file))
    benchmark = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE)
    try:
        assert _waited_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
        command = int(pid_file.read_text())
        assert _alive(command)
        benchmark.send_signal(signal.SIGTERM)
        benchmark.wait(timeout=20)
        assert benchmark.returncode != 0  # stopped, not finished
        assert _waited_for(lambda: not _alive(command)), "the command outlived its benchmark"
    finally:
        benchmark.kill()
        benchmark.wait()
