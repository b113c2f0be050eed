"""The solvers that answer the endgame question: ours, and external commands.

Ours solves each position and has its winning strategy re-checked by the
strategy checker (which shares only the rules core with the solver). An
external command is asked over the line protocol (``cpsolver.crosscheck.external``)::

    {"protocol": 2, "id": ..., "question": "endgame", "hands": [...], "turn": N, "table": ...}

and answers ``{"id": ..., "winner": 0 | 1 | null, "moves": ["CARDS" | "pass", ...]}``
(null: unknown; ``moves``, the winning moves of the player to move, optional
and empty when that side loses).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from cpsolver.crosscheck.external import ExternalCommand, cards_list
from cpsolver.endgame import solve
from cpsolver.endgame.proof import build_strategy_proof
from cpsolver.io.positionformat import position_as_dict
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet
from cpsolver.verify.strategy import check_strategy

QUESTION = "endgame"
OURS = "cpsolver"
PASS = "pass"


@dataclass
class EndgameAnswer:
    """One solver's answer to one position: the winning side and moves, or a problem.

    ``proof`` is ours only: why our strategy proof failed its check, if it did.
    """

    solver: str
    winner: int | None
    moves: list[str] | None
    seconds: float
    problem: str | None = None
    proof: str | None = None
    stale: list[str] = field(default_factory=list)  # lines discarded while waiting for this


class EndgameSolver(Protocol):
    """Anything that answers positions: our solver, or an external command."""

    name: str

    def answer(self, position: Position, position_id: str) -> EndgameAnswer: ...

    def close(self) -> None: ...


class OurSolver:
    """Our open-hand solver; each strategy it finds is checked by the strategy checker.

    The check may take longer than the solve; ``check_proofs`` False skips it.
    """

    name = OURS

    def __init__(self, rules: RuleSet, time_limit: float | None, check_proofs: bool = True) -> None:
        self.rules = rules
        self.time_limit = time_limit
        self.check_proofs = check_proofs

    def answer(self, position: Position, position_id: str) -> EndgameAnswer:
        started = time.perf_counter()
        result = solve(position, self.rules, self.time_limit, strategy=self.check_proofs)
        moves = [str(move) for move in result.moves]
        answer = EndgameAnswer(self.name, result.winner, moves, 0.0)
        if result.winner is not None and self.check_proofs:
            answer.proof = check_strategy(
                build_strategy_proof(result, self.rules), position, self.rules
            )
        answer.seconds = time.perf_counter() - started
        return answer

    def close(self) -> None:
        pass


def parse_endgame_answer(data: Any) -> tuple[int | None, list[str] | None]:
    """Read one answer to the endgame question; ValueError says what is wrong with it.

    >>> parse_endgame_answer({"id": "p1", "winner": 1, "moves": ["pass", {"cards": "KK"}]})
    (1, ['pass', 'KK'])
    """
    if not isinstance(data, dict) or "winner" not in data:
        raise ValueError(f"no 'winner' (0, 1 or null): {str(data)[:80]!r}")
    winner = data["winner"]
    if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
        raise ValueError(f"'winner' must be 0, 1 or null, not {winner!r}")
    return winner, cards_list(data.get("moves"), "moves", "a move is not cards or 'pass'")


class CommandEndgameSolver(ExternalCommand):
    """An external command answering the endgame question over the line protocol."""

    def answer(self, position: Position, position_id: str) -> EndgameAnswer:
        request = {"id": position_id, "question": QUESTION, **position_as_dict(position)}
        reply = self._solver.ask(request)
        found = EndgameAnswer(
            self.name, None, None, reply.seconds, reply.problem, None, reply.stale
        )
        if reply.problem is None:
            try:
                found.winner, found.moves = parse_endgame_answer(reply.data)
            except ValueError as error:
                found.problem = f"garbage: {error}"
        return found
