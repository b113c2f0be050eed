"""Hands played by agents alone: ``cpsolver simulate`` and its summary.

Every seat is the table's quick bot unless other agents are seated
(:mod:`cpsolver.game.seats`); a hand a seat forfeits is lost by its side.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from cpsolver.game.agent import Agent, AgentFailure
from cpsolver.game.bidding import spring_odds
from cpsolver.game.bots import Bot
from cpsolver.game.engine import Game
from cpsolver.game.seats import act, forfeit_result
from cpsolver.rules.cards import Deal
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring.search import solve as search


def game_seeds(seed: int) -> Iterator[tuple[int, int]]:
    """(game seed, first bidder) of each successive hand of a session from ``seed``."""
    rng = random.Random(seed)
    number = 0
    while True:
        yield rng.randrange(2**31), number % 3
        number += 1


def spring_at_first_lead(game: Game) -> list[Play]:
    """The landlord's spring plan at his first lead (the hands as play began), or []."""
    assert game.landlord is not None
    hands = game.start_of_play
    peasants = [hands[s] for s in range(3) if s != game.landlord]
    return [step.play for step in search(Deal(hands[game.landlord], *peasants), game.rules).plan]


def bot_game(seed: int, first_bidder: int, rules: RuleSet | None = None) -> Game:
    """One hand played by three of the table's quick bots."""
    game, _ = seated_game(seed, first_bidder, {seat: Bot(seat, rules) for seat in range(3)}, rules)
    return game


def seated_game(
    seed: int, first_bidder: int, agents: dict[int, Agent], rules: RuleSet | None = None
) -> tuple[Game, dict[str, Any] | None]:
    """One hand played by an agent a seat; and, when a seat forfeited, its result.

    A forfeit's result is :func:`cpsolver.game.seats.forfeit_result`'s.
    """
    game = Game.deal(seed, first_bidder, rules)
    while game.phase in ("auction", "play"):
        seat = game.turn
        try:
            act(game, agents[seat])
        except AgentFailure as failure:
            reason = f"seat {seat} ({agents[seat].name}): {failure.reason}"
            return game, forfeit_result(game, seat, reason)
    return game, None


@dataclass
class SimulationSummary:
    """What ``cpsolver simulate`` reports."""

    games: int = 0
    thrown_in: int = 0
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    landlord_wins: int = 0
    stakes: list[int] = field(default_factory=list)
    springs: int = 0
    anti_springs: int = 0
    spring_available: int = 0
    spring_taken: int = 0
    # By winning bid: [hands, sum of the landlord's estimated spring odds, springs].
    by_bid: dict[int, list[float]] = field(default_factory=dict)
    forfeits: list[str] = field(default_factory=list)  # why each forfeited hand was lost

    def add(self, game: Game, forfeit: dict[str, Any] | None = None) -> None:
        """Count one finished hand, or one a seat forfeited (its result)."""
        self.games += 1
        if forfeit is not None:
            self.forfeits.append(forfeit["forfeit"]["reason"])
            for seat in range(3):
                self.wins_by_seat[seat] += forfeit["score"][seat] > 0
            self.landlord_wins += forfeit["winner"] == "landlord"
            self.stakes.append(forfeit["stake"])
            return
        result = game.result()
        if result["winner"] == "thrown_in":
            self.thrown_in += 1
            return
        for seat in range(3):
            self.wins_by_seat[seat] += result["score"][seat] > 0
        self.landlord_wins += result["winner"] == "landlord"
        self.stakes.append(result["stake"])
        self.springs += result["spring"]
        self.anti_springs += result["anti_spring"]
        if spring_at_first_lead(game):
            self.spring_available += 1
            self.spring_taken += result["spring"]
        assert game.landlord is not None
        row = self.by_bid.setdefault(result["bid"], [0, 0.0, 0])
        row[0] += 1
        row[1] += spring_odds(game.original[game.landlord], game.rules)
        row[2] += result["spring"]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form printed by ``cpsolver simulate --json``."""
        played = self.games - self.thrown_in

        def rate(count: int) -> float | None:
            return round(count / played, 4) if played else None

        return {
            "games": self.games,
            "thrown_in": self.thrown_in,
            "win_rate_by_seat": {str(seat): rate(self.wins_by_seat[seat]) for seat in range(3)},
            "win_rate_by_role": {
                "landlord": rate(self.landlord_wins),
                "peasants": rate(played - self.landlord_wins),
            },
            "average_stake": round(sum(self.stakes) / played, 3) if played else None,
            "springs": self.springs,
            "anti_springs": self.anti_springs,
            "forfeits": self.forfeits,
            "spring_available_at_first_lead": self.spring_available,
            "spring_taken": self.spring_taken,
            "by_bid": {
                str(bid): {
                    "hands": int(hands),
                    "mean_spring_odds": round(odds / hands, 4),
                    "springs": int(springs),
                }
                for bid, (hands, odds, springs) in sorted(self.by_bid.items())
            },
        }


def simulate(
    games: int,
    seed: int,
    progress: Callable[[], None] = lambda: None,
    rules: RuleSet | None = None,
    on_game: Callable[[Game], None] = lambda game: None,
    agents: dict[int, Agent] | None = None,
) -> SimulationSummary:
    """Bots against bots for ``games`` hands; ``on_game`` sees each hand played to its end.

    ``agents`` seats other agents (see :mod:`cpsolver.game.seats`); a hand a seat
    forfeits is counted as lost by its side, and not passed to ``on_game``.
    """
    summary = SimulationSummary()
    seated = agents or {seat: Bot(seat, rules) for seat in range(3)}
    for _, (game_seed, first) in zip(range(games), game_seeds(seed)):
        game, forfeit = seated_game(game_seed, first, seated, rules)
        summary.add(game, forfeit)
        if forfeit is None:
            on_game(game)
        progress()
    return summary
