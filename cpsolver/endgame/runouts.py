"""Shortcuts of the open-hand search that settle a position on lead without searching it.

*Runs out*: a hand on lead whose cards split into plays no opponent can
beat, but for one played last, wins: each such play keeps the lead (every
opponent must pass; a partner may), so the opponents never play a card.

*Countered*: a player with no partner on lead (the landlord, or either
player of two) who does not run out loses if every play of its hand that an
opponent can beat, some opponent beats with a play the player cannot beat
(or one that empties the opponent's hand) and then runs out against the
player alone. The opponents' strategy: pass while the player's plays are
unbeatable, and answer the first one that is not so, then run out. Nothing
the player does escapes it. Its hand does not run out, so before it is
empty it makes a play an opponent can beat, and does not go out with it
(a plan of unbeatable plays and then that one would be a run-out). That
play is one of the hand's own plays (a sub-multiset of the hand's cards),
the opponents have played nothing meanwhile, and a play no one can beat
stays unbeaten as the player's hand shrinks, so the answer and the
run-out worked out against the whole hand hold against what is left of
it. (A peasant may not so lead on the landlord's behalf: its partner's
plays in between escape the argument, so only a player alone is asked.)
"""

from __future__ import annotations

from cpsolver.endgame.packed import PASS, Move, PackedRules
from cpsolver.rules.cards import RANK_COUNT
from cpsolver.rules.ruleset import RuleSet

_GUARDS = sum(8 << (4 * r) for r in range(RANK_COUNT))  # bit 3 of every 4-bit field


def _holds(packed_hand: int, packed_play: int) -> bool:
    """Whether the hand holds every card of the play: no field borrows past its guard bit."""
    return ((packed_hand | _GUARDS) - packed_play) & _GUARDS == _GUARDS


