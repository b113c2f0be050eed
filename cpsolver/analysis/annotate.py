"""A recorded hand, action by action: who wins before and after each, and the blunders.

Side 0 is the landlord, side 1 the peasants. After every action the position
reached (every hand known, the play to beat on the table) is put to the
open-hand solver; the position before an action is the one after the last.
An action is a *blunder* when its side won the position before it and loses
the one after: ``better`` is then a move the solver found that keeps the win.
A position beyond the budget (``timeout`` each, ``total_timeout`` for the
hand, ``max_cards`` in all hands) is undecided, None, and no blunder is
claimed across it.

>>> from cpsolver.game.engine import Game
>>> game = Game(None, 0, [Hand.parse("3"), Hand.parse("K"), Hand.parse("A")], Hand.parse("5 6 7"))
>>> game.make_bid(0, 3)
>>> for seat, cards in [(0, "3"), (1, "K")]:
...     _ = game.play(seat, cards)
>>> analysis = analyse_game(game)
>>> [(a.action, a.winner_before, a.winner_after, a.blunder) for a in analysis.actions]
[('3', 1, 1, False), ('K', 1, 1, False)]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cpsolver.endgame import solve
from cpsolver.game.botzone_log import from_botzone, is_botzone_log
from cpsolver.game.engine import Game, replay
from cpsolver.game.records import from_showdown
from cpsolver.rules.cards import Hand  # noqa: F401  (the doctest's)
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules

PASS = "pass"
SIDE_NAMES = ("landlord", "peasants")


class AnalysisError(CpsolverError):
    """A record that cannot be analysed: not a record cpsolver reads, or a hand not played out."""


@dataclass(frozen=True)
class ActionVerdict:
    """One action of the hand with the verdicts of the positions around it.

    ``index`` counts actions from 1; ``side`` is the mover's (0 the landlord);
    ``winner_before`` and ``winner_after`` are the side that wins with best
    play before and after the action, None where undecided.
    """

    index: int
    seat: int
    side: int
    action: str
    winner_before: int | None
    winner_after: int | None
    blunder: bool
    better: str | None

    def as_dict(self) -> dict[str, Any]:
        """The action as the JSON of ``cpsolver analyse --json`` gives it."""
        return {
            "index": self.index,
            "seat": self.seat,
            "side": self.side,
            "action": self.action,
            "winner_before": self.winner_before,
            "winner_after": self.winner_after,
            "blunder": self.blunder,
            "better": self.better,
        }


@dataclass
class Analysis:
    """A hand analysed: its id, every action's verdicts, the final result (``Game.result()``).

    ``undecided`` counts the positions the budget left undecided (the start
    of play included); ``game`` is the replayed hand, for pictures.
    """

    id: str
    landlord: int | None
    actions: list[ActionVerdict]
    result: dict[str, Any]
    undecided: int
    game: Game = field(repr=False)

    @property
    def blunders(self) -> list[ActionVerdict]:
        """The actions that turned a won position into a lost one for their side."""
        return [action for action in self.actions if action.blunder]

    @property
    def winner(self) -> int | None:
        """The side that won the hand (None for a thrown-in hand)."""
        winner = self.result["winner"]
        return SIDE_NAMES.index(winner) if winner in SIDE_NAMES else None

    def as_dict(self) -> dict[str, Any]:
        """One JSON document: the contract of ``cpsolver analyse --json``.

        Besides the contract's ``id``, ``actions`` and ``result`` (``Game.result()``
        with ``side``, the winning side), it carries ``landlord`` and ``hands``
        (each seat's cards as play began), so that the timeline draws from it alone.
        """
        return {
            "id": self.id,
            "landlord": self.landlord,
            "hands": [str(hand) for hand in self.game.start_of_play],
            "actions": [action.as_dict() for action in self.actions],
            "result": {**self.result, "side": self.winner},
            "blunders": len(self.blunders),
            "undecided": self.undecided,
        }

    def _repr_svg_(self) -> str:
        from cpsolver.pictures.timeline import analysis_timeline

        return analysis_timeline(self.as_dict())


def read_game(record: Any, rules: RuleSet | None = None) -> Game:
    """The hand of a record: a game record of cpsolver's, an rlcard-showdown replay, a Botzone match log, or a Game."""
    if isinstance(record, Game):
        return record
    if not isinstance(record, dict):
        raise AnalysisError("a record is a JSON object")
    if "format" in record:
        return replay(record, rules)
    if "initHands" in record:
        game = from_showdown(record, rules)
        if game.phase != "over":
            raise AnalysisError("the replay's moves stop before the hand is over")
        return game
    if is_botzone_log(record):
        game = from_botzone(record, rules)
        if game.phase not in ("over", "thrown_in"):
            raise AnalysisError("the match log stops before the hand is over")
        return game
    raise AnalysisError(
        "neither a cpsolver game record (it has 'format'), an rlcard-showdown replay "
        "(it has 'initHands') nor a Botzone match log (it has 'log')"
    )


def analyse(
    record: Any,
    rules: RuleSet | None = None,
    timeout: float | None = None,
    total_timeout: float | None = None,
    max_cards: int | None = None,
    id: str | None = None,
) -> Analysis:
    """Replay ``record`` (see :func:`read_game`) and annotate every action; see the module."""
    rules = rules or standard_rules()
    game = read_game(record, rules)
    if id is None and isinstance(record, dict) and isinstance(record.get("id"), str):
        id = record["id"]
    return analyse_game(game, rules, timeout, total_timeout, max_cards, id)


def positions(game: Game) -> list[Position]:
    """The position before each action of a played-out hand, hand 0 the landlord."""
    landlord = game.landlord
    assert landlord is not None
    order = [(landlord + step) % 3 for step in range(3)]  # position hand -> seat
    hands = list(game.start_of_play)
    last: tuple[int, Play] | None = None
    passes = 0
    found = []
    for seat, play in game.actions:
        found.append(
            Position(
                tuple(hands[s] for s in order),
                order.index(seat),
                None if last is None else last[1],
                None if last is None else order.index(last[0]),
            )
        )
        if play is None:
            passes += 1
            if passes == 2:  # both others passed: the last to play leads
                last, passes = None, 0
        else:
            hands[seat] = hands[seat] - play.cards
            last, passes = (seat, play), 0
    return found


def analyse_game(
    game: Game,
    rules: RuleSet | None = None,
    timeout: float | None = None,
    total_timeout: float | None = None,
    max_cards: int | None = None,
    id: str | None = None,
) -> Analysis:
    """Annotate every action of a played-out ``game``; see the module."""
    rules = rules or game.rules
    name = id if id is not None else game.origin
    if game.phase == "thrown_in":
        return Analysis(name, None, [], game.result(), 0, game)
    if game.phase != "over" or game.landlord is None or game.winner is None:
        raise AnalysisError("the hand is not played out")
    landlord = game.landlord
    before = positions(game)
    verdicts, better = _verdicts(before, rules, timeout, total_timeout, max_cards)
    final = 0 if game.winner == landlord else 1
    after = [*verdicts[1:], final]  # the last action ends the hand: its side won
    actions = []
    for number, ((seat, play), won, lost) in enumerate(zip(game.actions, verdicts, after), 1):
        side = 0 if seat == landlord else 1
        blunder = won == side and lost == 1 - side
        actions.append(
            ActionVerdict(
                number,
                seat,
                side,
                PASS if play is None else str(play),
                won,
                lost,
                blunder,
                better[number - 1] if blunder else None,
            )
        )
    undecided = sum(verdict is None for verdict in verdicts)
    return Analysis(name, landlord, actions, game.result(), undecided, game)


def _verdicts(
    before: Sequence[Position],
    rules: RuleSet,
    timeout: float | None,
    total_timeout: float | None,
    max_cards: int | None,
) -> tuple[list[int | None], list[str | None]]:
    """Each position's winner (None: beyond the budget) and a winning move of its mover."""
    winners: list[int | None] = [None] * len(before)
    moves: list[str | None] = [None] * len(before)
    deadline = None if total_timeout is None else time.monotonic() + total_timeout
    # Last first: the late positions are the small ones, so the hand's budget goes
    # where answers are within reach rather than to the opening's thousands of lines.
    for number in reversed(range(len(before))):
        position = before[number]
        if max_cards is not None and sum(len(hand) for hand in position.hands) > max_cards:
            continue
        limit = timeout
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            limit = left if limit is None else min(limit, left)
        answer = solve(position, rules, time_limit=limit, strategy=False)
        winners[number] = answer.winner
        if answer.winner is not None and answer.moves:
            moves[number] = str(answer.moves[0])
    return winners, moves
