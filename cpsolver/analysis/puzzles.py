"""Endgame puzzles: checked for one solution, graded, proven, and made.

A puzzle is an open-hand position the side to move wins. :func:`check`
solves it with every first move, then walks the principal line and asks, at
each of the winner's turns, how many moves keep the win: a turn with exactly
one is an *only move*, a move the solver of the puzzle must find. A puzzle
is *sound* when its first move is the only winning one. The grade counts the
only moves (the first included): ``easy`` for one, ``medium`` for two,
``hard`` for three or four, ``expert`` from five.

Beside the grade, three measures of difficulty: the solver's ``nodes``, the
length of the principal line (``line_length``, every ply of both sides), and
the *greedy traps*. A greedy player orders its moves by

1. the plays left: the fewest plays any split of its hand after the move
   needs (:func:`cpsolver.game.bots.split_count`; 0 when the move empties
   the hand; a pass leaves the hand whole);
2. then the highest card first: the move's highest rank, higher first (a
   pass has none, so it comes after every play that leaves as few);
3. then more cards first, then the move's text, so that the order is total;

and plays the first. A greedy trap is a losing first move that this order
puts before the winning one: ``traps`` lists them, and none means a greedy
player finds the puzzle's move.

:func:`make` draws seeded random positions (two or three hands, on lead or
in the middle of a trick) and keeps the sound ones.

>>> puzzle = check(Position.parse(["RAQQJJT999844", "B22AAT886633"]))
>>> puzzle.sound, puzzle.first_moves, puzzle.grade
(True, ['8'], 'expert')
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from cpsolver.endgame import PASS, solve
from cpsolver.endgame.answer import EndgameResult
from cpsolver.endgame.budget import OutOfMemory
from cpsolver.endgame.solver import State
from cpsolver.endgame.tree import PASS as SEARCH_PASS
from cpsolver.endgame.tree import OutOfTime, Tree
from cpsolver.game.bots import split_count
from cpsolver.io.dealgen import SizeRange
from cpsolver.io.positiongen import random_position
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules

GRADES = ("easy", "medium", "hard", "expert")


class PuzzleError(CpsolverError):
    """A position that is no puzzle: the side to move loses, or no verdict in time."""


@dataclass(frozen=True)
class Puzzle:
    """A checked puzzle: its winning first moves, the line, the only moves on it, the grade.

    ``verdicts`` gives every legal first move the side that wins after it:
    the evidence that the other first moves lose. ``result`` is the solve
    itself, kept for the proof (:func:`cpsolver.endgame.proof.build_strategy_proof`).
    """

    position: Position
    first_moves: list[str]
    line: list[tuple[int, str]]  # (hand, move) to the end
    only_moves: list[int]  # indexes into ``line`` of the winner's moves that had to be found
    decisions: int  # the winner's turns on the line with more than one legal move
    nodes: int
    verdicts: dict[str, int] = field(default_factory=dict)
    traps: list[str] = field(default_factory=list)
    result: EndgameResult | None = field(default=None, repr=False, compare=False)

    @property
    def sound(self) -> bool:
        """Whether the first winning move is the only one."""
        return len(self.first_moves) == 1

    @property
    def grade(self) -> str:
        """easy, medium, hard or expert, by the only moves on the line."""
        return grade_of(len(self.only_moves))

    @property
    def line_length(self) -> int:
        """The plies of the principal line, both sides' moves and passes."""
        return len(self.line)

    def as_dict(self) -> dict[str, Any]:
        """The JSON of ``cpsolver puzzle check --json`` for one position."""
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
            "line_length": self.line_length,
            "nodes": self.nodes,
            "traps": self.traps,
            "verdicts": self.verdicts,
        }


def grade_of(only_moves: int) -> str:
    """The grade of a line with this many only moves."""
    return GRADES[0 if only_moves <= 1 else 1 if only_moves == 2 else 2 if only_moves <= 4 else 3]


