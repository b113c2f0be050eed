"""A peasant alone: the two-player question that settles a three-player position at once.

Where one peasant always passes, the three-player game is the two-player game
of the landlord against the other peasant, trick for trick: the passive
peasant never plays, so it never leads; after the landlord's play, a pass of
the active peasant and of the passive one gives the landlord the lead, as
the active peasant's pass alone would in the two-player game; after the
active peasant's play, the passive one's pass leaves the landlord to answer
it, and the landlord's pass then gives the active peasant the lead, as in
the two-player game. So where the active peasant beats the landlord in that
game, the peasants beat it in this one, the passive peasant passing
throughout: a peasants' win found so is exact. A landlord's win there says
nothing (the passive peasant could have helped), so only the peasants' wins
settle anything.

The state maps so wherever the play on the table is not the passive
peasant's; where the passive peasant is to move, it passes first. On full
deals the question is cheap where the landlord wins it (most of them), and
decides some deals the three-player search leaves undecided within a minute:
the question of the whole deal took 4.6 million two-player nodes on the
speed page's deal #2 and 11.7 million on #93, where the three-player search
had not decided either in 60 s.

:class:`AloneTree`, the tree both cores search on, asks each position it
decides these questions (:class:`AloneQuestions`: a share of the nodes it
spends there). :class:`AloneQuestion` asks one a budget of nodes at a time,
its two-player search resuming where it stopped; :meth:`AloneQuestion.absorb`
writes the two-player strategy into the three-player table, so that reading
the three-player strategy out (a line, a proof) finds every peasant's move
there rather than searching for it.
"""

from __future__ import annotations

import time

from cpsolver.endgame.budget import MemoryBudget, OutOfMemory
from cpsolver.endgame.searchcore import NO_TABLE, PASS, Move, OutOfTime, OverCap, State
from cpsolver.endgame.shares import OrderRecord, Schedule
from cpsolver.endgame.tree import OverBudget, Tree

# The two peasants' questions may cost this many two-player nodes, between them, for each node
# the three-player search spends on the position they are asked of (the split's moves included):
# a quarter left the speed page's deal #93 undecided within its minute (a probe).
ALONE_SHARE = 0.5
# How many states :meth:`AloneQuestion.absorb` writes between two reads of the clock.
CLOCK_EVERY = 4096
# A question is asked once its share comes to so many nodes, and no sooner: a position
# decided in fewer is not worth the two-player search.
LEAST_STEP = 10_000


