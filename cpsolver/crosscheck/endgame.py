"""Cross-checking endgame solvers: ours against its own proofs, other people's against ours.

Every position goes to every solver (:mod:`cpsolver.crosscheck.solvers`). The
winners must agree with each other and with the corpus's ``expected``; each
move an external solver claims wins is played and the position after it
solved by ours: an illegal move, or one after which the other side wins, is
a finding, as is a strategy of ours that fails its check. A failure is
shrunk — cards taken out, the table cleared — while the same kind of failure
persists, within a time budget, so its reproducer is as small as it can be.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cpsolver.crosscheck import report
from cpsolver.crosscheck.report import answer_problems, shrink
from cpsolver.crosscheck.solvers import (
    OURS,
    PASS,
    QUESTION,
    EndgameAnswer,
    EndgameSolver,
    OurSolver,
)
from cpsolver.endgame import solve
from cpsolver.io.positioncorpus import PositionCorpusError, PositionEntry
from cpsolver.io.positionformat import position_as_dict
from cpsolver.rules.cards import RANK_COUNT, Hand
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.plays import Play, beats, readings
from cpsolver.rules.position import Position, side_wins
from cpsolver.rules.ruleset import RuleSet
from cpsolver.scale.parallel import Runner, chunked


def move_failure(
    position: Position, move: str, rules: RuleSet, time_limit: float | None
) -> str | None:
    """Why ``move`` is no winning move for the player to move, or None.

    None also when our solver cannot decide the position after it in time:
    only what is shown wrong is reported.
    """
    if move.strip().lower() == PASS:
        if position.table is None:
            return "pass, on lead, is not a legal move"
        plays: list[Play | None] = [None]
    else:
        try:
            cards = Hand.parse(move)
        except CpsolverError as error:
            return f"{move!r} is not cards: {error}"
        if not cards:
            return "a move of no cards is not a legal move"
        if not cards <= position.hands[position.turn]:
            return f"{cards} is not in hand {position.turn} ({position.hands[position.turn]})"
        read = readings(cards, rules)
        if not read:
            return f"{cards} is no play under the {rules.name} rules"
        table = position.table
        plays = [play for play in read if table is None or beats(play, table)]
        if not plays:
            return f"{cards} does not beat the table play {table}"
    side = position.side_of(position.turn)
    for play in plays:
        after = position.after(play)
        if after is None:
            return None
        winner = solve(after, rules, time_limit, strategy=False).winner
        if winner is None or winner == side:
            return None
    return f"{move} loses: {side_wins(1 - side, position.players)} after it"


def judge(
    position: Position,
    answers: list[EndgameAnswer],
    expected: int | None,
    rules: RuleSet,
    time_limit: float | None,
) -> tuple[str, str] | None:
    """The first failure among these answers, as (kind, reason), or None.

    Kinds: ``invalid proof`` (our strategy fails its check), ``disagreement``
    (winners differ, or differ from ``expected``), ``invalid move`` (a claimed
    winning move is illegal or loses).
    """
    for answer in answers:
        if answer.proof is not None:
            return "invalid proof", f"{answer.solver}'s strategy: {answer.proof}"
    decided = [(a.solver, a.winner) for a in answers if a.winner is not None]
    if len({winner for _, winner in decided}) > 1:
        return "disagreement", ", ".join(
            f"{name} says {side_wins(w, position.players)}" for name, w in decided
        )
    mover = position.side_of(position.turn)
    for answer in answers:
        if answer.winner is None or not answer.moves or answer.solver == OURS:
            continue  # ours are covered by its checked strategy
        if answer.winner != mover:
            return "invalid move", (
                f"{answer.solver} says the side to move loses, yet names winning moves"
            )
        for move in answer.moves:
            failure = move_failure(position, move, rules, time_limit)
            if failure is not None:
                return "invalid move", f"{answer.solver}'s winning move {failure}"
    if expected is not None:
        for name, winner in decided:
            if winner != expected:
                return "disagreement", (
                    f"expected {position.side_name(expected)} to win, "
                    f"{name} says {side_wins(winner, position.players)}"
                )
    return None


def smaller_positions(position: Position) -> Iterator[Position]:
    """Every position one step simpler: the table cleared, or one card fewer in one hand."""
    if position.table is not None:
        yield Position(position.hands, position.turn)
    for which, hand in enumerate(position.hands):
        if len(hand) == 1:
            continue
        for rank in range(RANK_COUNT - 1, -1, -1):
            if hand[rank]:
                hands = list(position.hands)
                hands[which] = hand - Hand.from_ranks([rank])
                yield Position(tuple(hands), position.turn, position.table, position.by)


def shrink_position(
    position: Position, fails: Callable[[Position], bool], budget: float | None = None
) -> tuple[Position, bool]:
    """Simplify while ``fails`` holds; the smallest failing position, and whether time ran out.

    ``budget`` is in seconds; None is no limit.
    """
    return shrink(position, smaller_positions, fails, budget)


@dataclass
class EndgameFinding(report.Finding):
    """A position on which the solvers failed: what, why, and the shrunk reproducer."""

    position: Position
    original: Position
    winners: dict[str, int | None]

    def reproducer(self) -> dict[str, Any]:
        return {
            "position": position_as_dict(self.position),
            "original_position": position_as_dict(self.original),
            "winners": self.winners,
        }


@dataclass
class EndgameSummary(report.Tally[EndgameFinding]):
    """The counts of an endgame cross-check, each solver's times, and every finding."""

    positions: int = 0
    invalid_moves: int = 0
    mover_wins: int = 0

    def counts(self) -> dict[str, Any]:
        """The JSON summary's leading counts, as ``crosscheck --question endgame --json`` prints them."""
        return {
            "question": QUESTION,
            "positions": self.positions,
            "agreements": self.agreements,
            "disagreements": self.disagreements,
            "invalid_moves": self.invalid_moves,
            "invalid_proofs": self.invalid_proofs,
            "unknowns": self.unknowns,
            "mover_wins": self.mover_wins,
        }


