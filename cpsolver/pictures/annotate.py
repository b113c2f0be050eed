"""What the pictures point out: who can answer each play, a hand's tricks, what is unseen.

The terminal drawing (:mod:`cpsolver.pictures.terminal`) and the SVG pictures
(:mod:`cpsolver.pictures.svg`) show the same facts; they are computed here once, from
the rules core alone.

>>> from cpsolver.rules.cards import Deal
>>> deal = Deal.parse("KK 3", "AA", "4")
>>> [(n, str(p)) for n, p in first_answers(deal, Play.parse("KK"))]
[(1, 'AA')]
>>> group_ranks(Hand.parse("3 33 4 2 2 R B"))
['333', '4', '22', 'B', 'R']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cpsolver.rules.cards import DECK_COUNTS, Deal, Hand, rank_symbol
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Kind, Play
from cpsolver.rules.ruleset import RuleSet

ROLE_NAMES = ("landlord", "peasant 1", "peasant 2")


def group_ranks(hand: Hand) -> list[str]:
    """The hand's cards as one group a rank, low to high: ``['33', '444', 'B', 'R']``."""
    return [rank_symbol(rank) * count for rank, count in enumerate(hand.counts) if count]


def first_answers(deal: Deal, play: Play, rules: RuleSet | None = None) -> list[tuple[int, Play]]:
    """For each peasant (1 and 2) that can beat ``play``, its lowest answer.

    The lowest ordinary answer is shown before a bomb or the rocket, as a
    player would spend it.
    """
    moves = generator(rules)
    found = []
    for number, hand in enumerate(deal.peasants, 1):
        answers = moves.answers(hand, play)
        if answers:
            power = (Kind.BOMB, Kind.ROCKET)
            found.append((number, min(answers, key=lambda p: (p.kind in power, p.sort_key()))))
    return found


@dataclass(frozen=True)
class Action:
    """One action of a recorded hand: who acted, the play (None: a pass), cards left after."""

    seat: int
    play: Play | None
    left: int


def tricks(start: Sequence[Hand], actions: Sequence[tuple[int, Play | None]]) -> list[list[Action]]:
    """The actions of a hand cut into tricks: a trick ends when two players in a row pass.

    ``start`` is each seat's hand as play began.

    >>> hands = [Hand.parse("33 4"), Hand.parse("55"), Hand.parse("6")]
    >>> [[(a.seat, str(a.play)) for a in t] for t in tricks(hands, [
    ...     (0, Play.parse("33")), (1, Play.parse("55")), (2, None), (0, None), (1, None)])]
    [[(0, '33'), (1, '55'), (2, 'None'), (0, 'None')], [(1, 'None')]]
    """
    left = [len(hand) for hand in start]
    found: list[list[Action]] = []
    passes = 2  # the first action is a lead
    for seat, play in actions:
        if passes == 2:
            found.append([])
            passes = 0
        if play is None:
            passes += 1
        else:
            passes = 0
            left[seat] -= play.size
        found[-1].append(Action(seat, play, left[seat]))
    return found


def hands_after(
    start: Sequence[Hand], actions: Sequence[tuple[int, Play | None]], count: int
) -> list[Hand]:
    """Each seat's hand after the first ``count`` actions."""
    hands = list(start)
    for seat, play in actions[:count]:
        if play is not None:
            hands[seat] = hands[seat] - play.cards
    return hands


def unseen(mine: Hand, played: Sequence[Play | None]) -> Hand:
    """The cards not in ``mine`` and not yet played: what a card counter shows.

    >>> str(unseen(Hand.parse("3333 44 R"), [Play.parse("44"), None]))[:6]
    '555566'
    """
    counts = list(DECK_COUNTS)
    for rank, count in enumerate(mine.counts):
        counts[rank] -= count
    for play in played:
        if play is not None:
            for rank, count in enumerate(play.cards.counts):
                counts[rank] -= count
    return Hand(counts)
