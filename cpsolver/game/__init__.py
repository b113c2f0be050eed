"""The game itself: deal, auction, play and scoring, bots, and the terminal table."""

from cpsolver.game.engine import Game, IllegalActionError, replay

__all__ = ["Game", "IllegalActionError", "replay"]
