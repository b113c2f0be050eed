"""How the endgame benchmark measures one position: ours in-process under a CPU limit, a peer as a process.

Ours is solved by :func:`ours` (CPU seconds by ``time.process_time``, a
profiling timer for the limit, the proof's build and verify where asked); a
peer by :func:`peer_record` (its whole process). The parts that choose the
positions are in ``endgame.py``.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Any, TypeVar

from endgame_peers import Peer
from endgame_tables import Record
from timed import timed_run

from cpsolver.endgame import EndgameResult, solve
from cpsolver.endgame.budget import DEFAULT_MEMORY
from cpsolver.endgame.proof import strategy_proof_text, write_strategy_proof
from cpsolver.io.positionformat import position_as_text
from cpsolver.io.reading import read_pieces, read_text
from cpsolver.io.writing import write_pieces
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules
from cpsolver.verify.answer import VerifyAnswer, verify_file_quickly, verify_text
from cpsolver.verify.compiled import available as checker_available

T = TypeVar("T")
RULES = standard_rules()
CORE = {"name": "auto"}  # the open-hand core ours runs on (endgame.py's --core)


class _OutOfCpu(BaseException):
    """The CPU time limit passed (raised by the SIGPROF timer, inside the search)."""


def _out_of_cpu(signum: int, frame: Any) -> None:
    raise _OutOfCpu


def solve_within(
    position: Position,
    limit: float | None,
    wall_factor: float,
    strategy: bool = False,
    memory: int = DEFAULT_MEMORY,
) -> EndgameResult:
    """Solve with a limit of ``limit`` CPU seconds (a profiling timer) and a wall-clock
    backstop of ``wall_factor`` times as long (the solver's own ``time_limit``), under a
    memory cap of ``memory`` bytes (the solver's default unless told).

    The verdict and a winning move, as the peers answer; with ``strategy``, the
    winner's strategy read out too (a proof is to be built from it).
    """
    if limit is None:
        return solve(position, RULES, memory=memory, core=CORE["name"], strategy=strategy)
    previous = signal.signal(signal.SIGPROF, _out_of_cpu)
    signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        return solve(
            position,
            RULES,
            time_limit=wall_factor * limit,
            memory=memory,
            core=CORE["name"],
            strategy=strategy,
        )
    except (_OutOfCpu, MemoryError):  # undecided within the limits: the table is dropped
        return EndgameResult(position, None)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def cpu_each(work: Callable[[], T], least: float = 0.05) -> tuple[T, float]:
    """``work()``'s result and its CPU seconds a call, over as many calls as fill ``least``.

    A few milliseconds read from the process clock once came out as 0.0 at
    times here (a small proof's build), so short work is repeated.
    """
    calls, started = 0, time.process_time()
    while True:
        found = work()
        calls += 1
        spent = time.process_time() - started
        if spent >= least or calls >= 1000:
            return found, spent / calls


def ours(
    position: Position,
    limit: float | None,
    runs: int = 1,
    proof: bool = False,
    wall_factor: float = 5.0,
    every: bool = True,
    memory: int | None = None,
) -> Record:
    """Solve ``position`` ``runs`` times (CPU seconds each); with ``proof``, also every
    winning move (unless not ``every``), and the proof's build time, size and verify time.

    With ``memory`` (bytes: the cap of the solve and of its strategy's walk), the proof
    is written as a user writes a large one, ``--proof FILE.json.gz``, and verified
    as ``cpsolver verify FILE.json.gz`` reads it; without, it is built and verified as
    text in memory, the solver's default cap holding.
    """
    times, result = [], None
    wall = time.perf_counter()
    cap = DEFAULT_MEMORY if memory is None else memory
    for _ in range(runs):
        started = time.process_time()
        result = solve_within(position, limit, wall_factor, strategy=proof, memory=cap)
        times.append(time.process_time() - started)
        if result.winner is None:
            break
    assert result is not None
    found: Record = {
        "winner": result.winner,
        "limit": limit,
        "seconds": statistics.median(times) if result.winner is not None else None,
        "wall": round(time.perf_counter() - wall, 4),
        "runs": [round(t, 4) for t in times],
        "nodes": result.stats.get("nodes"),
        "search_nodes": result.stats.get("search_nodes"),  # to the verdict, before the walk
        "core": result.stats.get("core"),
        "peak_memory_mb": result.stats.get("peak_memory_mb"),
        "moves": [str(m) for m in result.moves],
    }
    if memory is not None:
        found["memory_mb"] = memory >> 20
    if "strategy_stopped" in result.stats:  # the verdict, but no strategy within the limits
        found["strategy_stopped"] = result.stats["strategy_stopped"]
    if proof and every and result.winner is not None:
        started = time.process_time()
        found["moves"] = [
            str(m) for m in solve(position, RULES, all_moves=True, core=CORE["name"]).moves
        ]
        found["all_seconds"] = time.process_time() - started
        # The whole process as a user starts it, beside the interpreter's own start-up.
        found["process_runs"] = [command_cpu(endgame_command(position)) for _ in range(runs)]
        found["process_seconds"] = statistics.median(found["process_runs"])
        floor = [command_cpu([sys.executable, "-c", "pass"]) for _ in range(runs)]
        found["interpreter_seconds"] = statistics.median(floor)
        found["install"] = install_kind()
    if proof and result.strategy is not None:
        subject = position_as_text(position)
        if memory is None:
            text, found["proof_seconds"] = cpu_each(lambda: strategy_proof_text(result, RULES))
            found["proof_kb"] = len(text.encode()) / 1024
            # As 'cpsolver verify POSITION PROOF' checks it: the compiled checker where built.
            answer, found["verify_seconds"] = cpu_each(
                lambda: verify_text(text, subject, RULES, "proof")
            )
        else:
            answer = _proof_file(result, subject, found)
        found["checker"] = "compiled" if checker_available() else "python"
        found["proof_nodes"] = answer.walked
        found["verified"] = answer.failure is None
        if answer.failure is not None:
            found["failure"] = answer.failure
    return found


def command_line() -> list[str]:
    """How a user starts cpsolver: the console script beside this interpreter where it was
    installed, else ``python -m cpsolver``."""
    script = Path(sys.executable).with_name("cpsolver")
    return [str(script)] if script.exists() else [sys.executable, "-m", "cpsolver"]


def install_kind() -> str:
    """How the cpsolver this process runs was installed: "editable" (whose import hook costs
    every process about 9 ms of start-up here) or "regular", as ``pip install .`` does."""
    try:
        said = distribution("cpsolver").read_text("direct_url.json") or "{}"
    except PackageNotFoundError:
        return "not installed"
    return "editable" if json.loads(said).get("dir_info", {}).get("editable") else "regular"


def endgame_command(position: Position) -> list[str]:
    """``cpsolver endgame`` on a position of hands on lead, as a user types it."""
    hands = [arg for hand in position.hands for arg in ("--hand", str(hand))]
    return [*command_line(), "endgame", *hands, "--core", CORE["name"]]


_BYTECODE = tempfile.TemporaryDirectory(prefix="cpsolver-bytecode-")


def command_cpu(command: list[str]) -> float:
    """The CPU seconds (user + system) of a whole process, as a peer's whole process is
    timed (it inherits this process's pinning); it must end with exit 0 or 1 (the
    endgame's verdicts).

    Its modules are read from bytecode, as an installed package's are: kept in a
    folder of the benchmark's own even where ``PYTHONDONTWRITEBYTECODE`` is set (a
    source tree run so compiles every module each time, tens of ms), and written by
    an untimed first run.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = _BYTECODE.name
    for _ in range(2):  # the first run writes the bytecode; the second is timed
        _, cpu, done = timed_run(command, env=env)
        if done.returncode not in (0, 1):  # 1 is a verdict, not a failure
            raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip()}")
    return cpu


def _proof_file(result: EndgameResult, subject: str, found: Record) -> VerifyAnswer:
    """Write ``result``'s proof to a gzip file and verify it from there, as the command line
    does with a large one; its build and verify times and sizes go in ``found``."""
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "proof.json.gz")
        fill = partial(write_strategy_proof, result, RULES)  # as `endgame --proof` writes
        _, found["proof_seconds"] = cpu_each(lambda: write_pieces(path, fill))
        found["proof_gz_kb"] = os.path.getsize(path) / 1024
        # Verified as `cpsolver verify FILE` verifies it; the search's table,
        # gigabytes on a full deal, is let go first.
        result.strategy = None
        os.environ.setdefault("CPSOLVER_LIMIT_PROOF", str(1 << 40))  # gigabytes of proof

        def check() -> VerifyAnswer:
            # As `cpsolver verify FILE`: a piece at a time where it can, else the whole text.
            quick = verify_file_quickly(path, subject, RULES)
            return quick or verify_text(read_text(path, "proof"), subject, RULES, "proof")

        answer, found["verify_seconds"] = cpu_each(check)
        found["proof_kb"] = sum(map(len, read_pieces(path, "proof"))) / 1024
    return answer


def peer_record(peer: Peer, position: Position, limit: float, replies: int = 0) -> Record:
    """A peer's answer on a two-player position, as a record."""
    answer = peer.ask(position.hands[0], position.hands[1], limit, replies, peer.wall_factor)
    return {
        "winner": answer.winner,
        "limit": limit,
        "seconds": answer.seconds,
        "cpu": round(answer.cpu, 4),
        "wall": round(answer.wall, 4),
        "moves": [] if answer.move is None else [answer.move],
        "said": answer.said,
    }
