"""How good a hand is to play out: its best split, scored by the control it keeps and the turns it needs.

A hand is played out as a sequence of plays, one per turn that the player
gets the lead. Fewer plays is better (each costs a turn the opponents may
use), and so are high plays (they win tricks back). The score of a split is
the sum of its plays' values less :data:`TURN` for each play; a hand's value
is its best split's score. A play's value is its top rank less ten (a 3 is
worth -10, a king 0, an ace 1, a 2 two, the jokers 3 and 4), one more for
the long kinds that few hands can answer, and much more for a bomb or the
rocket. Kickers add nothing to a play's value, so the best split gives its
triplets its lowest loose cards as kickers, not a pair of aces (the
fewest-plays split alone may take either).

The split is found exactly, memoised on the hand: every split contains a
play holding the hand's lowest card, so only those plays are tried first.

>>> value, split = best_split(Hand.parse("33345AA"))
>>> value, [str(p) for p in split]
(-38.0, ['3334', '5', 'AA'])
"""

from __future__ import annotations

import functools

from cpsolver.rules.cards import TWO, Hand
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Kind, Play
from cpsolver.rules.ruleset import RuleSet

TURN = 7.0  # what one more play in a split costs
_LONG = frozenset(
    {
        Kind.SEQUENCE,
        Kind.PAIR_SEQUENCE,
        Kind.TRIPLET_SEQUENCE,
        Kind.TRIPLET_SEQUENCE_SINGLES,
        Kind.TRIPLET_SEQUENCE_PAIRS,
    }
)


def play_value(play: Play, control: float = 0.0) -> float:
    """What a play is worth in a split (see the module's scale), ``control`` more if a 2 or a joker tops it."""
    if play.kind is Kind.ROCKET:
        return 20.0
    if play.kind is Kind.BOMB:
        return 10.0 + play.rank / 2
    top = play.rank - 10
    bonus = control if play.rank >= TWO else 0.0
    return float(top + 1 if play.kind in _LONG else top) + bonus


def best_split(
    hand: Hand, rules: RuleSet | None = None, control: float = 0.0
) -> tuple[float, tuple[Play, ...]]:
    """The hand's value and the split that scores it; (0, ()) for no cards.

    ``control`` is the extra worth of a play a 2 or a joker tops (see :func:`play_value`).
    """
    return _best(hand, rules, control)


def hand_value(hand: Hand, rules: RuleSet | None = None, control: float = 0.0) -> float:
    """The value of the hand's best split (0 for no cards)."""
    return _best(hand, rules, control)[0]


@functools.lru_cache(maxsize=1 << 18)
def _best(hand: Hand, rules: RuleSet | None, control: float) -> tuple[float, tuple[Play, ...]]:
    if not hand:
        return (0.0, ())
    lowest = next(hand.ranks())
    best: tuple[float, tuple[Play, ...]] | None = None
    for play in generator(rules).plays(hand):
        if not play.cards[lowest]:
            continue
        rest_value, rest = _best(hand - play.cards, rules, control)
        value = rest_value + play_value(play, control) - TURN
        if best is None or value > best[0]:
            best = (value, (play, *rest))
    assert best is not None  # the lowest card alone is a play
    return best
