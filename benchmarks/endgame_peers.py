"""Run public two-player endgame solvers (C++ binaries built by the user) on our positions.

Neither peer is vendored or built here: the benchmark takes the paths of
binaries the user built, outside this repository. How they were built for
the published numbers: YunyanDeng's with its own CMakeLists (``cmake
doudizhu && make``: -O3, C++11); WZ's single file with ``g++ -O2``, after
renaming its global ``end`` (a clock variable that clashes with ``std::end``
under a current g++), the only change. Both read the two
hands on stdin, in their notation (``0`` for the ten, ``Y``/``Z`` for the
black/red joker), the first player to move, and then wait for the other
side's replies; we read the first answer and end the process.

- ``yunyan``: YunyanDeng/doudizhu_endgame. Prints ``play: [K K 5]`` (a
  winning move of the first player) or ``can not win``.
- ``wz``: WZ403809264/doudizhu_solver. Asks for the banned kinds too (we
  answer 0: none); prints ``第一步：<move>  P1赢`` (or ``P2赢``).

Time is the child's CPU time (user + system, from ``os.wait4``), which the
other agents on a shared machine disturb far less than the wall clock. The
time limit is CPU time too (``RLIMIT_CPU``: the kernel ends the peer), with a
wall-clock backstop of ``wall_factor`` times the limit.
"""

from __future__ import annotations

import math
import os
import resource
import selectors
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from cpsolver.rules.cards import Hand, rank_of, rank_symbol

KNOWN = ("yunyan", "wz")
_TO_PEER = {"T": "0", "B": "Y", "R": "Z"}
_WZ_WORDS = {"不出": "pass", "10": "T", "小王": "B", "大王": "R"}


@dataclass
class PeerAnswer:
    """What a peer said about a position: the winner (0: first player), its move, its time."""

    winner: int | None  # None: no answer within the limit, or output we could not read
    move: str | None = None  # our notation, high cards first; "pass"
    seconds: float | None = None  # the child's CPU seconds; None when it ran out of time
    wall: float = 0.0
    cpu: float = 0.0  # the child's CPU seconds, answer or not
    said: list[str] = field(default_factory=list)  # the answer lines, verbatim

    @property
    def decided(self) -> bool:
        """Whether the peer gave a verdict within the limit."""
        return self.winner is not None


def peer_cards(hand: Hand) -> str:
    """A hand in the peers' notation, high cards first (the WZ solver requires that order)."""
    symbols = [rank_symbol(rank) for rank in reversed(list(hand.ranks()))]
    return "".join(_TO_PEER.get(symbol, symbol) for symbol in symbols)


def our_cards(symbols: list[str]) -> str:
    """Card symbols of a peer's output in our notation, high cards first."""
    if symbols == ["pass"]:
        return "pass"
    ranks = sorted((rank_of(_TO_PEER_BACK.get(s, s)) for s in symbols), reverse=True)
    return "".join(rank_symbol(rank) for rank in ranks)


_TO_PEER_BACK = {"0": "T", "10": "T", "Y": "B", "Z": "R"}


class Peer:
    """One peer binary; ``ask`` runs it on a position of two hands, the first to lead."""

    def __init__(
        self,
        name: str,
        path: str,
        cpu: int | None,
        wall_factor: float = 5.0,
        memory: int | None = None,
    ) -> None:
        if name not in KNOWN:
            raise ValueError(f"unknown peer {name!r}: known are {', '.join(KNOWN)}")
        self.name = name
        self.path = path
        self.cpu = cpu
        self.wall_factor = wall_factor
        self.memory = memory  # an address-space cap in bytes

    def command(self) -> list[str]:
        """The command line: line-buffered output, pinned to one core when asked."""
        command = [self.path]
        if self.cpu is not None and shutil.which("taskset"):
            command = ["taskset", "-c", str(self.cpu), *command]
        if shutil.which("stdbuf"):
            command = ["stdbuf", "-oL", *command]
        return command

    def ask(
        self, first: Hand, second: Hand, limit: float, replies: int = 0, wall_factor: float = 5.0
    ) -> PeerAnswer:
        """The peer's answer within ``limit`` CPU seconds; with ``replies``, also answer that
        many of its moves with a pass and keep what it says next (the lines go into ``said``)."""
        cpu = max(1, math.ceil(limit))

        def limited() -> None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
            if self.memory is not None:
                resource.setrlimit(resource.RLIMIT_AS, (self.memory, self.memory))

        lines = [peer_cards(first), peer_cards(second)] + (["0"] if self.name == "wz" else [])
        started = time.perf_counter()
        process = subprocess.Popen(
            self.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            preexec_fn=limited,  # noqa: PLW1509 - this process starts no threads
        )
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(("\n".join(lines) + "\n").encode())
        process.stdin.flush()
        answer = PeerAnswer(None)
        deadline = started + wall_factor * limit
        try:
            for line in _lines(process, deadline):
                if self._read(line, answer):
                    if len(answer.said) > replies or answer.winner == 1:
                        break
                    process.stdin.write(b"P\n")
                    process.stdin.flush()
        finally:
            answer.wall = time.perf_counter() - started
            # Not process.kill(): it polls first, and reaping an ended child there would
            # lose its resource usage. The pid stays ours until wait4 reaps it.
            os.kill(process.pid, signal.SIGKILL)
            _, _, usage = os.wait4(process.pid, 0)
            process.returncode = -9
            process.stdin.close()
            process.stdout.close()
        answer.cpu = usage.ru_utime + usage.ru_stime
        if answer.winner is not None:
            answer.seconds = answer.cpu
        return answer

    def _read(self, line: str, answer: PeerAnswer) -> bool:
        """Take an answer line into ``answer``; whether it was one."""
        if self.name == "yunyan":
            if line.startswith("play: [") or line == "PASS" or line == "can not win":
                answer.said.append(line)
                if answer.winner is None:
                    if line == "can not win":
                        answer.winner = 1
                    else:
                        answer.winner = 0
                        inner = line[len("play: [") : -1]
                        inner = inner.replace("'Little Joker'", "Y").replace("'Big Joker'", "Z")
                        answer.move = our_cards(inner.split())
                return True
            return False
        if "第一步：" in line:
            answer.said.append(line)
            body = line.split("第一步：", 1)[1]
            words = body.split()
            verdict = words.pop() if words else ""
            if verdict in ("P1赢", "P2赢"):
                answer.winner = 0 if verdict == "P1赢" else 1
                if answer.winner == 0:  # a loser's "first step" is just its first move
                    answer.move = our_cards([_WZ_WORDS.get(w, w) for w in words])
            return True
        return False


def _lines(process: subprocess.Popen[bytes], deadline: float) -> Iterator[str]:
    """The process's output lines as they come, until end of output or the deadline."""
    assert process.stdout is not None
    stream = process.stdout
    os.set_blocking(stream.fileno(), False)
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)
    buffer = b""
    try:
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                return
            if not selector.select(timeout=left):
                continue
            chunk = stream.read(65536)
            if chunk is None:
                continue
            if not chunk:
                return
            buffer += chunk
            *complete, buffer = buffer.split(b"\n")
            for raw in complete:
                yield raw.decode("utf-8", "replace").strip()
    finally:
        selector.close()
