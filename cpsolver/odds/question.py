"""The odds question: a landlord hand, the cards he cannot see, and how they are split.

Every split of the unseen *physical* cards (suits make the four 9s four
different cards) is equally likely: the first peasant gets ``sizes[0]`` of
them, the second ``sizes[1]``, and any cards left over are the face-down
cards, which the landlord takes (a 17-card hand before the auction). A split
is a spring when the landlord, holding his hand and those cards, can play out
with at most one answerable play (see :mod:`cpsolver.spring`).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from cpsolver.rules.cards import RANK_COUNT, Hand, count_phrase
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet, standard_rules

PRE_AUCTION_SIZE = 17  # a hand before the auction: the face-down cards are still unseen
FACE_DOWN = 3


class OddsError(CpsolverError):
    """A landlord hand, unseen cards or peasant sizes that make no odds question."""


@dataclass(frozen=True)
class OddsQuestion:
    """Who holds what: the landlord's hand, the unseen cards, the peasants' hand sizes."""

    landlord: Hand
    unseen: Hand
    sizes: tuple[int, int]
    rules: RuleSet

    @property
    def face_down(self) -> int:
        """How many unseen cards go to the landlord rather than to a peasant."""
        return len(self.unseen) - sum(self.sizes)

    @property
    def splits(self) -> int:
        """How many equally likely splits of the unseen cards there are.

        >>> question(Hand.parse("3")).splits == comb(53, 26) * comb(27, 27)
        True
        """
        first, second = self.sizes
        total = len(self.unseen)
        return comb(total, first) * comb(total - first, second)


def question(
    landlord: Hand,
    unseen: Hand | None = None,
    sizes: tuple[int, int] | None = None,
    rules: RuleSet | None = None,
) -> OddsQuestion:
    """The odds question for ``landlord``, with the defaults of ``cpsolver odds``.

    ``unseen`` defaults to the rest of the deck; ``sizes`` to 17 and 17 for a
    17-card hand before the auction (the three face-down cards going to the
    landlord) and otherwise to the unseen cards halved (17/17 for 20 cards).

    >>> q = question(Hand.parse("33445566778899TTJJQQ"))
    >>> len(q.unseen), q.sizes, q.face_down
    (34, (17, 17), 0)
    >>> question(Hand.parse("33445566778899TTJ")).face_down
    3
    >>> question(Hand.parse("3333"), Hand.parse("3"))
    Traceback (most recent call last):
    ...
    cpsolver.odds.question.OddsError: the unseen cards and the landlord's hand hold five 3s together
    """
    if not landlord:
        raise OddsError("the landlord's hand is empty")
    rest = Hand.deck() - landlord
    if unseen is None:
        unseen = rest
    elif not unseen <= rest:
        rank = next(r for r in range(RANK_COUNT) if unseen[r] > rest[r])
        together = count_phrase(unseen[rank] + landlord[rank], rank)
        raise OddsError(f"the unseen cards and the landlord's hand hold {together} together")
    if sizes is None:
        if len(landlord) == PRE_AUCTION_SIZE and len(unseen) == 2 * 17 + FACE_DOWN:
            sizes = (17, 17)
        else:
            sizes = ((len(unseen) + 1) // 2, len(unseen) // 2)
    first, second = sizes
    if first < 1 or second < 1:
        raise OddsError(f"each peasant holds at least one card, not {first},{second}")
    if first + second > len(unseen):
        raise OddsError(
            f"peasant sizes {first},{second} need {first + second} cards; "
            f"only {len(unseen)} are unseen"
        )
    return OddsQuestion(landlord, unseen, (first, second), rules or standard_rules())
