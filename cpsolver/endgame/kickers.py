"""Kicker choices and plays a player never needs: the search leaves them out.

A play's kickers never change what beats it: beating compares the core. So
of two plays that differ only in kickers, the one that kicks rank ``b`` while
the hand keeps the ranks' lower cards ``a`` is worth no more than the same
play kicking the ``a`` cards and keeping the ``b`` ones, when, after the play:

- the hand holds exactly as many ``a`` cards as the play kicks ``b`` cards,
  no ``b`` card, and the play itself holds no ``a`` card;
- no chain of the rules runs through rank ``a`` in what is left (so the
  ``a`` cards only ever make plays of their own rank, or kickers);
- neither rank is a joker, every core of the rules that holds neither rank
  allows as many kickers of one as of the other, and a core of either rank
  alone carries the same kickers of every other rank (so a triplet of ``b``
  with kickers stands for one of ``a``).

Proof: the player holding the ``b`` cards copies any strategy of the player
holding the ``a`` cards, playing a ``b`` card wherever that one plays an
``a`` card. Every copied play is legal (a single, pair, triplet or bomb of
``b`` where one of ``a`` was; the same core with ``b`` kickers where it had
``a`` ones), beats whatever the original beats, and is beaten by no more
plays. The opponents keep their hands and may only ever have fewer answers.
So every line of the copy ends as well for the player as the original. That
holds for a player whose opponents are everyone else: both players of the
two-player game, the landlord of the three-player one. A peasant's partner
could lose answers too, so a peasant keeps the choice unless its partner
holds no card between the two ranks (below).

The same copy leaves out a play of one rank's core (a single, a pair, a
triplet with or without kickers; no chain, not a bomb) where the same play of
a lower rank ``a``, the same kickers, would do, when the play holds no ``a``
card and leaves the hand exactly as many ``a`` cards as its core and no card
of its own rank, no chain runs through ``a`` in what is left, the ranks are
swappable as above, the lower play beats the table too, and no opponent holds
as many cards as the core of any rank above ``a`` up to the play's own: the
opponents then answer the two plays with the same plays, and from there the
copy above applies, the hand holding the higher cards. A chain
(a sequence of singles, pairs or triplets, no kickers) is left out so for a
lower chain of the same length: each rank of the lower chain that the chain
lacks is matched, upward, with one of the chain's that the lower lacks, and
every such pair must meet the conditions above (exactly as many cards of the
lower rank left as the core takes of a rank, none of the higher, no sequence
through the lower one, swappable); no opponent may hold the same chain with a
top above the lower chain's, up to the chain's own. The copy then plays each
higher rank where the other hand played its lower partner. This
one holds for a peasant too when its partner holds no card of those ranks
(for a chain, none above the lower chain's bottom rank up to the chain's top):
the partner then answers every play of the copy as it answered the original
(nobody's hand gains cards), so it loses no answer. So does the kicker rule:
a peasant leaves out a needless kicker where its partner holds no card above
the lower rank up to the higher.

Left out so, no value is lost: the search still finds a win if there is one,
and a loss it proves covers the moves left out. The dominating play is legal
and, of lower cards, left out only for one of lower cards still, so some play
kept dominates every play left out. The proof checkers know nothing of this:
a strategy read out of the search lists every legal move where it must.
"""

from __future__ import annotations

from collections.abc import Iterator

from cpsolver.rules.cards import BLACK_JOKER, TWO, Rank
from cpsolver.rules.patterns import Kind, Pattern, kicker_limits, patterns
from cpsolver.rules.ruleset import RuleSet


def _count(packed: int, rank: Rank) -> int:
    return (packed >> (4 * rank)) & 0xF


def _holds_between(hand: int, lower: Rank, high: Rank) -> bool:
    """Whether ``hand`` holds a card of a rank above ``lower``, up to ``high``."""
    return any(_count(hand, rank) for rank in range(lower + 1, high + 1))


def _holds_chain(hand: int, width: int, chain: int, top: Rank) -> bool:
    """Whether ``hand`` holds ``width`` cards or more of each of ``chain`` ranks up to ``top``."""
    return all(_count(hand, rank) >= width for rank in range(top - chain + 1, top + 1))