class AloneQuestion:
    """Whether the peasants win at a three-player ``state`` with ``peasant`` alone playing,
    its partner always passing: a two-player search of the landlord against it."""

    def __init__(self, tree: AloneTree, state: State, peasant: int) -> None:
        self.tree = tree
        self.state = state
        self.peasant = peasant
        self.passive = 3 - peasant
        self.spent = 0  # two-player nodes searched so far
        self.answer: bool | None = None  # True: the peasants win; False: nothing learnt
        self.duo: Tree | None = None  # the two-player search, made when first asked
        self.start: State  # its state, and the schedule of its narrow questions, made so too
        self.schedule: Schedule
        self._to_duo: dict[Move, Move] = {}  # plays' numbers in the two searches
        self._to_tree: dict[Move, Move] = {}

    @classmethod
    def of(cls, tree: AloneTree, state: State) -> list[AloneQuestion]:
        """The questions of a three-player ``state`` (none on two players): one for each
        peasant whose partner neither made the play on the table nor is on lead."""
        if tree.players != 3:
            return []
        _, turn, table, by = state
        return [
            cls(tree, state, peasant)
            for peasant in (1, 2)
            if by != 3 - peasant and not (turn == 3 - peasant and table == NO_TABLE)
        ]

    def _past_passive(self, state: State) -> State:
        """The state after the passive peasant's pass, where it is to move."""
        if state[1] != self.passive:
            return state
        following = self.tree.successor(state, PASS)
        assert following is not None  # a pass never empties a hand
        return following

    def two_player(self, state: State) -> State:
        """The two-player state of a three-player one where the passive peasant is not to
        move and made no play on the table: the landlord hand 0, the active peasant hand 1."""
        hands, turn, table, by = state
        if table != NO_TABLE:
            table = self._translated(table, self.tree, self.duo, self._to_duo)
        return (hands[0], hands[self.peasant]), min(turn, 1), table, min(by, 1)

    @staticmethod
    def _translated(move: Move, source: Tree, target: Tree | None, known: dict[Move, Move]) -> Move:
        """A play's number in ``target`` (each search numbers plays its own way)."""
        found = known.get(move)
        if found is None:
            assert target is not None
            found = known[move] = target.index(source.play(move))
        return found

    def ask(self, budget: int) -> bool | None:
        """Search ``budget`` nodes more: True where the peasants win (the state's result then
        kept in the tree's table), False where the landlord wins the two-player game or its
        search reached its memory cap, None where the budget ran out first."""
        assert self.answer is None
        if self.duo is None:
            # Its cap is counted in its own table's entries: the process's gauge would count the
            # three-player search's growth against it too.
            self.duo = self.tree.fresh(2, MemoryBudget(self.tree.memory.cap, _unknown))
            self.start = self.two_player(self._past_passive(self.state))
            self.schedule = self.duo.schedule(self.start, False, OrderRecord())
        duo = self.duo
        before = duo.nodes
        duo.deadline = self.tree.deadline
        duo.node_cap = before + budget
        try:
            mover_wins = duo.resume(self.start, self.schedule)
        except OverCap:
            return None
        except OutOfMemory:
            mover_wins = self.start[1] == 0  # given up: nothing learnt
        finally:
            duo.node_cap = None
            self.spent += duo.nodes - before
        self.answer = mover_wins == (self.start[1] == 1)
        if self.answer:
            self.tree.store(self.state, self._move(self.state), self.spent)
        else:
            self.duo = None  # its table says nothing more
        return self.answer

    def _move(self, state: State) -> Move | None:
        """The peasants' winning move at a state of the strategy they win alone (None at the
        landlord's, which it loses): the passive peasant passes; the active one plays its
        two-player winning move (a plan's first play)."""
        turn = state[1]
        if turn == 0:
            return None
        if turn == self.passive:
            return PASS
        assert self.duo is not None
        entry = self.duo.won_entry(self.two_player(state))
        move = entry[0] if isinstance(entry, tuple) else entry
        assert move is not None, "the active peasant wins here"
        return move if move == PASS else self._translated(move, self.duo, self.tree, self._to_tree)

    def absorb(self) -> int:
        """Write the peasants' strategy into the tree's table: at each of its states, the
        peasant to move's winning move (searched by the two-player search where its table
        lacks it), and the landlord's loss, every landlord reply followed, as a proof
        answers each; a state the table held already is not walked again. Returns the
        states written. The tree's deadline holds (OutOfTime), and the two-player search
        keeps its memory rule."""
        tree, duo = self.tree, self.duo
        assert duo is not None and self.answer
        duo.deadline = tree.deadline
        duo.memory.may_stop = tree.memory.may_stop
        written = 0
        stack = [child for child in self._children(self.state) if child is not None]
        while stack:
            state = tree.past_forced_passes(stack.pop())
            if tree.lookup(state) is not False:
                continue
            move = self._move(state)
            tree.store(state, move, 3)
            written += 1
            deadline = tree.deadline
            if (
                written % CLOCK_EVERY == 0
                and deadline is not None
                and time.perf_counter() > deadline
            ):
                raise OutOfTime
            stack.extend(child for child in self._children(state, move) if child is not None)
        self.duo = None
        return written

    def _children(self, state: State, move: Move | None = None) -> list[State | None]:
        """Where the strategy goes from ``state``: the peasants' ``move`` (their move there if
        not given), or every landlord reply."""
        if state[1] != 0 and move is None:
            move = self._move(state)
        moves = self.tree.legal(state) if move is None else [move]
        return [self.tree.successor(state, each) for each in moves]


