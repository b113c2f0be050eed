"""Games annotated move by move: who wins from each position with best play, and the blunders.

A recorded hand is replayed and, after every action, the open-hand solver
(:mod:`cpsolver.endgame`) is asked who wins the position reached, every hand
known, within a budget; a position beyond the budget stays undecided (None),
never guessed. It stands on the game (records) and the endgame solver.
"""

from cpsolver.analysis.annotate import (
    ActionVerdict,
    Analysis,
    AnalysisError,
    analyse,
    analyse_game,
    read_game,
)

__all__ = ["ActionVerdict", "Analysis", "AnalysisError", "analyse", "analyse_game", "read_game"]
