"""Which of the landlord's options a peasant can answer: the safety the spring question needs."""

from __future__ import annotations

from cpsolver.rules.cards import BLACK_JOKER, RED_JOKER, TWO, Hand
from cpsolver.rules.movegen import MoveGenerator
from cpsolver.rules.plays import Kind, Play
from cpsolver.spring.cpsat.model import Option


class Unsafe:
    """Which options a peasant can answer: found all at once, or from answers met."""

    def __init__(
        self, options: list[Option], peasants: tuple[Hand, Hand], moves: MoveGenerator
    ) -> None:
        self.options = options
        self.peasants = peasants
        self.moves = moves
        self.known: set[int] = set()
        self._checked: set[int] = set()

    def classify_all(self) -> None:
        """Eager: ask the move generator about every option."""
        for o, option in enumerate(self.options):
            if any(self.moves.can_answer(p, option.representative) for p in self.peasants):
                self.known.add(o)
        self._checked = set(range(len(self.options)))

    def check(self, used: list[int]) -> set[int]:
        """Check the options a split uses; return the unsafe ones learned (cuts to add)."""
        learned: set[int] = set()
        for o in used:
            if o in self._checked:
                continue
            self._checked.add(o)
            play = self.options[o].representative
            for peasant in self.peasants:
                if self.moves.can_answer(peasant, play):
                    learned |= self._ruled_out_by(peasant, play)
        learned -= self.known
        self.known |= learned
        return learned

    def _ruled_out_by(self, peasant: Hand, play: Play) -> set[int]:
        """Every option that this peasant's answers to ``play`` make unsafe, not only ``play``."""
        if peasant[BLACK_JOKER] and peasant[RED_JOKER]:  # the rocket answers everything else
            return {o for o, option in enumerate(self.options) if option.kind is not Kind.ROCKET}
        ruled = set()
        bombs = [r for r in range(TWO + 1) if peasant[r] == 4]
        if bombs:  # a bomb answers every non-bomb and every lower bomb
            ruled |= {
                o
                for o, option in enumerate(self.options)
                if option.kind is not Kind.ROCKET
                and (option.kind is not Kind.BOMB or option.representative.rank < bombs[-1])
            }
        strongest = self.moves.strongest(peasant, play)
        if strongest is not None:
            ruled |= {
                o
                for o, option in enumerate(self.options)
                if option.representative.family == play.family
                and option.representative.rank < strongest.rank
            }
        return ruled
