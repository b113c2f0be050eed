"""Refutations carried to higher plays: a play the search need not try, its loss known.

When a player alone (the landlord; either player of two) loses by playing
all its cards of one rank ``a`` — a single, a pair or a triplet, no kicker —
and the other side's first answer, as the search found it, beats the same
play of a higher rank ``b`` too (a play of that kind above ``b``, a bomb or
the rocket, or no answer at all, the player then leading again), playing its
``b`` cards instead loses as well, where the copy of
:mod:`cpsolver.endgame.kickers` holds: the hand holds exactly as many ``b``
cards as ``a`` cards, the ``a`` cards make no chain with what the play
leaves, neither is a joker, and the ranks are swappable. Proof: the other
side gives the same answer, which is legal (it beats ``b``), and reaches the
position the search refuted but for the player holding the ``a`` cards where
it held the ``b`` ones; a hand holding the ``b`` cards copies whatever the
hand holding the ``a`` cards does (the kickers module's proof), so the player
does no better from there, and the other side's win there holds.

So the search, having refuted the lower play, does not try the higher one:
at every node of such a player in the full search, at such a player's
nodes in a narrow question asked of the other side (where every move of the
player must be refuted), and among the first moves a split decides one by
one (``Tree._split``, on either core, asking it the rule's three steps:
``lone_group``, ``carried_to`` and ``carries``). The plays are often
several single cards of the landlord's, and a peasant's answer to the
lowest often beats several more (what it saves is measured on the
open-hands page). The answer is read
from the table (the entry of the position after the play and,
past a pass, of the next player's), so a refutation too cheap to be kept
carries nothing. The compiled core does the same, step for step
(``core_c/search.h``).

The same copy settles a position on lead whose loss the table holds in
another shape (:meth:`Carried.lost_raised`): a player on lead loses where the
table holds as its loss the same position but for one of its lone cards
``a`` raised to a rank ``b`` above it that it does not hold (the copy
holding: ``b`` no joker, the ranks swappable, no chain through ``a``), and
its partner, if it has one, holds no card above ``a`` up to ``b``. The hand
with the ``b`` card copies whatever the hand with the ``a`` card does and
lost, and the partner answers its ``b`` as it answered the ``a`` (holding no
card that beats the one and not the other); so this one loses too. Such
pairs of positions are many: a landlord who led its 5 keeping its 3 meets,
later in the game, the very position it met where it led the 3 keeping the
5. It is asked where every move of the player must be refuted (the other
side's narrow questions) and in the full search, not in the player's own
side's questions, where such losses are rare and their look-ups cost more
than they save. The compiled core asks it at the same point of a node
(``core_c/nodes.h``).

And the converse (:meth:`Carried.won_raised`): a player on lead wins, with the
same move, where the table holds its win at the same position but for one of
the lone cards of its opponent alone (the landlord, against a peasant; the
other player of two) raised so. That opponent with the higher card does at
least as well as with the lower one, whoever is to move (the same copy), so
the win against the stronger hand holds against the weaker; the move is a
lead from the same hand, legal in both. Such pairs of positions are many
where the opponent's every move is answered: in a peasants' proof, the
landlord's hands vary with its choices, and the peasants hold the lead at
most of its positions. So it is asked where the mover's wins are sought
(its own side's narrow questions) and in the full search, right after the
loss above.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from cpsolver.endgame.packed import PASS, Move, PackedRules
from cpsolver.endgame.tree import NO_TABLE, Refuted
from cpsolver.rules.cards import RANK_COUNT

if TYPE_CHECKING:
    from cpsolver.endgame.tree import Entry, State


class Carried(PackedRules):
    """Which refutations of a player alone carry to its higher lone plays (see the module)."""

    if TYPE_CHECKING:  # the search's, which this reads
        table: dict[State, Entry]

        def key(self, state: State) -> State: ...

        def successor(self, state: State, move: Move) -> State | None: ...

        def past_forced_passes(self, state: State) -> State: ...

    carried: int  # plays not tried so (the search's count)
    _opponents: list[list[int]]  # each player's opponents (the search's)
    _alone: list[bool]  # whether each player has no partner (the search's)

    def carries(self, hand: int, refuted: list[Refuted], rank: int, width: int) -> bool:
        """Whether a refutation in ``refuted`` carries to the lone play of ``width`` cards of
        ``rank`` from ``hand`` (a rank of :meth:`PackedRules.lone_group`)."""
        rest = hand - (width << (4 * rank))  # what the play leaves, the lower cards among it
        return any(
            refuted_width == width
            and lower < rank < above
            and self._kickers.copies(rest, lower, rank, width)
            for lower, refuted_width, above in refuted
        )

    def carried_to(self, child: State, mover: int, width: int) -> int:
        """The rank below which the answer in ``child`` beats lone plays of ``width`` cards too:
        every rank for a bomb or no answer (the mover leads again); -1 where the table holds
        no answer of the kind. (:meth:`Tree.note_refuted` remembers it.)"""
        state = child
        while state[1] != mover:
            key = state if state[2] == NO_TABLE else self.key(state)
            move = self.table.get(key)
            if move != PASS:
                if not isinstance(move, int) or move < 0:  # not kept, a loss, or a plan
                    return -1
                if self._strong[move]:
                    return RANK_COUNT
                if self._size[move] == width and self.play_of[move].chain == 1:
                    return self._rank[move]
                return -1
            passed = self.successor(state, PASS)
            assert passed is not None  # a pass empties no hand
            state = self.past_forced_passes(passed)
        return RANK_COUNT if state[2] == NO_TABLE else -1

    def _raised_states(self, state: State, player: int, partner: int = 0) -> Iterator[State]:
        """``state``, on lead, with ``player``'s hand raised as :meth:`Kickers.raised` raises
        it (``partner``: the hand its partner's condition reads, 0: none); a state on lead is
        its own key in the table."""
        hands, turn, _, by = state
        for raised in self._kickers.raised(hands[player], partner):
            yield hands[:player] + (raised,) + hands[player + 1 :], turn, NO_TABLE, by

    def lost_raised(self, state: State, partner: int) -> bool:
        """Whether the player to move, on lead, loses as the table says it does with one of
        its lone cards raised (see the module), ``partner`` being its partner's hand (0:
        none): asked where no shortcut settled the node."""
        return any(
            self.table.get(raised, False) is None
            for raised in self._raised_states(state, state[1], partner)
        )

    def won_raised(self, state: State) -> Move | None:
        """The move with which the player to move, on lead, wins as the table says it does
        with one of the lone cards of its opponent alone raised (see the module), or None:
        the first such win, its candidates in :meth:`Kickers.raised`'s order."""
        for player in self._opponents[state[1]]:
            if not self._alone[player]:
                continue
            for raised in self._raised_states(state, player):
                entry = self.table.get(raised)
                if isinstance(entry, int) and entry >= 0:  # a move, not a plan
                    return entry
        return None
