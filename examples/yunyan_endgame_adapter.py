"""Cross-check YunyanDeng/doudizhu_endgame, a C++ endgame solver, through cpsolver's line protocol.

    cpsolver deal --kind position2 --count 100 --sizes 4-10,4-10 --mid-trick 0 -o leads.jsonl
    cpsolver crosscheck leads.jsonl \\
        --against 'python examples/yunyan_endgame_adapter.py /path/to/doudizhu_endgame --cpu 1'

None of that solver is in this repository: build it yourself, outside it
(``cmake ../doudizhu && make`` in a build folder of its clone), and give this
adapter the binary's path as its first argument or in ``YUNYAN_ENDGAME``.

The adapter reads one JSON request per line on stdin (the endgame question:
``{"id": ..., "question": "endgame", "hands": [...], "turn": N, "table": ...}``)
and writes one JSON answer per line (``{"id": ..., "winner": 0 | 1 | null,
"moves": [...]}``), flushing each. For each position it starts the binary
afresh, writes the two hands in its notation (high cards first, ``0`` for the
ten, ``Y`` and ``Z`` for the black and red joker: ``ZY20`` is our ``RB2T``),
the hand to move first (the binary calls it the lord), reads its first
verdict (``play: [K K 5]``, a winning move, or ``can not win``) and kills it:
after a verdict the binary waits for the other side's replies.

What the binary cannot answer gets ``"winner": null`` and a ``"note"`` saying
why, never a guess: three hands (it solves two), a play on the table (it
solves leads only), a position over ``--time-limit`` seconds (default 10; the
binary is also held to that much CPU time, plus a second), output it does not
normally print, or a crash. ``--cpu N`` pins the binary to core N with
``taskset`` (it starts a thread per first move and takes every core it finds).

Every binary runs in a process group led by cpsolver's watchdog, so nothing
outlives the adapter, even when it is killed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import selectors
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

from cpsolver.io.notation import peer_cards
from cpsolver.rules.cards import Hand, rank_of
from cpsolver.scale.watchdog import GuardedGroup

ENVIRONMENT = "YUNYAN_ENDGAME"
WIN = "play: ["
LOSS = "can not win"
MOST_LINES = 200  # the banner and the echo are a dozen lines: past this, it is not answering
LONGEST_OUTPUT = 1 << 16  # bytes kept of a line that does not end
_FROM_PEER = {"10": "T", "0": "T", "'Little Joker'": "B", "'Big Joker'": "R"}


class PeerOutputError(ValueError):
    """A line of the binary's output that this adapter cannot read."""


def our_cards(line: str) -> str:
    """The cards of a ``play: [...]`` line in our notation.

    >>> our_cards("play: ['Big Joker' 'Little Joker']")
    'BR'
    >>> our_cards("play: [10 10 10 4]")
    '4TTT'
    """
    if not (line.startswith(WIN) and line.endswith("]")):
        raise PeerOutputError(f"not a play line: {line[:80]!r}")
    inner = line[len(WIN) : -1]
    for name, symbol in _FROM_PEER.items():
        if name.startswith("'"):
            inner = inner.replace(name, symbol)
    words = inner.split()
    if not words:
        raise PeerOutputError(f"a play of no cards: {line[:80]!r}")
    try:
        ranks = [rank_of(_FROM_PEER.get(word, word)) for word in words]
    except ValueError as error:
        raise PeerOutputError(f"not cards: {line[:80]!r} ({error})") from None
    return str(Hand.from_ranks(ranks))  # not the symbols run together: "BJ" reads as a joker


def verdict(line: str) -> tuple[bool, str | None] | None:
    """What one output line says: (True, move) a win, (False, None) a loss, None no verdict.

    >>> verdict("play: [K K]")
    (True, 'KK')
    >>> verdict("can not win")
    (False, None)
    >>> verdict("enter farmer hand:") is None
    True
    """
    line = line.strip()
    if line == LOSS:
        return False, None
    if line.startswith(WIN):
        return True, our_cards(line)
    return None


