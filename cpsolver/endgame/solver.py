"""Who wins an open-hand position with best play: an AND/OR search with an exact table.

Both sides are searched as one boolean question, "does the side to move
win?", with every position met stored under its exact state (the packed
hands, the player to move, the play to beat and who made it) — never a hash
alone, so no collision can flip a verdict. The game cannot cycle: every trick
takes at least one card, so the positions form a DAG and a plain memo is sound.

What makes it fast:

- *out now*: a player whose whole hand is one legal play wins at once;
- *runs out*: a player on lead whose hand splits into plays that no opponent
  can answer, but for one played last, wins without further search (the
  spring question, with "neither opponent" in place of "neither peasant");
  a player who can answer with a play no opponent can beat, and then runs
  out, wins too;
- move ordering: bombs and the rocket last, then the plays that leave the
  fewest plays in hand, the lowest first, so that the winning move is
  usually met first;
- over a partner's play, passing is tried first; over an opponent's, last;
- plays are small ints inside the search (their index in ``play_of``), so
  that the tables hash ints and tuples of ints only.
"""

from __future__ import annotations

import itertools
import time

from cpsolver.endgame.budget import MemoryBudget
from cpsolver.rules.cards import RANK_COUNT, Hand
from cpsolver.rules.movegen import MoveGenerator, generator
from cpsolver.rules.plays import Kind, Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet

_GUARDS = sum(8 << (4 * r) for r in range(RANK_COUNT))  # bit 3 of every 4-bit field
# Clock reads: every 64 nodes, and every 256 hands whose fewest-plays split is
# worked out afresh. On 27-card hands ordering alone can take seconds before
# 1,024 nodes are reached; a read costs well under 1% of a node.
_CHECK_EVERY = 64
_CHECK_SPLITS_EVERY = 256

PASS = -1
NO_TABLE = -1
Move = int  # a play's index in Search.play_of, or PASS
State = tuple[tuple[int, ...], int, int, int]  # packed hands, turn, table play (or NO_TABLE), by
Entry = Move | tuple[Move, ...] | None  # the winning move, a plan that runs out, or None: a loss


def pack(hand: Hand) -> int:
    """A hand as an int, four bits a rank (counts never exceed 4)."""
    return sum(count << (4 * r) for r, count in enumerate(hand.counts))


def unpack(packed: int) -> Hand:
    """The hand of a packed int."""
    return Hand((packed >> (4 * r)) & 0xF for r in range(RANK_COUNT))


def _contains(packed_hand: int, packed_play: int) -> bool:
    """Whether the hand holds every card of the play: no field borrows past its guard bit."""
    return ((packed_hand | _GUARDS) - packed_play) & _GUARDS == _GUARDS


class OutOfTime(Exception):
    """The deadline passed before the search finished."""


