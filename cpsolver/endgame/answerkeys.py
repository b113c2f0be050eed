"""The Python core's table keys: a position mid-trick keyed by the answers it leaves.

Two plays on the table that leave every player still to answer in the trick
the same answers give the same game from there: the next table is then the
answer itself, or the trick ends. So such positions share one entry, keyed by
the number of that tuple of answer sets (negated, below ``NO_TABLE``) where
the play to beat stood. A position on lead is its own key. The compiled core
keys its states the same way, by the same answer classes (``core_c``).
"""

from __future__ import annotations

from cpsolver.endgame.packed import Move, PackedRules
from cpsolver.endgame.searchcore import NO_TABLE, State
from cpsolver.rules.ruleset import RuleSet


class AnswerKeys(PackedRules):
    """The table's key of a state, its answer classes numbered as they are met."""

    players: int  # the search's

    def __init__(self, rules: RuleSet | None = None) -> None:
        super().__init__(rules)
        self._classes: dict[tuple[Move, ...], int] = {}  # the numbering: keys are written in it
        self._class_of: dict[int, dict[Move, int]] = {}  # by hand and play to beat: a cache

    def key(self, state: State) -> State:
        """The table's key for a state: the play to beat stands for what it lets be played."""
        hands, turn, table, by = state
        if table == NO_TABLE:
            return state
        found = self._class(hands[turn], table)
        following = (turn + 1) % self.players
        if following != by:  # in the three-player game, the next player answers it too
            found = (found << 32) | self._class(hands[following], table)
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

    def forget(self) -> None:
        """Empty every cache of hands; the answer classes keep their numbers."""
        super().forget()
        self._class_of.clear()