class RunOuts(PackedRules):
    """Whether a hand runs out from the lead, and whether a player alone is countered."""

    def __init__(self, rules: RuleSet | None = None) -> None:
        super().__init__(rules)
        self._runs_out: dict[tuple[int, tuple[int, ...]], tuple[Move, ...] | None] = {}
        self._countered: dict[tuple[int, tuple[int, ...]], bool] = {}

    def forget(self) -> None:
        """Empty every cache of hands (plays keep their numbers)."""
        super().forget()
        self._runs_out.clear()
        self._countered.clear()

    def runs_out(self, hand: int, opponents: tuple[int, ...]) -> tuple[Move, ...] | None:
        """Plays that empty ``hand`` from the lead with none but the last answerable, or None.

        Each such play keeps the lead (every opponent must pass; a partner
        may), so the player wins without the opponents ever playing a card.
        """
        key = (hand, opponents)
        if key in self._runs_out:
            return self._runs_out[key]
        packed_of = self.packed_of
        plays = self.plays(hand)
        # Larger plays first: the plan found then looks like play (KK, not K and K).
        safe = sorted((p for p in plays if self._safe(p, opponents)), key=lambda p: -self._size[p])
        coverable = 0
        for play in safe:
            coverable |= packed_of[play]
        # Ranks no safe play holds: the one answerable play, played last, must take them all.
        uncovered = sum(
            0xF << (4 * r)
            for r in range(RANK_COUNT)
            if (hand >> (4 * r)) & 0xF and not (coverable >> (4 * r)) & 0xF
        )
        memo: dict[int, Move | None] = {}
        count = self._card_count(hand, safe)
        could_cover = count.could_cover

        def cover(left: int) -> Move | None:
            """A safe play holding the lowest card of ``left`` that starts a safe split."""
            if left in memo:
                return memo[left]
            memo[left] = None
            if not could_cover(left):
                return None
            lowest = 0xF << (4 * (((left & -left).bit_length() - 1) // 4))
            for play in safe:
                packed = packed_of[play]
                if packed & lowest and _holds(left, packed):
                    rest = left - packed
                    if not rest or cover(rest) is not None:
                        memo[left] = play
                        break
            return memo[left]

        # Where the whole hand fails the count, so does what a last play holding none of the
        # ranks only kickers take leaves: as many such cards, no more to carry them.
        must_take = 0 if could_cover(hand) else count.kicker_only
        found: tuple[Move, ...] | None = None
        if uncovered:
            lasts = [p for p in plays if _holds_all(packed_of[p], hand, uncovered)]
        else:
            lasts = [PASS, *plays]
        for last in lasts:
            taken = packed_of[last] if last != PASS else 0
            if must_take and not taken & must_take:
                continue
            rest = hand - taken
            if rest and cover(rest) is None:
                continue
            steps = []
            while rest:
                step = memo[rest]
                assert step is not None
                steps.append(step)
                rest -= packed_of[step]
            if last != PASS:
                steps.append(last)
            found = tuple(steps)
            break
        self._runs_out[key] = found
        return found

    def countered(self, hand: int, opponents: tuple[int, ...]) -> bool:
        """Whether every play of ``hand`` that an opponent can beat, one beats and then runs out.

        Asked of a player with no partner, on lead, whose hand does not run
        out (:meth:`runs_out`): it then loses (the module's docstring says
        why). An opponent's answer counts where the player cannot beat it,
        or where it is the opponent's whole hand, and the opponent's cards
        left then run out against the player alone.
        """
        key = (hand, opponents)
        found = self._countered.get(key)
        if found is None:
            found = self._countered[key] = all(
                self._answered(hand, play, opponents) for play in self.plays(hand)
            )
        return found

    def _answered(self, hand: int, play: Move, opponents: tuple[int, ...]) -> bool:
        """Whether ``play`` is unbeatable, or an opponent beats it and then runs out."""
        mine = (hand,)
        packed_of = self.packed_of
        beatable = False
        for opponent in opponents:
            if not self.can_answer(opponent, play):
                continue
            beatable = True
            for answer in self.answers(opponent, play):
                cards = packed_of[answer]
                if cards == opponent:
                    return True
                if self._safe(answer, mine) and self.runs_out(opponent - cards, mine) is not None:
                    return True
        return not beatable

    def _card_count(self, hand: int, safe: list[Move]) -> CardCount:
        """What bounds a split of part of ``hand`` into the ``safe`` plays (see CardCount)."""
        count = CardCount()
        cores = 0
        for play in safe:
            shape = self._pattern[play]
            if shape is None or not shape.kicker_size:
                cores |= self.packed_of[play]
                continue
            top, chain = self.play_of[play].rank, self.play_of[play].chain
            for rank in range(top - chain + 1, top + 1):
                cores |= 0xF << (4 * rank)
                count.width[rank] = min(count.width[rank], shape.width)
                count.units[rank] = max(count.units[rank], shape.kickers_per_link)
            count.most_kicker = max(count.most_kicker, shape.kicker_size)
        for rank in range(RANK_COUNT):
            if (hand >> (4 * rank)) & 0xF and not (cores >> (4 * rank)) & 0xF:
                count.kicker_only |= 0xF << (4 * rank)
        return count


class CardCount:
    """A bound on splitting cards into plays no opponent beats, by counting them.

    The cards of a rank that no safe play holds but as a kicker must go in
    kickers, of at most ``most_kicker`` cards each, and each rank holding a
    safe carrier's core ``width`` carries at most ``units`` kickers (a link's).
    :meth:`could_cover` False proves no split; True proves nothing. On full
    deals most of the search for a run-out was such failures: low singles
    with too few trios to carry them.
    """

    __slots__ = ("kicker_only", "most_kicker", "units", "width")

    def __init__(self) -> None:
        self.kicker_only = 0  # the four-bit fields of the ranks only kickers take, as 0xF
        self.most_kicker = 0  # the most cards of one kicker of a safe play (0: none has one)
        self.width = [5] * RANK_COUNT  # by rank: the least core width of a safe carrier there
        self.units = [0] * RANK_COUNT  # by rank: the most kickers a link of such a carrier takes

    def could_cover(self, left: int) -> bool:
        """False where ``left`` cannot split into the safe plays."""
        need = 0
        for rank in range(RANK_COUNT):
            count = (left >> (4 * rank)) & 0xF
            if count and (self.kicker_only >> (4 * rank)) & 0xF:
                if not self.most_kicker:
                    return False
                need += -(-count // self.most_kicker)
        if not need:
            return True
        room = sum(
            units
            for rank, units in enumerate(self.units)
            if units and (left >> (4 * rank)) & 0xF >= self.width[rank]
        )
        return need <= room


def _holds_all(packed_play: int, hand: int, uncovered: int) -> bool:
    """Whether a play takes every card of the ``uncovered`` ranks of ``hand``."""
    return packed_play & uncovered == hand & uncovered
