"""What each core of the open-hand search answers itself: the Python search
(:mod:`cpsolver.endgame.solver`) and the compiled one (:mod:`cpsolver.endgame.compiled`).

States are ``(packed hands, turn, table play or NO_TABLE, by)``; moves are a
play's number or PASS. A core numbers plays, lists them, searches (``wins``,
``proves``), keeps what it found in its table and reads it back, and asks the
steps of the rule of refutations carried (:mod:`cpsolver.endgame.carried`).
:class:`cpsolver.endgame.tree.Tree` asks every further question over these.
"""

from __future__ import annotations

from collections.abc import Callable

from cpsolver.endgame.budget import MemoryBudget
from cpsolver.rules.plays import Play

NO_TABLE = -1
PASS = -1
# What :meth:`SearchCore.proves` finds: the prover wins, it loses whatever it does, or no win
# among the moves it was allowed.
REFUTED, PROVEN, OPEN = 0, 1, 2
# The move orders a narrow question may try a node's moves in (:meth:`Tree.passes_first`). In
# the second, the landlord's next player passes first over the landlord's play, leaving it to
# its partner (:data:`cpsolver.endgame.shares.SECOND_ORDER_SHARE`).
ORDER_DEFAULT, ORDER_LEFT_PASSES = 0, 1
Move = int  # a play's number, or PASS
State = tuple[tuple[int, ...], int, int, int]  # packed hands, turn, table play (or NO_TABLE), by
# A refuted lone play (:mod:`cpsolver.endgame.carried`): its rank and width, and the rank below
# which its answer beats such plays.
Refuted = tuple[int, int, int]
REFUTED_MOST = 16  # refutations remembered at a node (the compiled core's REFUTED_MOST)
Entry = Move | tuple[Move, ...] | None  # the winning move, a plan that runs out, or None: a loss
# A strategy's node as a proof lists it: its state, its plan (or ()), and its edges as
# (move, the child's row, or None where the move empties the mover's hand).
Row = tuple[State, tuple[Move, ...], tuple[tuple[Move, int | None], ...]]
Write = Callable[[str], object]  # where a proof's text goes, a piece at a time


class OutOfTime(Exception):
    """The deadline passed before the search finished."""


class OverCap(Exception):
    """A search ran past the nodes its caller allowed the whole question (:attr:`node_cap`
    of :class:`cpsolver.endgame.tree.Tree`), to be asked again with more."""


