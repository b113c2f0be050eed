"""A benchmark stopped with SIGTERM ends the command it was running (benchmarks/timed.py).

A benchmark runs long commands of its own (``cpsolver endgame --workers`` for
five minutes, a batch of a thousand deals); killed with SIGTERM, it must not
leave them running without it.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from processes import alive, wait_for

ROOT = Path(__file__).resolve().parent.parent

BENCHMARK = """
import sys
sys.path.insert(0, {benchmarks!r})
from timed import children_end_with_us, timed_run
children_end_with_us()
command = [sys.executable, "-c", "import os, time; open({pid_file!r}, 'w').write(str(os.getpid())); time.sleep(120)"]
timed_run(command)
"""


def test_a_benchmark_ended_with_sigterm_ends_the_command_it_runs(tmp_path: Path) -> None:
    pid_file = tmp_path / "command.pid"
    script = BENCHMARK.format(benchmarks=str(ROOT / "benchmarks"), pid_file=str(pid_file))
    benchmark = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE)
    try:
        assert wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "", 20)
        command = int(pid_file.read_text())
        assert alive(command)
        benchmark.send_signal(signal.SIGTERM)
        benchmark.wait(timeout=20)
        assert benchmark.returncode != 0  # stopped, not finished
        assert wait_for(lambda: not alive(command), 20), "the command outlived its benchmark"
    finally:
        benchmark.kill()
        benchmark.wait()