def check(
    position: Position, rules: RuleSet | None = None, time_limit: float | None = None
) -> Puzzle:
    """Check ``position`` as a puzzle; raises :class:`PuzzleError` if the side to move loses.

    The only moves and every first move's verdict are read on the finished
    search's own table, so they cost little more than the first solve.
    """
    rules = rules or standard_rules()
    started = time.perf_counter()
    answer = solve(position, rules, time_limit, all_moves=True)
    if answer.winner is None or answer.strategy is None:
        stopped = answer.stats.get("stopped", answer.stats.get("strategy_stopped"))
        limit = "memory cap" if stopped == "memory" else "time limit"
        what = "no verdict" if answer.winner is None else "no strategy read out"
        raise PuzzleError(f"{what} within the {limit}: too big to check as a puzzle")
    if not answer.mover_wins:
        raise PuzzleError("the side to move loses: a puzzle is a position the side to move wins")
    search = answer.strategy.search
    winner = answer.winner
    only: list[int] = []
    decisions = 0
    state: State | None = answer.strategy.root
    # Counting the only moves searches every reply along the line: it keeps to the
    # check's time limit and the memory cap, which reading the strategy out had lifted.
    search.deadline = None if time_limit is None else started + time_limit
    search.memory.may_stop = True
    try:
        for index, (player, move) in enumerate(answer.strategy.line()):
            assert state is not None
            if search.side[player] == winner and len(search.legal(state)) > 1:
                decisions += 1
                if len(search.winning_moves(state)) == 1:
                    only.append(index)
            state = search.successor(state, move)
        verdicts = _verdicts(search, answer.strategy.root)
    except (OutOfTime, OutOfMemory) as stop:
        limit = "memory cap" if isinstance(stop, OutOfMemory) else "time limit"
        raise PuzzleError(f"no grade within the {limit}: too big to check as a puzzle") from None
    finally:
        search.deadline = None  # the proof is read out from the same table, whole
        search.memory.may_stop = False
    line = [(hand, str(move)) for hand, move in answer.line]
    first = [str(move) for move in answer.moves]
    traps = greedy_traps(position, verdicts, winner, rules)
    return Puzzle(position, first, line, only, decisions, search.nodes, verdicts, traps, answer)


def _verdicts(search: Tree, root: State) -> dict[str, int]:
    """Every legal first move and the side that wins after it, read (or searched) on the table."""
    return {
        PASS if move == SEARCH_PASS else str(search.play(move)): side
        for move, side in search.move_winners(root, search=True).items()
    }


def greedy_order(position: Position, rules: RuleSet | None = None) -> list[str]:
    """The legal moves of the player to move, in a greedy player's order (see the module)."""
    hand = position.hands[position.turn]
    moves = generator(rules).moves(hand, position.table)

    def key(move: Play | None) -> tuple[int, int, int, str]:
        if move is None:
            return (split_count(hand, rules), 1, 0, PASS)
        highest = max(move.cards.ranks())
        return (split_count(hand - move.cards, rules), -highest, -len(move.cards), str(move))

    return [PASS if move is None else str(move) for move in sorted(moves, key=key)]


def greedy_traps(
    position: Position, verdicts: dict[str, int], winner: int, rules: RuleSet | None = None
) -> list[str]:
    """The losing first moves a greedy player would try before the first winning one."""
    traps: list[str] = []
    for move in greedy_order(position, rules):
        if verdicts.get(move) == winner:
            break
        traps.append(move)
    return traps


def make(
    count: int,
    seed: int,
    sizes: tuple[SizeRange, ...] = ((8, 13), (8, 13)),
    least: str = "easy",
    rules: RuleSet | None = None,
    time_limit: float | None = 10.0,
    tries: int = 10_000,
    mid_trick: float = 0.0,
) -> Iterator[tuple[int, Puzzle]]:
    """Up to ``count`` sound puzzles of grade ``least`` or harder, with the number of the draw.

    ``sizes`` has two ranges (two hands) or three (the landlord and the two
    peasants); ``mid_trick`` is the share of draws with a play on the table,
    made by another hand than the one to move. A kept puzzle has a choice:
    more than one legal first move. Draw ``k`` of a seed is always
    the same position, so a puzzle is known by (seed, draw). At most
    ``tries`` positions are drawn.
    """
    rules = rules or standard_rules()
    floor = GRADES.index(least)
    made = 0
    for draw in range(tries):
        if made == count:
            return
        rng = random.Random(f"puzzle-{seed}-{draw}")
        position = random_position(rng, sizes, mid_trick, rules)
        try:
            puzzle = check(position, rules, time_limit)
        except PuzzleError:
            continue
        # One legal first move (a forced pass) is no puzzle, though it is sound.
        choice = len(puzzle.verdicts) > 1
        if choice and puzzle.sound and GRADES.index(puzzle.grade) >= floor:
            made += 1
            yield draw, puzzle


__all__ = [
    "GRADES",
    "Puzzle",
    "PuzzleError",
    "check",
    "grade_of",
    "greedy_order",
    "greedy_traps",
    "make",
]