_Entry = PositionEntry | PositionCorpusError


def crosscheck_positions(
    entries: Iterable[_Entry],
    solvers: list[EndgameSolver],
    rules: RuleSet,
    time_limit: float | None,
    shrink_budget: float | None = None,
    progress: Callable[[], None] = lambda: None,
    runner: Runner | None = None,
) -> EndgameSummary:
    """Run every position past every solver; count, compare, check moves and proofs, shrink.

    ``time_limit`` bounds our solver on each position and each claimed move;
    ``shrink_budget`` bounds the shrinking of each failure, in seconds. With a
    ``runner``, our solver answers in its workers; other solvers, judging and
    shrinking stay here. Ctrl-C ends the run early with the summary so far
    (``interrupted``).
    """
    summary = EndgameSummary([solver.name for solver in solvers])
    summary.run(
        lambda: _check_all(
            entries, solvers, rules, time_limit, shrink_budget, progress, runner, summary
        ),
        solvers,
    )
    return summary


def _check_all(
    entries: Iterable[_Entry],
    solvers: list[EndgameSolver],
    rules: RuleSet,
    time_limit: float | None,
    shrink_budget: float | None,
    progress: Callable[[], None],
    runner: Runner | None,
    summary: EndgameSummary,
) -> None:
    ours = [solver for solver in solvers if isinstance(solver, OurSolver)]
    others = [solver for solver in solvers if not isinstance(solver, OurSolver)]

    def ask(position: Position, position_id: str) -> list[EndgameAnswer]:
        return [solver.answer(position, position_id) for solver in [*ours, *others]]

    task = _AnswerTask(ours)
    answered: Iterable[list[tuple[_Entry, list[EndgameAnswer]]]]
    if runner is None:
        answered = (task([entry]) for entry in entries)
    else:
        answered = runner.run(task, chunked(entries, 16))
    for entry, ours_said in (pair for chunk in answered for pair in chunk):
        progress()
        if isinstance(entry, PositionCorpusError):
            summary.bad_lines.append(str(entry))
            continue
        summary.positions += 1
        answers = ours_said + [solver.answer(entry.position, entry.id) for solver in others]
        for answer in answers:
            summary.seconds[answer.solver].append(answer.seconds)
            summary.unknowns += answer.winner is None and answer.problem is None
            summary.problems += answer_problems(
                entry.id, answer.solver, answer.problem, answer.stale
            )
        position = entry.position
        summary.mover_wins += any(
            a.solver == OURS and a.winner == position.side_of(position.turn) for a in answers
        )
        failure = judge(position, answers, entry.expected, rules, time_limit)
        if failure is None:
            summary.agreements += 1
            continue
        kind, reason = failure
        if kind == "invalid proof":
            summary.invalid_proofs += 1
        elif kind == "invalid move":
            summary.invalid_moves += 1
        else:
            summary.disagreements += 1
        shrunk = position
        if not reason.startswith("expected "):  # the label is about the original position only

            def still_fails(smaller: Position, kind: str = kind, name: str = entry.id) -> bool:
                found = judge(smaller, ask(smaller, f"{name}-shrink"), None, rules, time_limit)
                return found is not None and found[0] == kind

            shrunk, cut_short = shrink_position(position, still_fails, shrink_budget)
            summary.shrinks_cut_short += cut_short
            if shrunk != position:
                again = judge(shrunk, ask(shrunk, entry.id), None, rules, time_limit)
                reason = (again or failure)[1]
        winners = {answer.solver: answer.winner for answer in ask(shrunk, entry.id)}
        summary.findings.append(EndgameFinding(entry.id, kind, reason, shrunk, position, winners))


@dataclass(frozen=True)
class _AnswerTask:
    """Our solver's answers to a chunk of corpus entries: picklable, for any runner."""

    solvers: list[OurSolver]

    def __call__(self, chunk: list[_Entry]) -> list[tuple[_Entry, list[EndgameAnswer]]]:
        return [
            (
                entry,
                []
                if isinstance(entry, PositionCorpusError)
                else [solver.answer(entry.position, entry.id) for solver in self.solvers],
            )
            for entry in chunk
        ]