class Search:
    """The search over one game: its tables outlive one question.

    ``wins(*state)`` answers for the side to move; ``table[state]`` then
    holds the winning move found, or a plan that runs out, or None for a loss.
    """

    def __init__(
        self,
        players: int,
        rules: RuleSet | None = None,
        deadline: float | None = None,
        memory: MemoryBudget | None = None,
    ) -> None:
        self.players = players
        self.moves: MoveGenerator = generator(rules)
        self.deadline = deadline
        self.memory = MemoryBudget(None) if memory is None else memory
        self._clock_reads = 0
        self.nodes = 0
        self.side = [0] + [1] * (players - 1)
        self.table: dict[State, Entry] = {}
        # Every play met, by index: the play, its packed cards, what ordering reads of it.
        self.play_of: list[Play] = []
        self.packed_of: list[int] = []
        self._index: dict[Play, int] = {}
        self._strong: list[bool] = []
        self._rank: list[int] = []
        self._size: list[int] = []
        self._plays: dict[int, list[int]] = {}
        self._answers: dict[int, dict[int, list[int]]] = {}
        self._answerable: dict[int, dict[int, bool]] = {}
        self._runs_out: dict[tuple[int, tuple[int, ...]], tuple[Move, ...] | None] = {}
        self._fewest: dict[int, int] = {}
        self._splits = 0  # fewest-plays splits worked out, for the clock
        self._classes: dict[tuple[Move, ...], int] = {}
        self._lead_order: dict[int, list[Move]] = {}
        self._answer_order: dict[int, dict[Move, list[Move]]] = {}
        self._wholes: dict[int, Move] = {}
        self._opponents = [
            [p for p in range(players) if self.side[p] != self.side[turn]]
            for turn in range(players)
        ]
        self._class_of: dict[int, dict[Move, int]] = {}

    # -- the rules core, cached on packed hands and play indices ------------

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
        return found

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

        def cover(left: int) -> Move | None:
            """A safe play holding the lowest card of ``left`` that starts a safe split."""
            if left in memo:
                return memo[left]
            lowest = 0xF << (4 * (((left & -left).bit_length() - 1) // 4))
            memo[left] = None
            for play in safe:
                packed = packed_of[play]
                if packed & lowest and _contains(left, packed):
                    rest = left - packed
                    if not rest or cover(rest) is not None:
                        memo[left] = play
                        break
            return memo[left]

        found: tuple[Move, ...] | None = None
        if uncovered:
            lasts = [p for p in plays if _holds_all(packed_of[p], hand, uncovered)]
        else:
            lasts = [PASS, *plays]
        for last in lasts:
            rest = hand - (packed_of[last] if last != PASS else 0)
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

    # -- the search ----------------------------------------------------------

    def wins(self, hands: tuple[int, ...], turn: int, table: Move, by: int) -> bool:
        """Whether the side of ``turn`` wins from this state with best play by both sides."""
        state = (hands, turn, table, by)
        key = state if table == NO_TABLE else self.key(state)
        entry = self.table.get(key, False)
        if entry is not False:
            return entry is not None
        self._tick()
        hand = hands[turn]
        side = self.side[turn]
        opponents = tuple([hands[p] for p in self._opponents[turn]])
        whole = self._whole(hand)
        if table == NO_TABLE:
            if whole >= 0:  # out now
                self.table[key] = whole
                return True
            plan = self.runs_out(hand, opponents)
            if plan is not None:
                self.table[key] = plan
                return True
            moves = self._ordered_plays(hand)
        else:
            candidates = self.answers(hand, table)
            if whole >= 0 and whole in candidates:  # out now
                self.table[key] = whole
                return True
            packed_of = self.packed_of
            for play in candidates:  # an answer nobody beats, then out from the lead
                if self._safe(play, opponents) and self.runs_out(hand - packed_of[play], opponents):
                    self.table[key] = play
                    return True
            moves = self._ordered_answers(hand, table, self.side[by] == side)
        for move in moves:
            child = self.successor(state, move)
            assert child is not None  # a move that empties the hand was taken above
            won = self.wins(*child)
            if won if self.side[child[1]] == side else not won:
                self.table[key] = move
                return True
        self.table[key] = None
        return False

    def key(self, state: State) -> State:
        """The table's key for a state: the play to beat stands for what it lets be played.

        Two plays on the table that leave every player still to answer in
        the trick the same answers give the same game from here (the next
        table is then the answer itself, or the trick ends), so they share a
        key: the index of that tuple of answer sets, negated (below NO_TABLE).
        """
        hands, turn, table, by = state
        if table == NO_TABLE:
            return state
        found = self._class(hands[turn], table)
        following = (turn + 1) % self.players
        if following != by:  # in the three-player game, the next player answers it too
            found = found * 65536 + self._class(hands[following], table)
        return (hands, turn, -2 - found, by)

    def _class(self, hand: int, table: Move) -> int:
        """The number of the set of answers ``hand`` has to play ``table``."""
        by_table = self._class_of.get(hand)
        if by_table is None:
            by_table = self._class_of[hand] = {}
        found = by_table.get(table)
        if found is None:
            answers = tuple(self.answers(hand, table))
            found = self._classes.get(answers)
            if found is None:
                found = self._classes[answers] = len(self._classes)
            by_table[table] = found
        return found

    def entry(self, state: State) -> Entry:
        """What the table holds for a state that has been searched."""
        return self.table[self.key(state)]

    def legal(self, state: State) -> list[Move]:
        """Every legal move of the player to move: any play on lead, else an answer or a pass."""
        hands, turn, table, _ = state
        if table == NO_TABLE:
            return list(self.plays(hands[turn]))
        return [*self.answers(hands[turn], table), PASS]

    def successor(self, state: State, move: Move) -> State | None:
        """The state a move leads to; None when the mover has no cards left."""
        hands, turn, table, by = state
        following = (turn + 1) % self.players
        if move == PASS:
            if following == by:  # everyone else passed: the last player to play leads
                return (hands, following, NO_TABLE, -1)
            return (hands, following, table, by)
        left = hands[turn] - self.packed_of[move]
        if not left:
            return None
        return (hands[:turn] + (left,) + hands[turn + 1 :], following, move, turn)

    def _ordered_plays(self, hand: int) -> list[Move]:
        """The plays to lead from ``hand``, most promising first."""
        found = self._lead_order.get(hand)
        if found is None:
            found = self._lead_order[hand] = self._ordered(self.plays(hand), hand)
        return found

    def _ordered_answers(self, hand: int, table: Move, partner: bool) -> list[Move]:
        """The answers to ``table`` from ``hand`` and the pass, most promising first.

        Over a partner's play (``partner``), passing comes first; over an
        opponent's, last.
        """
        by_table = self._answer_order.get(hand)
        if by_table is None:
            by_table = self._answer_order[hand] = {}
        found = by_table.get(table)
        if found is None:
            found = by_table[table] = self._ordered(self.answers(hand, table), hand)
        return [PASS, *found] if partner else [*found, PASS]

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

    def _tick(self) -> None:
        """Count a node; now and then, give up if past the deadline."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            self._check_clock()

    def _check_clock(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        self._clock_reads += 1
        if self._clock_reads % self.memory.every == 0 and self.memory.must_shrink(len(self.table)):
            self._evict()

    def _evict(self) -> None:
        """Cut the table to the budget's keep, oldest entries first, and empty the caches.

        Every cache here is recomputed on demand, so emptying them is sound;
        only the numbering of plays and of answer sets stays, because the
        table's keys are written in it.
        """
        table = self.table
        dropped = max(0, len(table) - self.memory.keep())
        for key in list(itertools.islice(table, dropped)):
            del table[key]
        for cache in (
            self._plays,
            self._answers,
            self._answerable,
            self._runs_out,
            self._fewest,
            self._lead_order,
            self._answer_order,
            self._wholes,
            self._class_of,
        ):
            cache.clear()
        self.memory.record(dropped)


def _holds_all(packed_play: int, hand: int, uncovered: int) -> bool:
    """Whether a play takes every card of the ``uncovered`` ranks of ``hand``."""
    return packed_play & uncovered == hand & uncovered


def state_of(search: Search, position: Position) -> State:
    """The packed state of a position: hands, turn, table play index, who made it (-1: none)."""
    table = NO_TABLE if position.table is None else search.index(position.table)
    by = -1 if position.by is None else position.by
    return tuple(pack(h) for h in position.hands), position.turn, table, by
