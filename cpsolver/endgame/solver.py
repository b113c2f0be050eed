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
- *countered*: a player with no partner on lead loses where every play it
  could make that the other side can beat, the other side beats and then
  runs out (:mod:`cpsolver.endgame.runouts`);
- *carried refutations*: a player alone does not try a single, pair or
  triplet where the same play of a lower rank was refuted by an answer that
  beats this one too (:mod:`cpsolver.endgame.carried`), nor does a split
  (``Tree._split``) decide such a first move;
- *raised losses*: a player on lead loses where the table holds the loss of
  the same position with one of its lone cards raised to a rank it does not
  hold, a peasant's partner holding no card between; and *raised wins*, the
  converse: a player on lead wins, with the same move, where the table holds
  its win with one of its opponent alone's lone cards raised
  (:mod:`cpsolver.endgame.carried`);
- move ordering: bombs and the rocket last, then the plays that leave the
  fewest plays in hand, the lowest first, so that the winning move is
  usually met first;
- over a partner's play, passing is tried first; over an opponent's, last;
- *forced passes*: a player with no answer to the table passes without a
  node of its own (nothing is chosen there, so nothing is stored);
- ``proves``: one side's win sought among its first few moves at each of its
  nodes, every move of the other side answered (widening: ``Tree.decide``),
  before the full search;
- plays are small ints inside the search (their index in ``play_of``), so
  that the tables hash ints and tuples of ints only.
