"""Endgame puzzles: checked for one solution, graded by how many moves must be found, and made.

A puzzle is an open-hand position the side to move wins. :func:`check`
solves it with every winning first move, then walks the principal line and
asks, at each of the winner's turns, how many moves keep the win: a turn
with exactly one is an *only move*, a move the solver of the puzzle must
find. A puzzle is *sound* when its first move is the only winning one. The
grade counts the only moves (the first included): ``easy`` for one,
``medium`` for two, ``hard`` for three or four, ``expert`` from five.
:func:`make` draws seeded random positions and keeps the sound ones.

>>> puzzle = check(Position.parse(["RAQQJJT999844", "B22AAT886633"]))
>>> puzzle.sound, puzzle.first_moves, puzzle.grade
(True, ['8'], 'expert')
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cpsolver.endgame import solve
from cpsolver.endgame.solver import State
from cpsolver.io.dealgen import SizeRange
from cpsolver.io.positiongen import random_position
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules

GRADES = ("easy", "medium", "hard", "expert")


class PuzzleError(CpsolverError):
    """A position that is no puzzle: the side to move loses, or no verdict in time."""


@dataclass(frozen=True)
class Puzzle:
    """A checked puzzle: its winning first moves, the line, the only moves on it, the grade."""

    position: Position
    first_moves: list[str]
    line: list[tuple[int, str]]  # (hand, move) to the end
    only_moves: list[int]  # indexes into ``line`` of the winner's moves that had to be found
    decisions: int  # the winner's turns on the line with more than one legal move
    nodes: int

    @property
    def sound(self) -> bool:
        """Whether the first winning move is the only one."""
        return len(self.first_moves) == 1

    @property
    def grade(self) -> str:
        """easy, medium, hard or expert, by the only moves on the line."""
        found = len(self.only_moves)
        return GRADES[0 if found <= 1 else 1 if found == 2 else 2 if found <= 4 else 3]

    def as_dict(self) -> dict[str, Any]:
        """The JSON of ``cpsolver puzzle check --json`` (and of each line of ``puzzle make``)."""
        return {
            "sound": self.sound,
            "grade": self.grade,
            "first_moves": self.first_moves,
            "only_moves": [
                {"index": i + 1, "hand": self.line[i][0], "move": self.line[i][1]}
                for i in self.only_moves
            ],
            "decisions": self.decisions,
            "line": [{"hand": hand, "move": move} for hand, move in self.line],
            "nodes": self.nodes,
        }


def check(
    position: Position, rules: RuleSet | None = None, time_limit: float | None = None
) -> Puzzle:
    """Check ``position`` as a puzzle; raises :class:`PuzzleError` if the side to move loses.

    The only moves are counted on the finished search's own table, so the
    line's positions cost little more than the first solve.
    """
    rules = rules or standard_rules()
    answer = solve(position, rules, time_limit, all_moves=True)
    if answer.winner is None or answer.strategy is None:
        limit = "memory cap" if answer.stats.get("stopped") == "memory" else "time limit"
        raise PuzzleError(f"no verdict within the {limit}: too big to check as a puzzle")
    if not answer.mover_wins:
        raise PuzzleError("the side to move loses: a puzzle is a position the side to move wins")
    search = answer.strategy.search
    winner = answer.winner
    only: list[int] = []
    decisions = 0
    state: State | None = answer.strategy.root
    for index, (player, move) in enumerate(answer.strategy.line()):
        assert state is not None
        if search.side[player] == winner and len(search.legal(state)) > 1:
            decisions += 1
            if len(search.winning_moves(state)) == 1:
                only.append(index)
        state = search.successor(state, move)
    line = [(hand, str(move)) for hand, move in answer.line]
    first = [str(move) for move in answer.moves]
    return Puzzle(position, first, line, only, decisions, search.nodes)


def make(
    count: int,
    seed: int,
    sizes: tuple[SizeRange, ...] = ((8, 13), (8, 13)),
    least: str = "easy",
    rules: RuleSet | None = None,
    time_limit: float | None = 10.0,
    tries: int = 10_000,
) -> Iterator[tuple[int, Puzzle]]:
    """Up to ``count`` sound puzzles of grade ``least`` or harder, with the number of the draw.

    Draw ``k`` of a seed is always the same position, so a puzzle is known by
    (seed, draw). At most ``tries`` positions are drawn.
    """
    rules = rules or standard_rules()
    floor = GRADES.index(least)
    made = 0
    for draw in range(tries):
        if made == count:
            return
        position = random_position(random.Random(f"puzzle-{seed}-{draw}"), sizes, 0.0, rules)
        try:
            puzzle = check(position, rules, time_limit)
        except PuzzleError:
            continue
        if puzzle.sound and GRADES.index(puzzle.grade) >= floor:
            made += 1
            yield draw, puzzle


__all__ = ["GRADES", "Puzzle", "PuzzleError", "check", "make"]
