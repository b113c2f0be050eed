"""What an agent is: whoever sits in a seat answers the table's two questions, or fails and loses.

Kept apart from the agents themselves (:mod:`cpsolver.game.agents`) so that the
table, the seats and a Botzone program in a seat can speak of an agent without
importing every kind of agent.
"""

from __future__ import annotations

from typing import Protocol

from cpsolver.game.engine import Game
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.plays import Play


class AgentFailure(CpsolverError):
    """An agent could not act: its side loses the game, and ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Agent(Protocol):
    """What the table asks of whoever sits in a seat."""

    name: str

    def choose_bid(self, game: Game) -> int:
        """A bid above the current one, or 0 to pass."""
        ...

    def choose_play(self, game: Game) -> Play | None:
        """The play to make now, or None to pass."""
        ...
