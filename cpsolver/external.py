"""Other people's solvers, spoken to over a line protocol.

cpsolver starts the command once and writes one JSON deal per line to its
stdin (``{"id": ..., "landlord": ..., "peasants": [..., ...]}``); the command
answers each with one JSON line on stdout: ``{"verdict": "spring" |
"no_spring", "plan": [...]}``, the plan optional, each step a string of cards
or an object with ``"cards"``. A command that crashes, answers garbage or
stays silent past the timeout gets that recorded for the deal, and is
restarted for the next one; it never hangs the run.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import IO, Any

from cpsolver.cards import Deal
from cpsolver.dealformat import deal_as_dict

_ANSWERS = ("spring", "no_spring", "unknown")
MAX_LINE = 1 << 20  # characters: a 20-card plan is a few hundred
_TOO_LONG = "\x00too long"


@dataclass
class ExternalAnswer:
    """What the command said about one deal: a verdict and plan, or the problem."""

    verdict: str | None
    plan: list[str] | None
    seconds: float
    problem: str | None = None


def parse_answer(line: str) -> tuple[str, list[str] | None]:
    """Read one answer line; ValueError says what is wrong with it.

    >>> parse_answer('{"verdict": "spring", "plan": ["KK", {"cards": "2"}]}')
    ('spring', ['KK', '2'])
    """
    try:
        data: Any = json.loads(line)
    except json.JSONDecodeError:
        raise ValueError(f"not JSON: {line.strip()[:80]!r}") from None
    if not isinstance(data, dict) or data.get("verdict") not in _ANSWERS:
        raise ValueError(f"no 'verdict' of {', '.join(_ANSWERS)}: {line.strip()[:80]!r}")
    plan = data.get("plan")
    if plan is None:
        return data["verdict"], None
    if not isinstance(plan, list):
        raise ValueError("'plan' is not a list")
    steps = []
    for step in plan:
        cards = step.get("cards") if isinstance(step, dict) else step
        if not isinstance(cards, str):
            raise ValueError(f"a plan step is not cards: {step!r}")
        steps.append(cards)
    return data["verdict"], steps


class ExternalSolver:
    """One running external command, answering deals one line at a time."""

    def __init__(self, command: str, timeout: float) -> None:
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the external solver command is empty")
        self.timeout = timeout
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    def _start(self) -> subprocess.Popen[str]:
        try:
            process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise ValueError(f"cannot start {self.command!r}: {error.strerror}") from None
        self._lines = queue.Queue()
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        self._process = process
        return process

    def answer(self, deal: Deal, deal_id: str) -> ExternalAnswer:
        """Ask about one deal; problems are reported in the answer, never raised."""
        process = (
            self._process
            if self._process is not None and self._process.poll() is None
            else self._start()
        )
        started = time.perf_counter()
        if not self._lines.empty():  # lines left over from an earlier deal: out of step
            self._stop()
            return ExternalAnswer(
                None, None, 0.0, "out of step: it printed more than one line for a deal"
            )
        request = json.dumps({"id": deal_id, **deal_as_dict(deal)})
        assert process.stdin is not None
        try:
            process.stdin.write(request + "\n")
            process.stdin.flush()
            line = self._lines.get(timeout=self.timeout)
        except (BrokenPipeError, OSError):
            line = None
        except queue.Empty:
            self._stop()
            return ExternalAnswer(None, None, self.timeout, f"no answer within {self.timeout:g} s")
        seconds = time.perf_counter() - started
        if line is None:  # its output ended: it exited, or closed stdout and lingers
            try:
                code = process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self._stop()
                return ExternalAnswer(None, None, seconds, "closed its output without answering")
            self._process = None
            how = f"exited (code {code})" if code == 0 else f"crashed (exit code {code})"
            return ExternalAnswer(None, None, seconds, f"{how} without answering")
        if line == _TOO_LONG:
            self._stop()
            return ExternalAnswer(
                None, None, seconds, f"garbage: a line over {MAX_LINE} characters"
            )
        try:
            verdict, plan = parse_answer(line)
        except ValueError as error:
            self._stop()  # out of step with us now: start afresh for the next deal
            return ExternalAnswer(None, None, seconds, f"garbage: {error}")
        return ExternalAnswer(verdict, plan, seconds)

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def close(self) -> None:
        """End the command: close its stdin, and kill it if it lingers."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            assert process.stdin is not None
            process.stdin.close()
            process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Move the command's output lines into a queue; None marks its end.

    A line longer than MAX_LINE is not kept: it is reported, and reading stops.
    """
    while line := stream.readline(MAX_LINE + 1):
        if len(line) > MAX_LINE:
            lines.put(_TOO_LONG)
            return
        if line.strip():
            lines.put(line)
    lines.put(None)
