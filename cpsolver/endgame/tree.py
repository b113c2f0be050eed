"""The game tree of an open-hand position, as every search over it walks it.

A core of the search (:class:`cpsolver.endgame.searchcore.SearchCore`: the Python
one in :mod:`cpsolver.endgame.solver`, the compiled one in
:mod:`cpsolver.endgame.compiled`) answers ``wins`` and ``proves`` and keeps
what it found; this base asks it the questions every solve and every reader of
a finished search asks: which side wins (each side's narrow questions first,
then move by move), the legal moves, where a move leads, which moves win, and
what the search settled.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cpsolver.endgame.budget import MemoryBudget
from cpsolver.endgame.searchcore import (
    NO_TABLE,
    OPEN,
    ORDER_DEFAULT,
    ORDER_LEFT_PASSES,
    PASS,
    PROVEN,
    REFUTED,
    REFUTED_MOST,
    Entry,
    Move,
    OutOfTime,
    OverCap,
    Refuted,
    Row,
    SearchCore,
    State,
    Write,
)
from cpsolver.endgame.shares import OrderRecord, Question, Schedule

__all__ = [
    "NO_TABLE",
    "OPEN",
    "ORDER_DEFAULT",
    "ORDER_LEFT_PASSES",
    "PASS",
    "PROVEN",
    "REFUTED",
    "REFUTED_MOST",
    "SPLIT_PAST",
    "WIDTHS",
    "Entry",
    "Move",
    "OutOfTime",
    "OverBudget",
    "OverCap",
    "Refuted",
    "Row",
    "State",
    "Tree",
    "Write",
]

# The widths :meth:`Tree.decide` asks each side at, in turn; chosen on the 12/10/10 positions
# of ``benchmarks/endgame.py --only mid3`` (``benchmarks/widening.py`` measures them).
WIDTHS = (1, 2, 3, 4, 6)
# Past this width :meth:`Tree.decide` decides a three-player position move by move (see
# ``_split``): on the 12/10/10 positions and full deals of ``benchmarks/endgame.py`` 2 did
# better than 4. Two-player positions are not split: there it made the puzzles and the random
# 14+13 positions slower.
SPLIT_PAST = 2


class OverBudget(Exception):
    """A narrow question ran past the nodes :meth:`Tree.decide` gave it (asked again later)."""


class Tree(SearchCore):
    """What every open-hand search answers, over its core's ``wins``, ``proves`` and table."""

    split_moves: int = 0  # the moves the last decide(split=True) decided one by one (0: none)
    node_limit: int | None = None  # a narrow question's budget: OverBudget at this many nodes
    node_cap: int | None = None  # the whole question's budget: OverCap at this many nodes
    order: int = ORDER_DEFAULT  # the move order of the narrow question being asked
    _clock_reads: int

    def fresh(self, players: int, memory: MemoryBudget) -> Tree:
        """A new search of this core and rules, with a table of its own."""
        raise NotImplementedError

    def _read_clock(self) -> bool:
        """One read of the clock and the memory: OutOfTime past the deadline, else whether
        the memory cap wants the table cut now (every ``memory.every`` reads)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise OverBudget
        if self.node_cap is not None and self.nodes >= self.node_cap:
            raise OverCap
        self._clock_reads += 1
        return self._clock_reads % self.memory.every == 0 and self.memory.must_shrink(
            self.table_size
        )

    def entry(self, state: State) -> Entry:
        """What the table holds for a state, searched again if it was too cheap to keep."""
        return self._searched_entry(state, self.settle)

    def won_entry(self, state: State) -> Entry:
        """:meth:`entry` of a state whose side to move is known to win, searched as
        :meth:`settle_won` does where the table does not hold it."""
        return self._searched_entry(state, self.settle_won)

    def _searched_entry(self, state: State, search: Callable[[State], object]) -> Entry:
        """What the table holds for a state, ``search`` (which keeps every result) asked
        first where it holds nothing (the compiled core's searched_entry)."""
        found = self.lookup(state)
        if found is False:
            search(state)
            found = self.lookup(state)
            assert found is not False, "a settled state is kept"
        return found

    def settled(self, state: State) -> bool | None:
        """Whether the side to move wins at ``state``, if the table holds it (None: not known).

        A player who cannot answer has no node of its own in the search: such a
        state is read from the state after the forced passes.
        """
        found = self.lookup(state)
        if found is not False:
            return found is not None
        through = self.past_forced_passes(state)
        if through == state:
            return None
        mover_wins = self.settled(through)
        if mover_wins is None:
            return None
        return mover_wins == (self.side[through[1]] == self.side[state[1]])

    def past_forced_passes(self, state: State) -> State:
        """The state after every player who cannot answer the table has passed: the next
        player with a choice, the lead at the latest. The search makes no node of a forced
        pass (the compiled core's pass_through, the same rule)."""
        while state[2] != NO_TABLE and not self.answerable(state[0][state[1]], state[2]):
            following = self.successor(state, PASS)
            assert following is not None  # a pass never empties a hand
            state = following
        return state

    def move_winners(self, state: State, search: bool = False) -> dict[Move, int]:
        """Each legal move at ``state`` and the side that wins after it.

        Read off the table; a move whose position the table does not hold is
        left out, or searched with ``search`` (under the deadline and the cap).
        """
        found: dict[Move, int] = {}
        for move in self.legal(state):
            child = self.successor(state, move)
            if child is None:  # the move empties the hand: the mover's side has won
                found[move] = self.side[state[1]]
                continue
            mover_wins = self.settled(child)
            if mover_wins is None:
                if not search:
                    continue
                mover_wins = self.decide(child, split=False)[0]
            mover = self.side[child[1]]
            found[move] = mover if mover_wins else 1 - mover
        return found

    def legal(self, state: State) -> list[Move]:
        """Every legal move of the player to move: any play on lead, else an answer or a pass."""
        hands, turn, table, _ = state
        if table == NO_TABLE:
            return list(self.plays(hands[turn]))
        return [*self.answers(hands[turn], table), PASS]

    def ordered_moves(self, state: State) -> list[Move]:
        """Every legal move, in the order the search tries them: its own estimate of promise.

        Over a partner's play the pass comes first; over an opponent's, last.
        """
        return self._with_pass(state, self.ordered(state[0][state[1]], state[2]))

    def tried_moves(self, state: State) -> list[Move]:
        """The moves the search itself tries at ``state``, in its order: those of
        :meth:`ordered_moves`, less the plays a lower one is worth as much as and
        the needless kickers (a peasant's only where its partner holds no card between)."""
        hands, turn, table, _ = state
        others = [p for p in range(self.players) if p != turn]
        opponents = tuple(hands[p] for p in others if self.side[p] != self.side[turn])
        partner = sum(hands[p] for p in others if self.side[p] == self.side[turn])
        moves = self.ordered(hands[turn], table, self.alone(turn))
        return self._with_pass(
            state, self.unoutranked(moves, hands[turn], opponents, partner, table)
        )

    def lone_play(self, hand: int, move: Move) -> tuple[int, int]:
        """A lone play's rank and cards (:meth:`lone_group`); (-1, 0) for any other move."""
        rank = self.lone_group(hand, move)
        return (rank, (hand >> (4 * rank)) & 0xF) if rank >= 0 else (-1, 0)

    def note_refuted(
        self, mover: int, child: State, rank: int, width: int, refuted: list[Refuted]
    ) -> None:
        """After ``mover``'s lone play (``rank`` -1: another move) lost, leading to ``child``
        (past forced passes): how far its refutation carries, remembered in ``refuted``."""
        if rank < 0 or len(refuted) == REFUTED_MOST:
            return
        above = self.carried_to(child, mover, width)
        if above > rank + 1:
            refuted.append((rank, width, above))

    def alone(self, turn: int) -> bool:
        """Whether the player has no partner (every other player an opponent), and so never
        needs a needlessly high kicker (:mod:`cpsolver.endgame.kickers`)."""
        return sum(side != self.side[turn] for side in self.side) == self.players - 1

    def _with_pass(self, state: State, moves: list[Move]) -> list[Move]:
        """A state's plays or answers with the pass, where there is one, where it is tried."""
        _, turn, table, by = state
        if table == NO_TABLE:
            return moves
        return [PASS, *moves] if self.passes_first(turn, by) else [*moves, PASS]

    def passes_first(self, turn: int, by: int) -> bool:
        """Whether ``turn``, answering the play ``by`` made, tries the pass first (else last).

        Over a partner's play, always. In :data:`ORDER_LEFT_PASSES`, also the
        landlord's next player (player 1) over the landlord's play.
        """
        return self.side[by] == self.side[turn] or (
            self.order == ORDER_LEFT_PASSES and turn == 1 and by == 0 and self.players == 3
        )

    def decide(
        self, state: State, split: bool = True, second_order: bool = True
    ) -> tuple[bool, int | None]:
        """Whether the side to move wins at ``state``, and the width that decided (None: all).

        Widening. The plain search (:meth:`wins`), when a node's first move
        fails, proves that failure in full: the other side's whole winning
        strategy against it, every reply of this side included; on
        three-player positions most of the work goes there. So each side is
        first asked a narrower question (:meth:`proves`): does it win trying
        only its first 1, 2, 3, 4 or 6 moves at each of its nodes, every move
        of the other side answered? A win found so is exact and kept; a node
        where so few moves find none is left open, which costs far less than
        refuting it. What both sides leave open at width 6, the full search
        decides, reading every exact result stored on the way.

        On three players the peasants are asked each question twice, in two
        move orders (:data:`ORDER_LEFT_PASSES`): which order proves a full
        deal fast varies by deal. Which question is asked next, and within how
        many nodes, is :class:`Schedule`'s: each has its share of the nodes
        spent, and one that runs past its budget stops short and is resumed
        later, its open positions kept: the losing side's narrow question of
        a full deal can cost a hundred times the winner's that decides it, and
        asking them in strict turn paid it in full. Over a split's moves the
        peasants' two orders share by their record (:class:`OrderRecord`).

        With ``split``, a three-player position that both sides leave open
        past width ``SPLIT_PAST`` is decided move by move (:meth:`_split`).
        Without ``second_order``, the peasants are asked in the search's order
        alone: so a worker decides a full deal's first moves faster
        (:mod:`cpsolver.scale.split`).
        Raises what the search raises at its limits (out of time, out of memory).
        """
        if split:
            self.split_moves = 0
        return self._decided(state, split, second_order, OrderRecord())

    def _decided(
        self,
        state: State,
        split: bool,
        second_order: bool,
        record: OrderRecord,
    ) -> tuple[bool, int | None]:
        """:meth:`decide`, each peasant order's share of the side's nodes weighted by
        ``record``, which it tells what each order cost and which decided."""
        return self._scheduled(
            state, split, second_order, self.schedule(state, second_order, record)
        )

    def schedule(self, state: State, second_order: bool, record: OrderRecord) -> Schedule:
        """The schedule of a position's narrow questions (see :meth:`decide`)."""
        return Schedule(self.side[state[1]], self.players == 3 and second_order, record, WIDTHS)

    def resume(self, state: State, schedule: Schedule) -> bool:
        """Whether the side to move wins at ``state`` (unsplit), its questions asked over
        ``schedule``, which keeps where each stopped: asked again after :attr:`node_cap`
        stopped it (OverCap), it goes on from there rather than from the start."""
        return self._scheduled(state, False, True, schedule)[0]

    def _scheduled(
        self, state: State, split: bool, second_order: bool, schedule: Schedule
    ) -> tuple[bool, int | None]:
        """:meth:`_decided` over ``schedule``: each side's narrow questions, then the split
        or the full search."""
        mover = self.side[state[1]]
        while (asking := schedule.next()) is not None:
            question, width, budget = asking
            if split and self.players == 3 and width > SPLIT_PAST:
                return self._split(state, second_order)
            before = self.nodes
            try:
                found = self._ask(state, question, width, budget, schedule.stopped_short[question])
            except OverCap:
                schedule.asked(question, self.nodes - before, None)  # resumed where it stopped
                raise
            schedule.asked(question, self.nodes - before, found)
            if found is not None and found != OPEN:
                return (found == PROVEN) == (question[0] == mover), width
            self._ask_alone()
        return self._full(state), None

    def _full(self, state: State) -> bool:
        """The full search of a position whose narrow questions are all asked (:meth:`wins`;
        :class:`cpsolver.endgame.alone.AloneTree` stops it now and then)."""
        return self.wins(*state)

    def _ask_alone(self) -> None:
        """Called after each narrow question of a position: nothing here
        (:class:`cpsolver.endgame.alone.AloneTree` asks its alone questions)."""

    def _ask(
        self,
        state: State,
        question: Question,
        width: int,
        budget: int | None,
        resume: bool,
    ) -> int | None:
        """:meth:`proves` of ``question`` (prover, order) within ``budget`` nodes (None: no
        limit); None where it stopped short."""
        self.node_limit = None if budget is None else self.nodes + budget
        prover, order = question
        try:
            return self.proves(*state, prover, width, resume, order)
        except OverBudget:
            return None
        finally:
            self.node_limit = None

    def _split(self, state: State, second_order: bool = True) -> tuple[bool, int | None]:
        """Decide ``state`` move by move: each position its moves lead to decided apart
        (:meth:`decide`, unsplit), in the search's order, until one wins for the mover.

        Each then finds the narrowest width that decides it, where a question of
        the whole position needs the width of its hardest move for every move.
        The width given is the widest a position needed (None: the full search).
        The state's own entry is then stored by the plain search, which reads
        every move's result back from the table. A player alone does not decide
        a lone play that a lower one's refutation carries to, as the search would
        not try it (:mod:`cpsolver.endgame.carried`): some first moves of a full
        deal are searches of many seconds.
        """
        turn = state[1]
        hand, alone = state[0][turn], self.alone(turn)
        refuted: list[Refuted] = []
        widest: int | None = 0
        record = OrderRecord()  # what each peasant order cost and decided, move after move
        for move in self.tried_moves(state):
            rank, width = self.lone_play(hand, move) if alone else (-1, 0)
            if rank >= 0 and self.carries(hand, refuted, rank, width):
                continue  # it loses as the lower play does; the search below carries it too
            self.split_moves += 1
            child = self.successor(state, move)
            if child is None:
                break
            mover_wins, needed = self._decided(child, False, second_order, record)
            widest = None if needed is None or widest is None else max(widest, needed)
            if mover_wins == (self.side[child[1]] == self.side[turn]):
                break
            self.note_refuted(turn, self.past_forced_passes(child), rank, width, refuted)
        return self.wins(*state), widest

    def winning_moves(self, state: State) -> list[Move]:
        """Every move after which the side to move at ``state`` wins (searched as needed)."""
        side = self.side[state[1]]
        found = []
        for move in self.legal(state):
            child = self.successor(state, move)
            if child is None or self.decide(child, split=False)[0] == (self.side[child[1]] == side):
                found.append(move)
        return found

    def successor(self, state: State, move: Move) -> State | None:
        """The state a move leads to; None when the mover has no cards left."""
        hands, turn, table, by = state
        following = (turn + 1) % self.players
        if move == PASS:
            if following == by:  # everyone else passed: the last player to play leads
                return (hands, following, NO_TABLE, -1)
            return (hands, following, table, by)
        left = hands[turn] - self.cards(move)
        if not left:
            return None
        return (hands[:turn] + (left,) + hands[turn + 1 :], following, move, turn)
