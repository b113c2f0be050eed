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
- move ordering: bombs and the rocket last, then the plays that leave the
  fewest plays in hand, the lowest first, so that the winning move is
  usually met first;
- over a partner's play, passing is tried first; over an opponent's, last.
"""

from __future__ import annotations

import time

from cpsolver.cards import RANK_COUNT, Hand
from cpsolver.movegen import MoveGenerator, generator
from cpsolver.plays import Kind, Play
from cpsolver.position import Position
from cpsolver.rules import RuleSet

_GUARDS = sum(8 << (4 * r) for r in range(RANK_COUNT))  # bit 3 of every 4-bit field
_CHECK_EVERY = 1024  # nodes between clock reads

PASS = "pass"
Move = Play | str  # a play, or PASS
State = tuple[tuple[int, ...], int, Play | None, int]  # packed hands, turn, table, by (-1: none)


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
    """The search over one position's game: its tables outlive one question.

    ``wins(state)`` answers for the side to move; ``best[state]`` then holds
    the winning move found (a play, ``PASS``, or a plan that runs out).
    """

    def __init__(
        self, players: int, rules: RuleSet | None = None, deadline: float | None = None
    ) -> None:
        self.players = players
        self.moves: MoveGenerator = generator(rules)
        self.deadline = deadline
        self.nodes = 0
        self.side = [0] + [1] * (players - 1)
        # The exact table: state -> winning move (or None: the side to move loses).
        self.table: dict[State, Move | list[Play] | None] = {}
        self._plays: dict[int, list[tuple[Play, int]]] = {}
        self._answers: dict[tuple[int, Play], list[tuple[Play, int]]] = {}
        self._answerable: dict[tuple[int, Play], bool] = {}
        self._runs_out: dict[tuple[int, tuple[int, ...]], list[Play] | None] = {}
        self._fewest: dict[int, int] = {}
        self.packed: dict[Play, int] = {}

    # -- the rules core, cached on packed hands ------------------------------

    def plays(self, hand: int) -> list[tuple[Play, int]]:
        """Every play in a packed hand, with its packed cards."""
        found = self._plays.get(hand)
        if found is None:
            found = [(p, self._pack(p)) for p in self.moves.plays(unpack(hand))]
            self._plays[hand] = found
        return found

    def answers(self, hand: int, play: Play) -> list[tuple[Play, int]]:
        """Every play in a packed hand that beats ``play``."""
        key = (hand, play)
        found = self._answers.get(key)
        if found is None:
            found = [(p, self._pack(p)) for p in self.moves.answers(unpack(hand), play)]
            self._answers[key] = found
        return found

    def can_answer(self, hand: int, play: Play) -> bool:
        """Whether a packed hand holds a play that beats ``play``."""
        key = (hand, play)
        found = self._answerable.get(key)
        if found is None:
            found = self._answerable[key] = self.moves.can_answer(unpack(hand), play)
        return found

    def _pack(self, play: Play) -> int:
        packed = self.packed.get(play)
        if packed is None:
            packed = self.packed[play] = pack(play.cards)
        return packed

    # -- bounds and shortcuts ----------------------------------------------

    def fewest(self, hand: int) -> int:
        """The fewest plays that ``hand`` splits into (0 for no cards)."""
        if not hand:
            return 0
        found = self._fewest.get(hand)
        if found is not None:
            return found
        lowest = ((hand & -hand).bit_length() - 1) // 4
        best = 1 << 30
        for play, packed in self.plays(hand):
            if (packed >> (4 * lowest)) & 0xF and _contains(hand, packed):
                best = min(best, 1 + self.fewest(hand - packed))
                if best == 1:
                    break
        self._fewest[hand] = best
        return best

    def runs_out(self, hand: int, opponents: tuple[int, ...]) -> list[Play] | None:
        """Plays that empty ``hand`` from the lead with none but the last answerable, or None.

        Each such play keeps the lead (every opponent must pass; a partner
        may), so the player wins without the opponents ever playing a card.
        """
        key = (hand, opponents)
        if key in self._runs_out:
            return self._runs_out[key]
        plays = self.plays(hand)
        # Larger plays first: the plan found then looks like play (KK, not K and K).
        safe = sorted(
            (
                (play, packed)
                for play, packed in plays
                if not any(self.can_answer(o, play) for o in opponents)
            ),
            key=lambda item: -item[0].size,
        )
        memo: dict[int, tuple[Play, int] | None] = {}

        def cover(left: int) -> tuple[Play, int] | None:
            """A safe play holding the lowest card of ``left`` that starts a safe split."""
            if left in memo:
                return memo[left]
            lowest = 0xF << (4 * (((left & -left).bit_length() - 1) // 4))
            memo[left] = None
            for play, packed in safe:
                if packed & lowest and _contains(left, packed):
                    rest = left - packed
                    if not rest or cover(rest) is not None:
                        memo[left] = (play, packed)
                        break
            return memo[left]

        found: list[Play] | None = None
        # The one answerable play goes last; try it (or none) with a safe split of the rest.
        for last, packed in [(None, 0), *plays]:
            if packed and not _contains(hand, packed):
                continue
            rest = hand - packed
            if rest and cover(rest) is None:
                continue
            found = []
            while rest:
                step = memo[rest]
                assert step is not None
                found.append(step[0])
                rest -= step[1]
            if last is not None:
                found.append(last)
            break
        self._runs_out[key] = found
        return found

    # -- the search ----------------------------------------------------------

    def wins(self, hands: tuple[int, ...], turn: int, table: Play | None, by: int) -> bool:
        """Whether the side of ``turn`` wins from this state with best play by both sides."""
        state = (hands, turn, table, by)
        if state in self.table:
            return self.table[state] is not None
        self._tick()
        hand = hands[turn]
        side = self.side[turn]
        opponents = tuple(hands[p] for p in range(self.players) if self.side[p] != side)
        candidates = self.plays(hand) if table is None else self.answers(hand, table)
        for play, packed in candidates:
            if packed == hand:  # out now
                self.table[state] = play
                return True
        if table is None:
            plan = self.runs_out(hand, opponents)
            if plan is not None:
                self.table[state] = plan
                return True
        for move in self._ordered(candidates, hand, table, by, turn, opponents):
            _, child = self.successor(state, move)
            assert child is not None  # a move that empties the hand was taken above
            won = self.wins(*child)
            if won if self.side[child[1]] == side else not won:
                self.table[state] = move
                return True
        self.table[state] = None
        return False

    def legal(self, state: State) -> list[Move]:
        """Every legal move of the player to move: any play on lead, else an answer or a pass."""
        hands, turn, table, _ = state
        if table is None:
            return [play for play, _ in self.plays(hands[turn])]
        return [play for play, _ in self.answers(hands[turn], table)] + [PASS]

    def successor(self, state: State, move: Move) -> tuple[Move, State | None]:
        """The move and the state it leads to; None when the mover has no cards left."""
        hands, turn, table, by = state
        following = (turn + 1) % self.players
        if move is PASS:
            if following == by:  # everyone else passed: the last player to play leads
                return move, (hands, following, None, -1)
            return move, (hands, following, table, by)
        assert isinstance(move, Play)
        left = hands[turn] - self._pack(move)
        if not left:
            return move, None
        return move, (hands[:turn] + (left,) + hands[turn + 1 :], following, move, turn)

    def _ordered(
        self,
        candidates: list[tuple[Play, int]],
        hand: int,
        table: Play | None,
        by: int,
        turn: int,
        opponents: tuple[int, ...],
    ) -> list[Move]:
        """The moves to try, most promising first."""

        def score(item: tuple[Play, int]) -> tuple[bool, int, int, bool, int]:
            # Measured on the published puzzles: keeping the hand easy to play out,
            # then spending low cards first, cuts the nodes fivefold.
            play, packed = item
            strong = play.kind is Kind.BOMB or play.kind is Kind.ROCKET
            answered = any(self.can_answer(o, play) for o in opponents)
            return (strong, self.fewest(hand - packed), play.rank, answered, -play.size)

        ordered: list[Move] = [play for play, _ in sorted(candidates, key=score)]
        if table is not None:
            # Over a partner's play, passing comes first; over an opponent's, last.
            ordered.insert(0 if self.side[by] == self.side[turn] else len(ordered), PASS)
        return ordered

    def _tick(self) -> None:
        """Count a node; now and then, give up if past the deadline."""
        self.nodes += 1
        if (
            self.deadline is not None
            and self.nodes % _CHECK_EVERY == 0
            and time.perf_counter() > self.deadline
        ):
            raise OutOfTime


def state_of(position: Position) -> State:
    """The packed state of a position: hands, turn, table play, who made it (-1: none)."""
    by = -1 if position.by is None else position.by
    return tuple(pack(h) for h in position.hands), position.turn, position.table, by
