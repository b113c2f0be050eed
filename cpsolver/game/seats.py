"""Who sits where in ``simulate`` and ``play``, and what a seat that fails loses.

Every seat of ``simulate`` (and every seat but the person's in ``play``)
is the table's quick bot unless ``--agent SEAT=AGENT`` names another agent
of :mod:`cpsolver.game.agents` for it: ``cpsolver``, ``random``,
``rlcard`` or ``cmd:COMMAND``, an outside program speaking Botzone's
protocol. An agent that cannot go on (a program that crashed, answered an
illegal bid or play, or stayed silent) forfeits: its side loses the hand at
the stake reached, as if it had lost it played out. In the auction, before
there are sides, the failing seat loses alone, as a landlord would, at the
bid reached (1 if none).

>>> parse_assignments(["1=random", "2=cmd:python bot.py --fast"])
{1: 'random', 2: 'cmd:python bot.py --fast'}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cpsolver.game.agent import Agent, AgentFailure
from cpsolver.game.agents import AGENT_NAMES, make_agent
from cpsolver.game.bots import Bot
from cpsolver.game.engine import Game
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet


def parse_assignments(specs: Sequence[str], free: Sequence[int] = (0, 1, 2)) -> dict[int, str]:
    """``SEAT=AGENT`` texts as a seat-to-agent map; CpsolverError for a bad one."""
    found: dict[int, str] = {}
    for spec in specs:
        seat_text, _, agent = spec.partition("=")
        if seat_text.strip() not in ("0", "1", "2") or not agent.strip():
            raise CpsolverError(f"{spec!r} is no SEAT=AGENT (a seat 0-2, then an agent)")
        seat = int(seat_text)
        if seat not in free:
            raise CpsolverError(f"seat {seat} is yours: --agent takes the others")
        if seat in found:
            raise CpsolverError(f"seat {seat} is given two agents")
        agent = agent.strip()
        if not (agent in AGENT_NAMES[:-1] or (agent.startswith("cmd:") and agent[4:].strip())):
            raise CpsolverError(f"{agent!r} is no agent (known: {', '.join(AGENT_NAMES)})")
        found[seat] = agent
    return found


def seat_agents(
    assigned: dict[int, str], rules: RuleSet | None, timeout: float = 10.0
) -> dict[int, Agent]:
    """An agent for every seat: the named ones, and the table's quick bot elsewhere."""
    return {
        seat: make_agent(assigned[seat], seat, rules, timeout)
        if seat in assigned
        else Bot(seat, rules)
        for seat in range(3)
    }


def close_all(agents: dict[int, Agent]) -> None:
    """End the outside programs among ``agents``."""
    for agent in agents.values():
        close = getattr(agent, "close", None)
        if close is not None:
            close()


def act(game: Game, agent: Agent) -> None:
    """The seat to act bids or plays as its agent says; AgentFailure when it cannot.

    A move the rules refuse is a failure too, so that no agent can stop the table.
    """
    seat = game.turn
    try:
        if game.phase == "auction":
            game.make_bid(seat, agent.choose_bid(game))
        else:
            play = agent.choose_play(game)
            game.play(seat, play.cards if play else None)
    except AgentFailure:
        raise
    except CpsolverError as error:
        raise AgentFailure(f"illegal {'bid' if game.phase == 'auction' else 'play'}: {error}")


def forfeit_result(game: Game, seat: int, reason: str) -> dict[str, Any]:
    """The hand's result when ``seat`` fails: :meth:`Game.result`'s keys, and who forfeited why."""
    stake = max(game.bid, 1) * 2**game.bombs
    alone = game.landlord is None or seat == game.landlord
    score = [stake] * 3
    if alone:
        score[seat] = -2 * stake
    else:
        assert game.landlord is not None
        score = [-stake] * 3
        score[game.landlord] = 2 * stake
    if game.landlord is None:
        winner = "forfeit"  # no sides yet: the failing seat alone loses
    else:
        winner = "peasants" if seat == game.landlord else "landlord"
    return {
        "winner": winner,
        "bid": game.bid,
        "bombs": game.bombs,
        "spring": False,
        "anti_spring": False,
        "stake": stake,
        "score": score,
        "forfeit": {"seat": seat, "reason": reason},
    }
