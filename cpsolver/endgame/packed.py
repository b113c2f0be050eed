"""The rules core on packed hands: plays as small ints, every answer and bound cached.

A hand is an int of four bits a rank; a play is its index in ``play_of``.
The open-hand search stands on these caches so that its tables hash ints and
tuples of ints only. Every cache here is recomputed on demand, so
:meth:`PackedRules.forget` may empty them at any time (the memory cap does);
only the numbering of plays stays, because the search's keys are written in it.
"""

from __future__ import annotations

from cpsolver.endgame.kickers import Kickers
from cpsolver.rules.cards import BLACK_JOKER, RANK_COUNT, Hand
from cpsolver.rules.movegen import MoveGenerator, generator
from cpsolver.rules.patterns import Pattern
from cpsolver.rules.plays import Kind, Play
from cpsolver.rules.ruleset import RuleSet

# Work on one hand's fewest-plays splits reads the search's clock every 256
# splits: ordering the plays of a 27-card hand alone can take seconds.
_CHECK_SPLITS_EVERY = 256

PASS = -1
Move = int  # a play's index in PackedRules.play_of, or PASS


def pack(hand: Hand) -> int:
    """A hand as an int, four bits a rank (counts never exceed 4)."""
    return sum(count << (4 * r) for r, count in enumerate(hand.counts))


def unpack(packed: int) -> Hand:
    """The hand of a packed int."""
    return Hand((packed >> (4 * r)) & 0xF for r in range(RANK_COUNT))