class Kickers:
    """Which plays kick needlessly high ranks, for one rule set (packed hands)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self._patterns = patterns(rules)
        self._chains = [p for p in self._patterns if p.max_chain > 1]
        self._swappable: dict[tuple[Rank, Rank], bool] = {}

    def needless(
        self,
        hand: int,
        packed: int,
        pattern: Pattern | None,
        chain: int,
        top: Rank,
        partner: int = 0,
    ) -> bool:
        """Whether the play (``packed`` cards of ``pattern``, ``chain`` ranks ending at ``top``)
        from ``hand`` kicks some rank that a lower one could stand for (see the module),
        a partner (``partner``'s hand; 0: none) holding no card between the two."""
        if pattern is None or not pattern.kicker_size:
            return False
        low = top - chain + 1
        core = sum(pattern.width << (4 * rank) for rank in range(low, top + 1))
        kickers = packed - core
        rest = hand - packed
        for high in range(1, BLACK_JOKER):
            kicked = _count(kickers, high)
            if not kicked or low <= high <= top or _count(rest, high):
                continue
            for lower in range(high):
                if (
                    _count(rest, lower) == kicked
                    and not _count(packed, lower)
                    and self.swappable(lower, high)
                    and not self._chained(rest, lower, kicked)
                    and not _holds_between(partner, lower, high)
                ):
                    return True
        return False

    def outranked(
        self,
        hand: int,
        packed: int,
        pattern: Pattern | None,
        chain: int,
        top: Rank,
        opponents: tuple[int, ...],
        partner: int,
        lowest: Rank,
    ) -> bool:
        """Whether the play (``packed`` cards of ``pattern``, ``chain`` ranks ending at ``top``)
        from ``hand`` is worth no more than the same play of a lower top, ``lowest`` or
        above (see the module); ``partner`` is the partner's hand (0: none)."""
        if pattern is None or pattern.kind is Kind.BOMB or top >= BLACK_JOKER:
            return False
        if chain > 1 and pattern.kicker_size:
            return False
        width, rest, low = pattern.width, hand - packed, top - chain + 1
        for lower in range(top - 1, max(lowest, chain - 1) - 1, -1):
            bottom = lower - chain + 1
            if _holds_between(partner, bottom, top):
                return False
            if any(_holds_chain(opponent, width, chain, lower + 1) for opponent in opponents):
                return False  # an opponent answers the lower play and not this one
            # The lower play's ranks the play lacks, upward, each matched to one of the
            # play's that the lower lacks: the hand keeping the latter copies the other.
            higher, swaps = max(lower + 1, low), min(top - lower, chain)
            if all(
                _count(rest, a) == width
                and not _count(packed, a)
                and not _count(rest, b)
                and self.swappable(a, b)
                and not self._chained(rest, a, width)
                for a, b in zip(range(bottom, bottom + swaps), range(higher, higher + swaps))
            ):
                return True
        return False

    def swappable(self, a: Rank, b: Rank) -> bool:
        """Whether every core of the rules holding neither rank allows as many kickers of
        each, and a core of one rank alone carries the same kickers of every other rank
        at either (so a core of ``b`` can stand for one of ``a``)."""
        found = self._swappable.get((a, b))
        if found is None:
            found = self._swappable[(a, b)] = all(
                limits[a] == limits[b]
                for pattern in self._patterns
                if pattern.kicker_size
                for chain in range(pattern.min_chain, pattern.max_chain + 1)
                for top in pattern.top_ranks(chain, self.rules.highest_chain_rank)
                if not (top - chain < a <= top or top - chain < b <= top)
                for limits in (kicker_limits(self.rules, pattern, top - chain + 1, top),)
            ) and all(
                at_a[rank] == at_b[rank]
                for pattern in self._patterns
                if pattern.kicker_size and pattern.min_chain == 1
                for at_a, at_b in (
                    (
                        kicker_limits(self.rules, pattern, a, a),
                        kicker_limits(self.rules, pattern, b, b),
                    ),
                )
                for rank in range(len(at_a))
                if rank not in (a, b)
            )
        return found

    def copies(self, rest: int, lower: Rank, higher: Rank, width: int) -> bool:
        """Whether a hand holding ``width`` cards of ``higher`` copies one holding them of
        ``lower`` instead, ``rest`` being the latter, with no card of ``higher`` (the copy
        above: the ranks swappable, no chain through ``lower``)."""
        return self.swappable(lower, higher) and not self._chained(rest, lower, width)

    def raised(self, hand: int, partner: int = 0) -> Iterator[int]:
        """The packed hand with one of its lone cards raised to a rank above it that it does
        not hold, no joker, each where the raised hand copies this one (:meth:`copies`) and
        ``partner`` (0: none) holds no card above the lone card up to the raised one (it could
        beat the one and not the other)."""
        for lower in range(TWO):
            if _count(hand, lower) != 1:
                continue
            for higher in range(lower + 1, TWO + 1):
                if _count(partner, higher):
                    break
                if not _count(hand, higher) and self.copies(hand, lower, higher, 1):
                    yield hand - (1 << (4 * lower)) + (1 << (4 * higher))

    def _chained(self, rest: int, rank: Rank, count: int) -> bool:
        """Whether some chain of the rules with at most ``count`` cards a rank runs through ``rank``."""
        highest = self.rules.highest_chain_rank
        if rank > highest:
            return False
        for pattern in self._chains:
            if pattern.width > count:
                continue
            run = 1
            below = rank - 1
            while below >= 0 and _count(rest, below) >= pattern.width:
                run += 1
                below -= 1
            above = rank + 1
            while above <= highest and _count(rest, above) >= pattern.width:
                run += 1
                above += 1
            if run >= pattern.min_chain:
                return True
        return False


__all__ = ["Kickers"]
