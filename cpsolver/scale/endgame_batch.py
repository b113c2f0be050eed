"""The endgame question in a batch: one result record per position (or deal) line.

A position line is read as :mod:`cpsolver.io.positioncorpus` reads it (a
deal line is the landlord to lead); the record says who wins with best play,
the winning moves of the player to move, the solver's nodes, seconds and CPU
seconds (of the thread that solved it: a worker's, not its neighbours'),
whether it was ``solved`` or ran out of time (``unknown``), and how many
players the position has (so the summary can name the winning side).
"""

from __future__ import annotations

import time
from typing import Any

from cpsolver.endgame import solve
from cpsolver.endgame.budget import DEFAULT_MEMORY
from cpsolver.io.positioncorpus import PositionCorpusError, parse_position_line
from cpsolver.rules.position import side_name
from cpsolver.rules.ruleset import RuleSet

QUESTIONS = ("spring", "endgame")


def solve_position_line(
    number: int,
    line: str,
    rules: RuleSet,
    timeout: float | None,
    record_id: Any,
    memory: int | None = DEFAULT_MEMORY,
    core: str = "auto",
) -> dict[str, Any]:
    """The result record of one position line; a line that is no position gives an error record."""
    try:
        entry = parse_position_line(line, number, rules)
    except PositionCorpusError as error:
        return {"id": record_id, "line": number, "error": str(error)}
    started, used = time.perf_counter(), time.thread_time()
    result = solve(entry.position, rules, timeout, memory=memory, core=core, strategy=False)
    record: dict[str, Any] = {
        "id": record_id,
        "line": number,
        "winner": result.winner,
        "moves": [str(move) for move in result.moves],
        "nodes": result.stats.get("nodes", 0),
        "seconds": round(time.perf_counter() - started, 6),
        "cpu_seconds": round(time.thread_time() - used, 6),
        "status": "unknown" if result.winner is None else "solved",
        "players": entry.position.players,
    }
    if result.stats.get("evictions"):
        record["evicted"] = result.stats["evicted"]
    if entry.expected is not None:
        record["expected"] = {"winner": entry.expected}
    return record


def is_endgame_mismatch(record: dict[str, Any]) -> bool:
    """Whether an endgame record's winner contradicts its line's expected winner (unknown never does)."""
    expected = record.get("expected")
    if not isinstance(expected, dict) or record.get("winner") is None:
        return False
    return bool(expected.get("winner") != record["winner"])


def outcome(record: dict[str, Any]) -> str:
    """What a result record counts as in a summary: a verdict, a side's win, or ``unknown``."""
    if "status" in record:
        winner, players = record.get("winner"), record.get("players")
        if winner not in (0, 1):
            return "unknown"
        # Records of earlier versions carry no player count: their side by number.
        return (
            f"won by {side_name(winner, players)}" if players in (2, 3) else f"side {winner} wins"
        )
    return str(record["verdict"])
