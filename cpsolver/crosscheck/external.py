"""Other people's programs, spoken to over a line protocol: one JSON request, one JSON reply.

Version 2 of the protocol: cpsolver starts the command once (in a process
group of its own, led by a watchdog that kills the group if cpsolver is
killed: see :mod:`cpsolver.scale.watchdog`) and writes one JSON request per line
to its stdin, each with ``"protocol": 2`` and an ``"id"``; the command
answers each with one JSON line on stdout that echoes the ``"id"``. A line
whose id is not the one being waited for is stale (a second answer to an
earlier request): it is reported and discarded. A version 1 command (which echoes no id) still
works, one reply per request, in order; it is flagged as such.

What a request asks is up to the caller (:meth:`ExternalSolver.ask` takes a
dict and returns a dict); the spring question is :meth:`ExternalSolver.answer`:
a deal ``{"landlord": ..., "peasants": [..., ...]}`` in, ``{"verdict":
"spring" | "no_spring" | "unknown", "plan": [...]}`` back, the plan optional,
each step a string of cards or an object with ``"cards"``.

A command that crashes, answers garbage (not JSON, not UTF-8, a line over the
line limit, nested too deeply) or stays silent past the timeout gets that
recorded for the request; its whole process group is killed and it is
restarted for the next one. The run never hangs.
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Any

from cpsolver.io.dealformat import deal_as_dict
from cpsolver.io.reading import InputError, command_argv, limit, lines_of, loads_json
from cpsolver.rules.cards import Deal
from cpsolver.rules.errors import CpsolverError
from cpsolver.scale.watchdog import GuardedGroup

PROTOCOL = 2
_ANSWERS = ("spring", "no_spring", "unknown")
_SOURCE = "the external solver"


class SolverStartError(CpsolverError):
    """The external command is empty or cannot be started."""


@dataclass
class Reply:
    """What the command said to one request: its JSON object, or the problem; and stale lines."""

    data: dict[str, Any] | None
    seconds: float
    problem: str | None = None
    stale: list[str] = field(default_factory=list)


@dataclass
class ExternalAnswer:
    """What the command said about one deal: a verdict and plan, or the problem."""

    verdict: str | None
    plan: list[str] | None
    seconds: float
    problem: str | None = None
    stale: list[str] = field(default_factory=list)


def parse_answer(data: Any) -> tuple[str, list[str] | None]:
    """Read one answer to the spring question; ValueError says what is wrong with it.

    >>> parse_answer({"verdict": "spring", "plan": ["KK", {"cards": "2"}]})
    ('spring', ['KK', '2'])
    """
    if not isinstance(data, dict) or data.get("verdict") not in _ANSWERS:
        raise ValueError(f"no 'verdict' of {', '.join(_ANSWERS)}: {_excerpt(data)}")
    return data["verdict"], cards_list(data.get("plan"), "plan", "a plan step is not cards")


def cards_list(items: Any, key: str, wrong: str) -> list[str] | None:
    """An answer's list of plays under ``key``: each cards text or ``{"cards": text}``; None if absent.

    ValueError, starting with ``wrong`` for a bad item, says what is wrong.

    >>> cards_list(["KK", {"cards": "2"}, "pass"], "moves", "a move is not cards")
    ['KK', '2', 'pass']
    """
    if items is None:
        return None
    if not isinstance(items, list):
        raise ValueError(f"{key!r} is not a list")
    found = []
    for item in items:
        cards = item.get("cards") if isinstance(item, dict) else item
        if not isinstance(cards, str):
            raise ValueError(f"{wrong}: {_excerpt(item)}")
        found.append(cards)
    return found


def _excerpt(value: Any) -> str:
    return repr(json.dumps(value) if not isinstance(value, str) else value.strip())[:80]


class ExternalCommand:
    """A solver that is an external command, whatever its question: started, versioned, ended."""

    name = "external"

    def __init__(self, command: str, timeout: float) -> None:
        self._solver = ExternalSolver(command, timeout)

    @property
    def protocol(self) -> int | None:
        """The protocol version it speaks: 2 (echoes ids), 1 (does not), None (never answered)."""
        return self._solver.version

    def close(self) -> None:
        self._solver.close()


class ExternalSolver:
    """One running external command, asked one request at a time."""

    def __init__(self, command: str, timeout: float) -> None:
        self.command = command
        self.argv = command_argv(command, "the external solver")
        self.timeout = timeout
        self.version: int | None = None  # 2 once it echoes an id, 1 once it answers without
        self._process: subprocess.Popen[bytes] | None = None
        self._group: GuardedGroup | None = None
        self._lines: queue.Queue[str | InputError | None] = queue.Queue()

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            group = GuardedGroup()  # killing the group ends its children too, even if we are killed
        except OSError as error:
            raise SolverStartError(f"cannot start a watchdog: {error.strerror}") from None
        try:
            process = group.start(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as error:
            group.kill()
            raise SolverStartError(f"cannot start {self.command!r}: {error.strerror}") from None
        self._lines = queue.Queue()
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        self._process, self._group = process, group
        return process

    def answer(self, deal: Deal, deal_id: str) -> ExternalAnswer:
        """Ask the spring question about one deal; problems are in the answer, never raised."""
        reply = self.ask({"id": deal_id, **deal_as_dict(deal)})
        if reply.data is None:
            return ExternalAnswer(None, None, reply.seconds, reply.problem, reply.stale)
        try:
            verdict, plan = parse_answer(reply.data)
        except ValueError as error:
            return ExternalAnswer(None, None, reply.seconds, f"garbage: {error}", reply.stale)
        return ExternalAnswer(verdict, plan, reply.seconds, None, reply.stale)

    def ask(self, request: dict[str, Any]) -> Reply:
        """Send one request (it must carry an ``"id"``) and wait for its reply."""
        wanted = request["id"]
        if self._process is not None and self._process.poll() is not None:
            self._stop()  # it died between requests: end the children it left in its group
        process = self._process or self._start()
        if self.version == 1:  # let the reader thread queue any line already sent: no ids to tell
            time.sleep(0.001)
        stale = self._drain()
        if stale and self.version == 1:  # without ids, a left-over line means out of step
            self._stop()
            return Reply(None, 0.0, "out of step: it printed more than one line for a request")
        started = time.perf_counter()
        deadline = time.monotonic() + self.timeout
        assert process.stdin is not None
        try:
            process.stdin.write((json.dumps({"protocol": PROTOCOL, **request}) + "\n").encode())
            process.stdin.flush()
        except OSError:
            pass  # it is gone: its output ends, and that is reported below
        while True:
            try:
                item = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._stop()
                return Reply(None, self.timeout, f"no answer within {self.timeout:g} s", stale)
            seconds = time.perf_counter() - started
            if item is None:
                return Reply(None, seconds, self._ended(process), stale)
            if isinstance(item, InputError):
                self._stop()
                return Reply(None, seconds, f"garbage: {item}", stale)
            try:
                data = loads_json(item, _SOURCE)
            except InputError as error:
                self._stop()  # out of step with us now: start afresh for the next request
                return Reply(None, seconds, f"garbage: {error}", stale)
            echoed = data.get("id") if isinstance(data, dict) else None
            if echoed is None and self.version != 2:
                self.version = 1
                return Reply(data, seconds, None, stale)
            if echoed == wanted:
                self.version = 2
                return Reply(data, seconds, None, stale)
            stale.append(item.strip()[:80])  # for an earlier request, or no id from a v2 solver

    def _drain(self) -> list[str]:
        """Lines that came in between requests: answers to nothing we are waiting for."""
        found: list[str] = []
        while True:
            try:
                item = self._lines.get_nowait()
            except queue.Empty:
                return found
            if item is None:
                self._lines.put(None)  # its output ended; the next wait reports it
                return found
            found.append(str(item).strip()[:80])

    def _ended(self, process: subprocess.Popen[bytes]) -> str:
        """Why its output ended: it exited, crashed, or closed stdout and lingers."""
        try:
            code = process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self._stop()
            return "closed its output without answering"
        self._stop()  # its children may live on in its group
        how = f"exited (code {code})" if code == 0 else f"crashed (exit code {code})"
        return f"{how} without answering"

    def _stop(self) -> None:
        """Kill the command's whole process group: it and every child it started."""
        process, self._process = self._process, None
        if process is None:
            return
        if self._group is not None:
            self._group.kill()
            self._group = None
        process.wait()
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()

    def close(self) -> None:
        """End the command: close its stdin, give it a moment, then end its whole group."""
        process = self._process
        if process is None:
            return
        try:
            assert process.stdin is not None
            process.stdin.close()
            process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._stop()


def _pump(stream: IO[bytes], lines: queue.Queue[str | InputError | None]) -> None:
    """Move the command's output lines into a queue; None marks its end.

    A line that is not UTF-8 or over the line limit goes in as its error
    (the reading goes on); output with no line break in sight ends it.
    """
    try:
        for _, line in lines_of(stream, _SOURCE):
            lines.put(line)
    except (InputError, ValueError):  # endless output, or the stream closed under us
        lines.put(InputError(f"{_SOURCE}: a line over {limit('line')} bytes with no end"))
    lines.put(None)
