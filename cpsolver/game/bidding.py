"""Spring odds at the auction: the cheap estimate the bots bid with and ``hint`` shows.

The exact odds of a 17-card hand, over the face-down cards as well, take
minutes (``benchmarks/odds.py pre-auction``); at the table there are
milliseconds. So the bots use a small seeded Monte Carlo estimate
(:func:`cpsolver.odds.estimate_odds`), and only for hands that split into few
plays: hands of more plays almost never spring (the table of odds against
fewest plays in docs/odds.md), so they are taken as 0 without sampling. The seed
comes from the hand, so a hand always gets the same figure.
"""

from __future__ import annotations

import zlib
from functools import lru_cache

from cpsolver.io.words import counted
from cpsolver.odds import estimate_odds, question
from cpsolver.rules.cards import Deal, Hand
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.spring.search import solve

BIDDING_SAMPLES = 16  # per bid: about 20 ms of CPU for a 17-card hand
HINT_SAMPLES = 200
MOST_PLAYS_ESTIMATED = 7


def fewest_plays(hand: Hand, rules: RuleSet | None = None) -> int:
    """The fewest plays any split of ``hand`` needs."""
    rest = list((Hand.deck() - hand).ranks())
    deal = Deal(hand, Hand.from_ranks(rest[:1]), Hand.from_ranks(rest[1:2]))
    result = solve(deal, rules, objective="fewest-plays")
    assert result.objective is not None
    return result.objective.value


def spring_odds(hand: Hand, rules: RuleSet | None = None, samples: int = BIDDING_SAMPLES) -> float:
    """The estimated spring odds of ``hand`` as the landlord's, face-down cards included.

    Hands of more than :data:`MOST_PLAYS_ESTIMATED` plays are taken as 0.
    Remembered, so the bot's figure costs nothing when ``simulate`` reports it.

    >>> spring_odds(Hand.parse("3 5 7 9 J K 2 44 66 88 QQ AA"))
    0.0
    """
    return _spring_odds(hand, rules or standard_rules(), samples)


@lru_cache(maxsize=4096)
def _spring_odds(hand: Hand, rules: RuleSet, samples: int) -> float:
    if fewest_plays(hand, rules) > MOST_PLAYS_ESTIMATED:
        return 0.0
    seed = zlib.crc32(str(hand).encode())
    return float(estimate_odds(question(hand, rules=rules), samples, seed).probability)


def odds_bid(odds: float) -> int:
    """The bid the spring odds alone call for: 3 from 10%, 2 from 2%, else none.

    A spring doubles the stake, and a hand with real spring chances wins
    most hands it does not spring.
    """
    return 3 if odds >= 0.10 else 2 if odds >= 0.02 else 0


def odds_hint(hand: Hand, rules: RuleSet | None = None) -> str:
    """The spring odds in words, for ``hint`` at the auction.

    >>> odds_hint(Hand.parse("3 5 7 9 J K 2 44 66 88 QQ AA"))
    'spring odds about 0%: 9 plays at the fewest, too many to play out alone'
    """
    plays = fewest_plays(hand, rules)
    if plays > MOST_PLAYS_ESTIMATED:
        return f"spring odds about 0%: {counted(plays, 'play')} at the fewest, too many to play out alone"
    odds = spring_odds(hand, rules, HINT_SAMPLES)
    return f"spring odds about {odds:.0%} ({HINT_SAMPLES} random deals of the unseen cards)"