class AloneQuestions:
    """The alone questions of the position :meth:`Tree.decide` is deciding (``state``),
    asked their share of the nodes spent on it since it began: :data:`ALONE_SHARE`, shared
    equally by those still open, a piece at a time."""

    def __init__(self, tree: AloneTree, state: State) -> None:
        self.tree = tree
        self.open = AloneQuestion.of(tree, state)
        self.started = tree.nodes
        self.spent = 0  # the two-player nodes its questions searched

    def ask(self) -> bool:
        """Ask each open question its share: True where one wins (the tree then counts it
        and, where it reads strategies, keeps it to read its strategy out)."""
        tree = self.tree
        if not self.open:
            return False
        budget = (int(ALONE_SHARE * (tree.nodes - self.started)) - self.spent) // len(self.open)
        if budget < LEAST_STEP:
            return False
        for question in list(self.open):
            before = question.spent
            found = question.ask(budget)
            self.spent += question.spent - before
            tree.alone_nodes += question.spent - before
            if found is None:
                continue
            self.open.remove(question)
            if found:
                tree.alone_settled += 1
                if tree.reads_alone:
                    tree.alone_won = (*tree.alone_won, question)
                return True
        return False


class AloneWon(Exception):
    """A peasant alone won the position being decided: its search, and that of whatever
    below it was being decided, ends."""


class AloneTree(Tree):
    """A :class:`Tree` that asks, of each three-player position it decides, whether a peasant
    alone wins (the base of both cores' searches)."""

    reads_alone: bool = True  # whether the alone strategies found are kept to read them out
    alone_settled: int = 0  # the positions a peasant alone settled
    alone_nodes: int = 0  # the two-player nodes their questions searched
    alone_won: tuple[AloneQuestion, ...] = ()  # the questions won, their strategies unread
    _alone_questions: AloneQuestions | None = None  # those of the position being decided

    def decide(
        self, state: State, split: bool = True, second_order: bool = True
    ) -> tuple[bool, int | None]:
        """:meth:`Tree.decide`, each peasant asked besides whether it beats the landlord
        alone, its partner always passing: a two-player search (:class:`AloneQuestion`),
        resumed between the narrow questions and at every doubling of the full search's
        nodes, the two sharing :data:`ALONE_SHARE` of the nodes spent on ``state`` (the
        split's moves included). Where one does, the peasants win (width 0)."""
        outer, self._alone_questions = self._alone_questions, AloneQuestions(self, state)
        try:
            return super().decide(state, split, second_order)
        except AloneWon:
            return self.side[state[1]] == 1, 0
        finally:
            self._alone_questions = outer

    def _full(self, state: State) -> bool:
        """:meth:`wins`, stopped at every doubling of its nodes while alone questions are
        open, to ask them their share (the search resumes from what its table kept)."""
        step = LEAST_STEP
        while self._alone_questions is not None and self._alone_questions.open:
            self.node_limit = self.nodes + step
            try:
                return self.wins(*state)
            except OverBudget:
                pass
            finally:
                self.node_limit = None
            self._ask_alone()
            step *= 2
        return self.wins(*state)

    def _ask_alone(self) -> None:
        """Ask the position's open alone questions their share; AloneWon where one wins."""
        if self._alone_questions is not None and self._alone_questions.ask():
            raise AloneWon

    def absorb_alone(self) -> int:
        """Write the strategies of the positions a peasant alone won into the table, for a
        strategy read out of it (:meth:`AloneQuestion.absorb`); the states written."""
        written = sum(question.absorb() for question in self.alone_won)
        self.alone_won = ()
        return written


def _unknown() -> None:
    """A memory gauge that reads nothing: the cap is then kept in table entries."""