class Peer:
    """The user's binary: ``ask`` runs it on two hands, the first to lead, under a time limit."""

    def __init__(self, binary: str, time_limit: float, cpu: int | None = None) -> None:
        self.binary = binary
        self.time_limit = time_limit
        self.cpu = cpu

    def argv(self) -> list[str]:
        """The command line: pinned to one core when asked, its output line-buffered if possible."""
        argv = [self.binary]
        if self.cpu is not None:
            if shutil.which("taskset") is None:
                raise SystemExit("--cpu needs taskset, which is not on PATH")
            argv = ["taskset", "-c", str(self.cpu), *argv]
        if shutil.which("stdbuf"):
            argv = ["stdbuf", "-oL", *argv]
        return argv

    def ask(self, mover: Hand, other: Hand) -> tuple[bool | None, str | None, str | None]:
        """(whether the mover wins, its move, None) or (None, None, why there is no verdict)."""
        seconds = max(1, math.ceil(self.time_limit)) + 1

        def limited() -> None:  # in the child, before exec: a CPU-time backstop
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

        group = GuardedGroup()
        try:
            process = group.start(
                self.argv(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                preexec_fn=limited,  # safe: the adapter starts no threads
            )
        except OSError as error:
            group.kill()
            return None, None, f"cannot start {self.binary!r}: {error.strerror}"
        try:
            return self._talk(process, mover, other)
        finally:
            group.kill()  # it waits for the other side's replies after a verdict: end it
            process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()

    def _talk(
        self, process: subprocess.Popen[bytes], mover: Hand, other: Hand
    ) -> tuple[bool | None, str | None, str | None]:
        assert process.stdin is not None
        try:
            process.stdin.write(f"{peer_cards(mover)}\n{peer_cards(other)}\n".encode())
            process.stdin.flush()
        except OSError:
            pass  # it is gone already: its output ends, and that is reported below
        deadline = time.monotonic() + self.time_limit
        for count, line in enumerate(_lines(process, deadline)):
            if count >= MOST_LINES:
                return None, None, f"no verdict in {MOST_LINES} lines"
            try:
                said = verdict(line)
            except PeerOutputError as error:
                return None, None, f"unreadable verdict: {error}"
            if said is not None:
                return said[0], said[1], None
            if line.startswith("invalid card"):
                return None, None, f"refused the hands: {line[:80]!r}"
        if time.monotonic() >= deadline:
            return None, None, f"no verdict within {self.time_limit:g} s"
        return None, None, f"ended without a verdict (exit code {process.wait()})"


def _lines(process: subprocess.Popen[bytes], deadline: float) -> Iterator[str]:
    """The binary's output lines as they come, until its output ends or the deadline passes.

    No reader thread: the adapter stays single-threaded, so starting the next
    binary with a ``preexec_fn`` is safe.
    """
    assert process.stdout is not None
    stream = process.stdout
    os.set_blocking(stream.fileno(), False)
    buffer = b""
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not selector.select(timeout=left):
                continue
            chunk = stream.read(65536)
            if chunk is None:
                continue
            if not chunk:
                return
            buffer += chunk
            if len(buffer) > LONGEST_OUTPUT:
                buffer = buffer[-LONGEST_OUTPUT:]  # endless output without a verdict
            *complete, buffer = buffer.split(b"\n")
            for raw in complete:
                yield raw.decode("utf-8", "replace").strip()


def answer(request: dict[str, Any], peer: Peer) -> dict[str, Any]:
    """The protocol's answer to one request: the binary's verdict, or null and why."""
    reply: dict[str, Any] = {"id": request.get("id"), "winner": None, "moves": []}
    hands = request.get("hands")
    turn = request.get("turn", 0)
    if request.get("question", "endgame") != "endgame":
        reply["note"] = "it answers the endgame question only"
    elif not isinstance(hands, list) or len(hands) != 2 or turn not in (0, 1):
        reply["note"] = "it solves two hands only"
    elif request.get("table") is not None:
        reply["note"] = "it solves leads only, not a play on the table"
    else:
        try:
            ours = [Hand.parse(cards) for cards in hands]
        except ValueError as error:
            reply["note"] = f"not hands: {error}"
            return reply
        wins, move, problem = peer.ask(ours[turn], ours[1 - turn])
        if wins is None:
            reply["note"] = problem
        else:
            reply["winner"] = turn if wins else 1 - turn
            reply["moves"] = [move] if wins else []
    return reply


def main(arguments: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", nargs="?", default=os.environ.get(ENVIRONMENT))
    parser.add_argument("--time-limit", type=float, default=10.0, metavar="SECONDS")
    parser.add_argument("--cpu", type=int, default=None, help="pin the binary to this core")
    options = parser.parse_args(arguments)
    if not options.binary:
        parser.error(f"give the binary's path, or set {ENVIRONMENT}")
    peer = Peer(options.binary, options.time_limit, options.cpu)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError:
            continue  # not a request: nothing to answer, no id to echo
        if not isinstance(request, dict):
            continue
        print(json.dumps(answer(request, peer)), flush=True)


if __name__ == "__main__":
    main()