"""

from __future__ import annotations

import itertools

from cpsolver.endgame.alone import AloneTree
from cpsolver.endgame.answerkeys import AnswerKeys
from cpsolver.endgame.budget import MemoryBudget
from cpsolver.endgame.carried import Carried
from cpsolver.endgame.packed import PackedRules, pack, unpack
from cpsolver.endgame.runouts import RunOuts
from cpsolver.endgame.tree import (
    NO_TABLE,
    OPEN,
    ORDER_DEFAULT,
    ORDER_LEFT_PASSES,
    PASS,
    PROVEN,
    REFUTED,
    WIDTHS,
    Entry,
    Move,
    OutOfTime,
    Refuted,
    State,
    Tree,
)
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet

# Clock reads: every 64 nodes (and every 256 fresh fewest-plays splits, in
# :mod:`cpsolver.endgame.packed`). On 27-card hands ordering alone can take
# seconds before 1,024 nodes are reached; a read costs well under 1% of a node.
_CHECK_EVERY = 64

# A result found in fewer nodes than this (the node itself counted) is not
# kept: found again it costs no more than a look-up, and keeping every one
# would double the table. The compiled core keeps by the same rule (LEAST_KEPT).
_LEAST_KEPT = 3

# The prover of the full search, which asks no narrow question (a side is 0 or 1).
FULL_SEARCH = -1

__all__ = [
    "NO_TABLE",
    "PASS",
    "Entry",
    "Move",
    "OutOfTime",
    "Search",
    "State",
    "pack",
    "state_of",
    "unpack",
]


class Search(AnswerKeys, Carried, RunOuts, AloneTree):
    """The search over one game: its tables outlive one question.

    ``wins(*state)`` answers for the side to move; ``table[state]`` then
    holds the winning move found, or a plan that runs out, or None for a loss
    (unless found in fewer than ``_LEAST_KEPT`` nodes: :meth:`Tree.entry`
    searches such a state again with :meth:`settle`).
    """

    def __init__(
        self,
        players: int,
        rules: RuleSet | None = None,
        deadline: float | None = None,
        memory: MemoryBudget | None = None,
    ) -> None:
        super().__init__(rules)
        self.players = players
        self.deadline = deadline
        self.memory = MemoryBudget(None) if memory is None else memory
        self._clock_reads = 0
        self.nodes = 0
        self.carried = 0
        self.side = [0] + [1] * (players - 1)
        self.table: dict[State, Entry] = {}
        self._opponents = [
            [p for p in range(players) if self.side[p] != self.side[turn]]
            for turn in range(players)
        ]
        self._alone = [self.alone(turn) for turn in range(players)]  # read at every node
        # By question (prover + 2 * order), the states it left open (see :meth:`proves`).
        self._open_nodes: tuple[set[State], ...] = tuple(set() for _ in range(4))
        self._keep_all = False  # settle(): every result kept, however cheap
        self._root: State | None = None  # the key of the state asked about: always kept

    # -- the search ----------------------------------------------------------

    def wins(self, hands: tuple[int, ...], turn: int, table: Move, by: int) -> bool:
        """Whether the side of ``turn`` wins from this state with best play by both sides."""
        state = (hands, turn, table, by)
        self._root = state if table == NO_TABLE else self.key(state)
        return self._wins(state)

    def _wins(self, state: State) -> bool:
        _, turn, table, _ = state
        key = state if table == NO_TABLE else self.key(state)
        entry = self.table.get(key, False)
        if entry is not False:
            return entry is not None
        self._tick()
        before = self.nodes
        moves = self._node_moves(state, key, FULL_SEARCH)
        if moves is None:
            return True
        side = self.side[turn]
        hand, alone = state[0][turn], self._alone[turn]
        refuted: list[Refuted] = []
        for move in moves:
            rank = self.lone_group(hand, move) if alone else -1
            width = self._size[move] if rank >= 0 else 0
            if rank >= 0 and self.carries(hand, refuted, rank, width):
                self.carried += 1  # it loses as a lower play refuted here does (carried.py)
                continue
            child = self.successor(state, move)
            assert child is not None  # a move that empties the hand was taken above
            child = self.past_forced_passes(child)
            won = self._wins(child)
            if won if self.side[child[1]] == side else not won:
                self._keep(key, move, before)
                return True
            self.note_refuted(turn, child, rank, width, refuted)
        self._keep(key, None, before)
        return False

    def settle(self, state: State) -> bool:
        """:meth:`wins`, keeping every result found, however cheap."""
        self._keep_all = True
        try:
            return self.wins(*state)
        finally:
            self._keep_all = False

    def settle_won(self, state: State) -> None:
        """Search a state whose side to move is known to win, narrowest first (the compiled
        core's settle_won, the same steps), every result kept."""
        self._keep_all = True
        try:
            prover, found = self.side[state[1]], OPEN
            for width in WIDTHS:
                found = self.proves(*state, prover, width)
                if found != OPEN:
                    break
            if found != PROVEN:
                self.wins(*state)
        finally:
            self._keep_all = False

    def _keep(self, key: State, entry: Entry, before: int) -> None:
        """Keep a node's result, unless found in fewer than ``_LEAST_KEPT`` nodes since
        ``before`` (its own count); a question's own state is always kept."""
        if self.nodes - before + 1 >= _LEAST_KEPT or self._keep_all or key == self._root:
            self.table[key] = entry

    def proves(
        self,
        hands: tuple[int, ...],
        turn: int,
        table: Move,
        by: int,
        prover: int,
        width: int,
        resume: bool = False,
        order: int = ORDER_DEFAULT,
    ) -> int:
        """Whether side ``prover`` wins trying only its first ``width`` moves at each of its nodes.

        PROVEN or REFUTED (exact, and kept in the table as :meth:`wins` keeps
        them), or OPEN: no win among so few moves, tried in move ``order``.
        See :meth:`Tree.decide`. What the question leaves open holds for it
        alone: it is dropped when the question ends, and kept where it stops
        short (out of time or of its budget) for the call that ``resume``s it.
        """
        if order not in (ORDER_DEFAULT, ORDER_LEFT_PASSES):
            raise ValueError(f"no move order {order}")
        state = (hands, turn, table, by)
        self._root = state if table == NO_TABLE else self.key(state)
        open_nodes = self._open_nodes[prover + 2 * order]
        if not resume:
            open_nodes.clear()
        self.order = order
        try:
            found = self._proves(state, prover, width, open_nodes)
        finally:
            self.order = ORDER_DEFAULT
        open_nodes.clear()
        return found

    def _proves(self, state: State, prover: int, width: int, open_nodes: set[State]) -> int:
        key = state if state[2] == NO_TABLE else self.key(state)
        mine = self.side[state[1]] == prover
        entry = self.table.get(key, False)
        if entry is not False:
            return PROVEN if (entry is not None) == mine else REFUTED
        if key in open_nodes:
            return OPEN
        self._tick()
        before = self.nodes
        moves = self._node_moves(state, key, prover)
        if moves is None:
            return PROVEN if mine else REFUTED
        wanted = PROVEN if mine else REFUTED  # what a child gives when the mover wins by it
        result = REFUTED if mine else PROVEN  # what every move tried so far gives
        tried = moves[:width] if mine else moves
        # The other side's refuted plays carried (carried.py); the prover's own are tried.
        hand, alone = state[0][state[1]], not mine and self._alone[state[1]]
        refuted: list[Refuted] = []
        for move in tried:
            rank = self.lone_group(hand, move) if alone else -1
            group = self._size[move] if rank >= 0 else 0
            if rank >= 0 and self.carries(hand, refuted, rank, group):
                self.carried += 1
                continue
            child = self.successor(state, move)
            if child is None:
                found = wanted
            else:
                child = self.past_forced_passes(child)
                found = self._proves(child, prover, width, open_nodes)
            if found == wanted:
                self._keep(key, move, before)
                return found
            if found == OPEN:
                result = OPEN
                if not mine:  # the other side escapes the proof with this move
                    break
            if child is not None:
                self.note_refuted(state[1], child, rank, group, refuted)
        if result == REFUTED and len(tried) < len(moves):  # moves left untried
            result = OPEN
        if result == OPEN:
            open_nodes.add(key)
        else:
            self._keep(key, None, before)
        return result

    answerable = PackedRules.can_answer  # what Tree.past_forced_passes asks

    def _node_moves(self, state: State, key: State, prover: int) -> list[Move] | None:
        """A node's shortcuts (a win found by one, or read with the opponent's lone card
        raised, is stored: None; a player alone who is countered, or a player who loses
        with a lone card raised, has no move to try: []),
        else its moves in order. ``prover`` is the side a narrow question asks of
        (``FULL_SEARCH``: none).

        The list is a fresh one: the move orderer's, less the plays outranked (kickers.py).
        """
        hands, turn, table, by = state
        hand = hands[turn]
        opponents = tuple([hands[p] for p in self._opponents[turn]])
        partner = 0 if self._alone[turn] else hands[3 - turn]  # the peasants are 1 and 2
        whole = self._whole(hand)
        if table == NO_TABLE:
            if whole >= 0:  # out now
                self._keep(key, whole, self.nodes)
                return None
            plan = self.runs_out(hand, opponents)
            if plan is not None:
                self._keep(key, plan, self.nodes)
                return None
            if self._alone[turn] and self.countered(hand, opponents):
                return []  # no move wins: every play the other side answers, and goes out
            # Asked where every move of the mover must be refuted, or in the full search:
            # where the mover is the prover, such losses are rare and cost their look-ups.
            if self.side[turn] != prover and self.lost_raised(state, partner):
                return []  # lost as the table holds it with a lone card raised (carried.py)
            # The converse where the mover's wins are sought: the other side's hands vary there.
            if prover in (self.side[turn], FULL_SEARCH):
                won = self.won_raised(state)
                if won is not None:  # won as the table holds it with the opponent's card raised
                    self._keep(key, won, self.nodes)
                    return None
            moves = (
                self._alone_moves(hand, table) if self._alone[turn] else self._ordered_plays(hand)
            )
            return self.unoutranked(moves, hand, opponents, partner, table)
        candidates = self.answers(hand, table)
        if whole >= 0 and whole in candidates:  # out now
            self._keep(key, whole, self.nodes)
            return None
        packed_of = self.packed_of
        for play in candidates:  # an answer nobody beats, then out from the lead
            if self._safe(play, opponents) and self.runs_out(hand - packed_of[play], opponents):
                self._keep(key, play, self.nodes)
                return None
        if self._alone[turn]:
            return [
                *self.unoutranked(self._alone_moves(hand, table), hand, opponents, 0, table),
                PASS,
            ]
        answers = self.unoutranked(
            self._ordered_answers(hand, table), hand, opponents, partner, table
        )
        return [PASS, *answers] if self.passes_first(turn, by) else [*answers, PASS]

    def cards(self, move: Move) -> int:
        """The packed cards of a play by its number."""
        return self.packed_of[move]

    def play(self, move: Move) -> Play:
        """The rules core's play of a number."""
        return self.play_of[move]

    def ordered(self, hand: int, table: Move, alone: bool = False) -> list[Move]:
        """The plays (on lead) or the answers to ``table``, in the order the search tries them;
        with ``alone``, less the kickers a player without a partner never needs."""
        if alone:
            return list(self._alone_moves(hand, table))
        if table == NO_TABLE:
            return self._ordered_plays(hand)
        return self._ordered_answers(hand, table)

    def lookup(self, state: State) -> Entry | bool:
        """What the table holds for a state: its entry, or False where nothing is kept."""
        return self.table.get(self.key(state), False)

    def fresh(self, players: int, memory: MemoryBudget) -> Search:
        """A new Python search of the same rules, with a table of its own."""
        return Search(players, self.moves.rules, None, memory)

    def store(self, state: State, move: Move | None, nodes: int) -> None:
        """Keep a result found outside this search (the oldest evicted first, whatever its cost)."""
        self.table[self.key(state)] = move

    @property
    def table_size(self) -> int:
        """How many positions the table holds."""
        return len(self.table)

    @property
    def evictions(self) -> tuple[int, int]:
        """(evictions, entries evicted) so far, at the memory cap."""
        return self.memory.evictions, self.memory.evicted

    @property
    def core(self) -> str:
        """Which core searches: this one is the pure-Python reference."""
        return "python"

    def _tick(self) -> None:
        """Count a node; now and then, give up if past the deadline."""
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0:
            self._check_clock()

    def _check_clock(self) -> None:
        if self._read_clock():
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
        self.forget()
        for open_nodes in self._open_nodes:
            open_nodes.clear()
        self.memory.record(dropped)


def state_of(search: Tree, position: Position) -> State:
    """The packed state of a position: hands, turn, table play index, who made it (-1: none)."""
    table = NO_TABLE if position.table is None else search.index(position.table)
    by = -1 if position.by is None else position.by
    return tuple(pack(h) for h in position.hands), position.turn, table, by
