"""The open-hand solver: who wins a position when every hand is known.

Two-player endgame puzzles and the three-player game (the landlord against
two cooperating peasants) alike, exactly, with the winning side's strategy as
a proof that :func:`cpsolver.verify.strategy.check_strategy` re-checks with
the rules core alone. It depends on the rules core and nothing else here.
"""

from cpsolver.endgame.answer import PASS, EndgameResult, solve
from cpsolver.rules.position import Position

__all__ = ["PASS", "EndgameResult", "Position", "solve"]