class PackedRules:
    """Plays, answers, fewest-plays splits and move orders of packed hands, each worked out once.

    (Run-outs, and whether a player alone is countered, are
    :class:`cpsolver.endgame.runouts.RunOuts`, built on these.)
    """

    def __init__(self, rules: RuleSet | None = None) -> None:
        self.moves: MoveGenerator = generator(rules)
        # Every play met, by index: the play, its packed cards, what ordering reads of it.
        self.play_of: list[Play] = []
        self.packed_of: list[int] = []
        self._index: dict[Play, int] = {}
        self._strong: list[bool] = []
        self._rank: list[int] = []
        self._size: list[int] = []
        self._pattern: list[Pattern | None] = []
        self._kickers = Kickers(self.moves.rules)
        self._plays: dict[int, list[int]] = {}
        self._answers: dict[int, dict[int, list[int]]] = {}
        self._answerable: dict[int, dict[int, bool]] = {}
        self._fewest: dict[int, int] = {}
        self._splits = 0  # fewest-plays splits worked out, for the clock
        self._lead_order: dict[int, list[Move]] = {}
        self._answer_order: dict[int, dict[Move, list[Move]]] = {}
        self._alone_order: dict[tuple[int, Move], list[Move]] = {}
        self._wholes: dict[int, Move] = {}

    def forget(self) -> None:
        """Empty every cache of hands (plays keep their numbers)."""
        for cache in (
            self._plays,
            self._answers,
            self._answerable,
            self._fewest,
            self._lead_order,
            self._answer_order,
            self._alone_order,
            self._wholes,
        ):
            cache.clear()

    def _check_clock(self) -> None:
        """Called now and then from long work on one hand; the search reads its clock here."""

    def index(self, play: Play) -> Move:
        """The index of a play, given on first sight."""
        found = self._index.get(play)
        if found is None:
            found = self._index[play] = len(self.play_of)
            self.play_of.append(play)
            self.packed_of.append(pack(play.cards))
            self._strong.append(play.kind is Kind.BOMB or play.kind is Kind.ROCKET)
            self._rank.append(play.rank)
            self._size.append(play.size)
            self._pattern.append(self.moves.pattern_of(play))
        return found

    def lone_group(self, hand: int, move: Move) -> int:
        """A play of all the hand's cards of one rank and nothing else (a single, pair or
        triplet; no bomb, no joker): its rank, else -1 (:mod:`cpsolver.endgame.carried`)."""
        if move == PASS:
            return -1
        pattern, rank, size = self._pattern[move], self._rank[move], self._size[move]
        if pattern is None or self._strong[move] or self.play_of[move].chain != 1:
            return -1
        if rank >= BLACK_JOKER or size != pattern.width or (hand >> (4 * rank)) & 0xF != size:
            return -1
        return rank

    def plays(self, hand: int) -> list[Move]:
        """Every play in a packed hand."""
        found = self._plays.get(hand)
        if found is None:
            found = self._plays[hand] = [self.index(p) for p in self.moves.plays(unpack(hand))]
        return found

    def answers(self, hand: int, play: Move) -> list[Move]:
        """Every play in a packed hand that beats play ``play``."""
        by_play = self._answers.get(hand)
        if by_play is None:
            by_play = self._answers[hand] = {}
        found = by_play.get(play)
        if found is None:
            beaten = self.play_of[play]
            found = by_play[play] = [
                self.index(p) for p in self.moves.answers(unpack(hand), beaten)
            ]
        return found

    def can_answer(self, hand: int, play: Move) -> bool:
        """Whether a packed hand holds a play that beats play ``play``."""
        by_play = self._answerable.get(hand)
        if by_play is None:
            by_play = self._answerable[hand] = {}
        found = by_play.get(play)
        if found is None:
            found = by_play[play] = self.moves.can_answer(unpack(hand), self.play_of[play])
        return found

    def _safe(self, play: Move, opponents: tuple[int, ...]) -> bool:
        """Whether no opponent can beat the play (nor ever will: hands only shrink)."""
        for opponent in opponents:
            if self.can_answer(opponent, play):
                return False
        return True

    # -- bounds and shortcuts ----------------------------------------------

    def fewest(self, hand: int) -> int:
        """The fewest plays that ``hand`` splits into (0 for no cards)."""
        if not hand:
            return 0
        found = self._fewest.get(hand)
        if found is not None:
            return found
        self._splits += 1
        if self._splits % _CHECK_SPLITS_EVERY == 0:
            self._check_clock()
        lowest = 0xF << (4 * (((hand & -hand).bit_length() - 1) // 4))
        best = 1 << 30
        packed_of = self.packed_of
        for play in self.plays(hand):
            packed = packed_of[play]
            if packed & lowest:
                best = min(best, 1 + self.fewest(hand - packed))
                if best == 1:
                    break
        self._fewest[hand] = best
        return best

    def _ordered_plays(self, hand: int) -> list[Move]:
        """The plays to lead from ``hand``, most promising first."""
        found = self._lead_order.get(hand)
        if found is None:
            found = self._lead_order[hand] = self._ordered(self.plays(hand), hand)
        return found

    def _ordered_answers(self, hand: int, table: Move) -> list[Move]:
        """The answers to ``table`` from ``hand``, most promising first (the pass left out)."""
        by_table = self._answer_order.get(hand)
        if by_table is None:
            by_table = self._answer_order[hand] = {}
        found = by_table.get(table)
        if found is None:
            found = by_table[table] = self._ordered(self.answers(hand, table), hand)
        return found

    def _alone_moves(self, hand: int, table: Move) -> list[Move]:
        """The plays on lead (``table`` -1) or the answers to ``table``, most promising
        first, without those a player with no partner never needs
        (:mod:`cpsolver.endgame.kickers`); the pass left out."""
        found = self._alone_order.get((hand, table))
        if found is None:
            ordered = self._ordered_plays(hand) if table < 0 else self._ordered_answers(hand, table)
            found = self._alone_order[(hand, table)] = self._needed(ordered, hand)
        return found

    def _needed(self, moves: list[Move], hand: int) -> list[Move]:
        needless, packed_of, pattern, play_of = (
            self._kickers.needless,
            self.packed_of,
            self._pattern,
            self.play_of,
        )
        return [
            m
            for m in moves
            if not needless(hand, packed_of[m], pattern[m], play_of[m].chain, play_of[m].rank)
        ]

    def unoutranked(
        self, moves: list[Move], hand: int, opponents: tuple[int, ...], partner: int, table: Move
    ) -> list[Move]:
        """``moves`` (no pass) less the plays of one rank's cards that the same play of a
        lower rank is worth as much as and, for a peasant (``partner`` not 0; a player
        alone has them left out already), the needless kickers
        (:mod:`cpsolver.endgame.kickers`)."""
        lowest = 0 if table < 0 else self._rank[table] + 1
        outranked, needless, packed_of, pattern, play_of = (
            self._kickers.outranked,
            self._kickers.needless,
            self.packed_of,
            self._pattern,
            self.play_of,
        )
        kept = []
        for m in moves:
            packed, shape, play = packed_of[m], pattern[m], play_of[m]
            if outranked(hand, packed, shape, play.chain, play.rank, opponents, partner, lowest):
                continue
            if partner and needless(hand, packed, shape, play.chain, play.rank, partner):
                continue
            kept.append(m)
        return kept

    def _ordered(self, candidates: list[Move], hand: int) -> list[Move]:
        # Measured on the published puzzles: keeping the hand easy to play out,
        # then spending low cards first, cuts the nodes fivefold.
        strong, rank, size, packed_of, fewest = (
            self._strong,
            self._rank,
            self._size,
            self.packed_of,
            self.fewest,
        )
        return sorted(
            candidates, key=lambda p: (strong[p], fewest(hand - packed_of[p]), rank[p], -size[p])
        )

    def _whole(self, hand: int) -> Move:
        """The play that is the whole of ``hand``, or -1 if the hand is no one play."""
        found = self._wholes.get(hand)
        if found is None:
            found = next((p for p in self.plays(hand) if self.packed_of[p] == hand), -1)
            self._wholes[hand] = found
        return found
