"""Agents that take a seat, named as ``evaluate``, ``simulate`` and ``play`` name them.

An agent answers :meth:`Agent.choose_bid` and :meth:`Agent.choose_play` for
its seat of a :class:`~cpsolver.game.engine.Game`. Fair agents read the game
only through :func:`~cpsolver.game.view.view_of` (what their seat sees);
``cpsolver-open`` alone also reads the other hands, and says so in its name.

========================  ==========================================================
``cpsolver``              our rule-based bot (:class:`~cpsolver.game.bots.Bot`), fair
``cpsolver-heuristic``    the same bot without its exact endgame (its rules alone), fair
``cpsolver-open``         the same bot with the real hands in view for springs; not fair
``random``                a legal play (or pass) uniformly at random, seeded by the view
``rlcard``                RLCard's rule agent ``DouDizhuRuleAgentV1`` (needs ``rlcard``)
``cmd:COMMAND``           a program speaking Botzone's FightTheLandlord protocol
========================  ==========================================================

An agent that cannot go on (a program that crashed, answered an illegal play
or stayed silent) raises :class:`AgentFailure`; the game is then lost by its
side, with the reason recorded.
"""

from __future__ import annotations

import random
import zlib

from cpsolver.game.agent import Agent
from cpsolver.game.bots import ENDGAME_CARDS, Bot, OpenBot
from cpsolver.game.engine import Game
from cpsolver.game.view import View, view_of
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet

AGENT_NAMES = (
    "cpsolver",
    "cpsolver-heuristic",
    "cpsolver-open",
    "random",
    "rlcard",
    "cmd:COMMAND",
)
FAIR = frozenset(
    {"cpsolver", "cpsolver-heuristic", "random", "rlcard"}
)  # and every cmd: program, which sees only requests


def _seed(view: View, salt: str) -> int:
    text = f"{salt}|{view.seat}|{view.hand}|" + ";".join(f"{s}:{p}" for s, p in view.actions)
    return zlib.crc32(text.encode())


class RandomAgent:
    """A legal action uniformly at random (passing counts as one), as DouZero's random agent."""

    name = "random"

    def __init__(self, seat: int, rules: RuleSet | None = None) -> None:
        self.seat = seat
        self.rules = rules

    def choose_bid(self, game: Game) -> int:
        """A bid option at random."""
        view = view_of(game, self.seat)
        options = [0, *range(view.bid + 1, 4)]
        return int(random.Random(_seed(view, "bid")).choice(options))

    def choose_play(self, game: Game) -> Play | None:
        """A legal play or pass at random."""
        view = view_of(game, self.seat)
        moves = generator(self.rules)
        last = view.last
        options: list[Play | None] = list(
            moves.plays(view.hand) if last is None else moves.answers(view.hand, last[1])
        )
        if last is not None:
            options.append(None)
        return random.Random(_seed(view, "play")).choice(options)


class RlcardAgent:
    """RLCard's rule-based Dou Dizhu agent (``DouDizhuRuleAgentV1``), fed what its seat sees.

    RLCard writes cards with our symbols, low to high, so a hand or a play is
    its string. Plays RLCard's action table does not list (some kicker shapes
    our rules allow) are left out of the agent's choices. Its random fallback
    draws from numpy's global generator, which is seeded from the view first
    so that a game replays.
    """

    name = "rlcard"

    def __init__(self, seat: int, rules: RuleSet | None = None) -> None:
        try:
            from rlcard.games.doudizhu.utils import CARD_TYPE
            from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
        except ImportError:
            raise CpsolverError(
                "the rlcard agent needs RLCard: pip install rlcard (or cpsolver[test])"
            ) from None
        self.seat = seat
        self.rules = rules
        self._agent = DouDizhuRuleAgentV1()
        self._known = CARD_TYPE[0]

    def choose_bid(self, game: Game) -> int:
        """RLCard's rule agent does not bid: it passes unless a bid is needed to avoid a redeal."""
        return 1 if game.bid == 0 and len(game.auction) == 2 else 0

    def choose_play(self, game: Game) -> Play | None:
        """The rule agent's choice among the legal plays."""
        import numpy as np

        view = view_of(game, self.seat)
        moves = generator(self.rules)
        last = view.last
        legal = moves.plays(view.hand) if last is None else moves.answers(view.hand, last[1])
        by_text = {str(p): p for p in legal if str(p) in self._known}
        actions = list(by_text) + ([] if last is None else ["pass"])
        if not actions:  # a lead whose every play RLCard cannot name: the lowest play
            return min(legal, key=Play.sort_key)
        trace = [(seat, str(play) if play else "pass") for seat, play in view.actions]
        state = {
            "raw_obs": {
                "trace": trace,
                "current_hand": str(view.hand),
                "actions": actions,
                "landlord": view.landlord,
                "self": self.seat,
            }
        }
        np.random.seed(_seed(view, "rlcard"))
        choice = self._agent.step(state)
        if choice == "pass":
            return None
        if choice in by_text:
            return by_text[choice]
        # The lead rule builds its combination from the hand: read it back as one of ours.
        for play in legal:
            if str(play) == "".join(sorted(choice, key="3456789TJQKA2BR".index)):
                return play
        return min(legal, key=Play.sort_key)


def make_agent(spec: str, seat: int, rules: RuleSet | None = None, timeout: float = 10.0) -> Agent:
    """The agent a name stands for (see the module's table); CpsolverError for an unknown one."""
    if spec == "cpsolver":
        return Bot(seat, rules, ENDGAME_CARDS)
    if spec == "cpsolver-heuristic":
        return Bot(seat, rules)
    if spec == "cpsolver-open":
        return OpenBot(seat, rules, ENDGAME_CARDS)
    if spec == "random":
        return RandomAgent(seat, rules)
    if spec == "rlcard":
        return RlcardAgent(seat, rules)
    if spec.startswith("cmd:") and spec[4:].strip():
        from cpsolver.game.botzone_seat import BotzoneProgram

        return BotzoneProgram(spec[4:], seat, rules, timeout)
    raise CpsolverError(f"unknown agent {spec!r} (known: {', '.join(AGENT_NAMES)})")


def is_fair(spec: str) -> bool:
    """Whether an agent decides from its own seat's view alone."""
    return spec in FAIR or spec.startswith("cmd:")