class SearchCore:
    """What a core of the search provides: ``players``, ``side`` (0 for hand 0's side, 1 for
    the other, by player), its counts and limits, and the methods below."""

    players: int
    side: list[int]
    nodes: int
    carried: int  # plays not tried, a lower play's refutation carried to them (carried.py)
    deadline: float | None
    memory: MemoryBudget

    def plays(self, hand: int) -> list[Move]:
        """Every play in a packed hand."""
        raise NotImplementedError

    def answers(self, hand: int, play: Move) -> list[Move]:
        """Every play in a packed hand that beats play ``play``."""
        raise NotImplementedError

    def cards(self, move: Move) -> int:
        """The packed cards of a play by its number."""
        raise NotImplementedError

    def play(self, move: Move) -> Play:
        """The rules core's play of a number."""
        raise NotImplementedError

    def index(self, play: Play) -> Move:
        """The number of a play in this search, given on first sight."""
        raise NotImplementedError

    def wins(self, hands: tuple[int, ...], turn: int, table: Move, by: int) -> bool:
        """Whether the side of ``turn`` wins from this state with best play by both sides.

        A result found in fewer than three nodes is not kept (found again, it
        costs no more than a look-up): :meth:`entry` searches such a state again.
        """
        raise NotImplementedError

    def settle(self, state: State) -> bool:
        """:meth:`wins`, keeping every result found, however cheap."""
        raise NotImplementedError

    def settle_won(self, state: State) -> None:
        """Search a state whose side to move is known to win (a state of its strategy),
        keeping every result: its winning move is sought narrowest first, at the
        :data:`WIDTHS` :meth:`decide` asks at, and by :meth:`wins` last.

        The full search alone refuted in full every wrong first move it tried,
        at each state of a strategy's walk the table did not hold (too cheap to
        keep, evicted, or never searched, after a reply the search left out).
        """
        raise NotImplementedError

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

        Every move of the other side is answered. PROVEN: the prover wins;
        REFUTED: it loses whatever it does (it had no more than ``width``
        moves anywhere it mattered); both exact, and kept in the table as
        :meth:`wins` keeps what it finds. OPEN: no win among so few moves.
        The moves are tried in move ``order`` (:meth:`passes_first`).
        With ``resume``, the question asked last of this prover in this order,
        which stopped short, is asked again: the positions it had left open are
        not walked again.
        """
        raise NotImplementedError

    def lookup(self, state: State) -> Entry | bool:
        """What the table holds for a state: its entry, or False where nothing is kept."""
        raise NotImplementedError

    def store(self, state: State, move: Move | None, nodes: int) -> None:
        """Keep a result found outside this search (:mod:`cpsolver.endgame.alone`), however
        cheap: the winning move of the side to move at ``state``, or None where it loses; as
        costly to find again as ``nodes`` (the compiled table evicts the cheapest first)."""
        raise NotImplementedError

    @property
    def core(self) -> str:
        """Which core searches: ``python`` or ``compiled``."""
        raise NotImplementedError

    @property
    def table_size(self) -> int:
        """How many positions the table holds."""
        raise NotImplementedError

    @property
    def evictions(self) -> tuple[int, int]:
        """(evictions, entries evicted) so far."""
        raise NotImplementedError

    def strategy_text(
        self, root: State, symbols: str, play_text: Callable[[Move], str], write: Write
    ) -> bool:
        """Hand ``write`` the won root's strategy as a proof's nodes, JSON a node a line, in
        pieces, if this search writes it itself (False: it does not): a hand spelled as
        ``str(Hand)`` spells it, in ``symbols`` (one a rank), and each play by ``play_text``."""
        return False

    def strategy_line(self, root: State) -> tuple[int, list[tuple[int, Move]]] | None:
        """The won root's strategy size and principal line, if this search walks them itself."""
        return None

    def answerable(self, hand: int, play: Move) -> bool:
        """Whether a packed hand holds a play that beats play ``play``."""
        raise NotImplementedError

    def ordered(self, hand: int, table: Move, alone: bool = False) -> list[Move]:
        """The plays (on lead) or the answers to ``table``, in the order the search tries them;
        with ``alone``, less the kickers a player without a partner never needs (kickers.py)."""
        raise NotImplementedError

    def unoutranked(
        self, moves: list[Move], hand: int, opponents: tuple[int, ...], partner: int, table: Move
    ) -> list[Move]:
        """``moves`` (no pass) less the plays of one rank's cards that the same play of a
        lower rank is worth as much as and, for a peasant (``partner`` not 0), the
        needless kickers (:mod:`cpsolver.endgame.kickers`)."""
        raise NotImplementedError

    def lone_group(self, hand: int, move: Move) -> int:
        """A play of all the hand's cards of one rank and nothing else (a single, pair or
        triplet; no bomb, no joker): its rank, else -1 (:mod:`cpsolver.endgame.carried`)."""
        raise NotImplementedError

    def carries(self, hand: int, refuted: list[Refuted], rank: int, width: int) -> bool:
        """Whether a refutation in ``refuted`` carries to the lone play of ``width`` cards of
        ``rank`` from ``hand`` (a rank of :meth:`lone_group`)."""
        raise NotImplementedError

    def carried_to(self, child: State, mover: int, width: int) -> int:
        """The rank below which the answer in ``child`` (a state past forced passes, after
        ``mover``'s lone play of ``width`` cards) beats such plays too, as the table holds it:
        every rank for a bomb or no answer (the mover leads again), -1 for none."""
        raise NotImplementedError
