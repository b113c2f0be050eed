"""Two agents ranked the way DouZero (and PerfectDou after it) rank them.

The protocol: deals without bidding, the landlord (seat 0) holding 20 cards
and each peasant 17 (seat 1 plays after the landlord, DouZero's
``landlord_down``; seat 2 is ``landlord_up``). Every deal is played twice:
agent A as landlord against two copies of agent B, then B as landlord
against two copies of A. Each game starts at a stake of 1 (a bid of 1).

Figures are from A's side. **WP** is the share of games A's side wins.
**ADP** is the average score difference per game between A's side and B's.
DouZero's scoring: the winning side gets ``2 x 2^bombs`` (bombs and rockets
played), the losing side loses it. Ours (docs/RULES.md) also doubles for a spring
and an anti-spring. Intervals are 95%: Wilson's for WP, the normal one for
ADP. A game an agent cannot finish (a program that crashed, answered an
illegal play or stayed silent) is lost by its side at the stake reached,
with the reason kept.

>>> deals = seeded_deals(seed=1, count=2)
>>> [(len(d.landlord), len(d.down), len(d.up), d.bottom <= d.landlord) for d in deals]
[(20, 17, 17, True), (20, 17, 17, True)]
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from cpsolver.game.agent import Agent, AgentFailure
from cpsolver.game.agents import make_agent
from cpsolver.game.engine import Game
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import DECK_COUNTS, Hand
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet
from cpsolver.scale.watchdog import exit_with_parent

Z95 = 1.959963984540054


@dataclass(frozen=True)
class EvalDeal:
    """One deal of the protocol: the landlord's 20 cards (the 3 face-down among them) and the peasants' 17."""

    landlord: Hand
    down: Hand  # plays after the landlord: seat 1
    up: Hand  # plays before the landlord: seat 2
    bottom: Hand

    def __post_init__(self) -> None:
        if (len(self.landlord), len(self.down), len(self.up), len(self.bottom)) != (20, 17, 17, 3):
            raise CpsolverError(
                "a deal has 20 cards for the landlord, 17 for each peasant, 3 face down"
            )
        if (
            self.landlord + self.down + self.up != Hand(DECK_COUNTS)
            or not self.bottom <= self.landlord
        ):
            raise CpsolverError(
                "a deal is the whole deck, the face-down cards in the landlord's hand"
            )


def seeded_deals(seed: int, count: int) -> list[EvalDeal]:
    """``count`` deals shuffled from ``seed``, cut as DouZero's evaluation data is."""
    rng = random.Random(seed)
    deck = [rank for rank, copies in enumerate(DECK_COUNTS) for _ in range(copies)]
    deals = []
    for _ in range(count):
        rng.shuffle(deck)
        deals.append(
            EvalDeal(
                landlord=Hand.from_ranks(deck[:20]),
                down=Hand.from_ranks(deck[37:]),
                up=Hand.from_ranks(deck[20:37]),
                bottom=Hand.from_ranks(deck[17:20]),
            )
        )
    return deals


@dataclass
class Outcome:
    """One game: who sat as landlord, who won, and what the stake came to."""

    deal: int
    landlord_agent: str  # "a" or "b"
    landlord_won: bool
    bombs: int
    spring: bool
    anti_spring: bool
    actions: int
    forfeit: str | None = None  # why a side lost without finishing
    record: dict[str, Any] | None = None  # the game record, when asked for and finished
    cpu_seconds: float = field(default=0.0, compare=False)  # the game's CPU time in its process

    @property
    def douzero_score(self) -> int:
        """The landlord side's score by DouZero's scoring: ``2 x 2^bombs``, negative when it lost."""
        return (2 if self.landlord_won else -2) << self.bombs

    @property
    def our_score(self) -> int:
        """As :attr:`douzero_score`, doubled once more for a spring or an anti-spring."""
        return self.douzero_score * (2 if self.spring or self.anti_spring else 1)


def start_game(deal: EvalDeal, number: int, rules: RuleSet) -> Game:
    """The deal as a game in play: seat 0 bid 1, the others passed, and the bottom is turned.

    The game has no seed (its record carries the deal itself); ``number`` is
    the deal's place in the evaluation.
    """
    hands = [deal.landlord - deal.bottom, deal.down, deal.up]
    game = Game(None, 0, list(hands), deal.bottom, rules)
    game.original = list(hands)
    for seat, amount in ((0, 1), (1, 0), (2, 0)):
        game.make_bid(seat, amount)
    return game


def play_game(game: Game, agents: Sequence[Agent]) -> str | None:
    """Play ``game`` to its end with one agent a seat; the reason if a seat forfeited, else None."""
    while game.phase == "play":
        seat = game.turn
        try:
            play = agents[seat].choose_play(game)
            game.play(seat, play.cards if play else None)
        except AgentFailure as failure:
            return f"seat {seat} ({agents[seat].name}): {failure.reason}"
        except CpsolverError as error:
            return f"seat {seat} ({agents[seat].name}): illegal play: {error}"
    return None


def _outcome(deal_number: int, landlord_agent: str, game: Game, forfeit: str | None) -> Outcome:
    assert game.landlord is not None
    if forfeit is None:
        result = game.result()
        won = result["winner"] == "landlord"
        return Outcome(
            deal_number,
            landlord_agent,
            won,
            game.bombs,
            result["spring"],
            result["anti_spring"],
            len(game.actions),
        )
    won = game.turn != game.landlord  # the seat to act forfeited
    return Outcome(
        deal_number, landlord_agent, won, game.bombs, False, False, len(game.actions), forfeit
    )


_AGENTS: dict[tuple[str, int], Agent] = {}


def _agent(spec: str, seat: int, rules: RuleSet, timeout: float) -> Agent:
    """One agent per name and seat in this process, so that running programs are reused."""
    key = (spec, seat)
    if key not in _AGENTS:
        _AGENTS[key] = make_agent(spec, seat, rules, timeout)
    return _AGENTS[key]


Task = tuple[int, EvalDeal, str, str, str, str, float, bool]


def run_game(task: Task) -> Outcome:
    """One game of the protocol: (deal number, deal, which of a/b is landlord, the landlord's
    agent, the peasants' agent, the rules' name or path, the timeout per answer, whether to
    keep the game's record)."""
    number, deal, landlord_agent, landlord_spec, peasant_spec, rules_name, timeout, keep = task
    started = time.process_time()
    rules = load_rules(rules_name)
    game = start_game(deal, number, rules)
    agents = [
        _agent(landlord_spec, 0, rules, timeout),
        _agent(peasant_spec, 1, rules, timeout),
        _agent(peasant_spec, 2, rules, timeout),
    ]
    outcome = _outcome(number, landlord_agent, game, play_game(game, agents))
    if keep and outcome.forfeit is None:
        outcome.record = evaluation_record(game, number, landlord_agent, agents)
    outcome.cpu_seconds = time.process_time() - started
    return outcome


def evaluation_record(
    game: Game, number: int, landlord_agent: str, agents: Sequence[Agent]
) -> dict[str, Any]:
    """The game's record (:meth:`Game.record`, its deal written out) and where it stood in the run."""
    return {
        **game.record(),
        "evaluation": {
            "deal": number,
            "landlord_agent": landlord_agent,
            "agents": [agent.name for agent in agents],
        },
    }


def close_agents() -> None:
    """End the programs this process keeps running."""
    for agent in _AGENTS.values():
        close = getattr(agent, "close", None)
        if close is not None:
            close()
    _AGENTS.clear()


def tasks(
    deals: Sequence[EvalDeal],
    a: str,
    b: str,
    rules_name: str,
    timeout: float,
    records: bool = False,
) -> Iterator[Task]:
    """Each deal twice: A as landlord against B, then B as landlord against A."""
    for number, deal in enumerate(deals):
        yield (number, deal, "a", a, b, rules_name, timeout, records)
        yield (number, deal, "b", b, a, rules_name, timeout, records)


def evaluate(
    deals: Sequence[EvalDeal],
    a: str,
    b: str,
    rules_name: str = "standard",
    workers: int = 1,
    timeout: float = 10.0,
    progress: Callable[[int], None] = lambda n: None,
    records: bool = False,
) -> list[Outcome]:
    """Play every deal both ways; the outcomes in deal order, A as landlord first.

    With ``records``, each finished game's record is kept on its outcome.
    """
    jobs = list(tasks(deals, a, b, rules_name, timeout, records))
    outcomes: list[Outcome] = []
    if workers <= 1:
        try:
            for job in jobs:
                outcomes.append(run_game(job))
                progress(1)
        finally:
            close_agents()
        return outcomes
    import multiprocessing

    pool = multiprocessing.get_context("spawn").Pool(
        workers, initializer=worker_start, initargs=(os.getpid(),)
    )
    try:
        for outcome in pool.imap_unordered(run_game, jobs, chunksize=4):
            outcomes.append(outcome)
            progress(1)
        pool.close()  # workers leave normally, running their finalizers: no program outlives them
        pool.join()
    finally:
        pool.terminate()
    outcomes.sort(key=lambda o: (o.deal, o.landlord_agent))
    return outcomes


def worker_start(parent: int) -> None:
    """A pool worker's set-up: the programs it keeps running end when it does.

    It ends as it leaves the pool, and also when ``parent`` (the evaluate
    process) dies without a word (SIGKILL): then a watchdog thread ends the
    programs and the worker at once.
    """
    from multiprocessing.util import Finalize

    Finalize(None, close_agents, exitpriority=10)
    exit_with_parent(parent, close_agents)


def wilson(wins: int, games: int) -> tuple[float, float]:
    """Wilson's 95% interval for a share of ``wins`` in ``games``.

    >>> [round(x, 4) for x in wilson(90, 100)]
    [0.8256, 0.9448]
    """
    if not games:
        return (0.0, 1.0)
    share = wins / games
    centre = (share + Z95**2 / (2 * games)) / (1 + Z95**2 / games)
    half = (
        Z95
        * math.sqrt(share * (1 - share) / games + Z95**2 / (4 * games**2))
        / (1 + Z95**2 / games)
    )
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean with its normal 95% interval."""
    mean = statistics.fmean(values) if values else 0.0
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return (mean, mean - half, mean + half)


def _figures(won: list[bool], douzero: list[int], ours: list[int]) -> dict[str, Any]:
    wins = sum(won)
    low, high = wilson(wins, len(won))
    dz, dz_low, dz_high = mean_interval(douzero)
    us, us_low, us_high = mean_interval(ours)
    return {
        "games": len(won),
        "wins": wins,
        "wp": round(wins / len(won), 4) if won else None,
        "wp_ci": [round(low, 4), round(high, 4)],
        "adp": round(dz, 4),
        "adp_ci": [round(dz_low, 4), round(dz_high, 4)],
        "adp_ours": round(us, 4),
        "adp_ours_ci": [round(us_low, 4), round(us_high, 4)],
    }


def summarize(outcomes: Sequence[Outcome], a: str, b: str) -> dict[str, Any]:
    """WP and ADP of A as landlord, as peasants and overall, with intervals; forfeits listed."""
    roles: dict[str, tuple[list[bool], list[int], list[int]]] = {
        "landlord": ([], [], []),
        "peasants": ([], [], []),
    }
    for outcome in outcomes:
        sign = 1 if outcome.landlord_agent == "a" else -1
        won, douzero, ours = roles["landlord" if sign == 1 else "peasants"]
        won.append(outcome.landlord_won == (sign == 1))
        douzero.append(sign * outcome.douzero_score)
        ours.append(sign * outcome.our_score)
    every = tuple(
        roles["landlord"][i] + roles["peasants"][i]  # type: ignore[operator]
        for i in range(3)
    )
    return {
        "a": a,
        "b": b,
        "deals": len({o.deal for o in outcomes}),
        "as_landlord": _figures(*roles["landlord"]),
        "as_peasants": _figures(*roles["peasants"]),
        "overall": _figures(*every),  # type: ignore[arg-type]
        "springs": sum(o.spring for o in outcomes),
        "anti_springs": sum(o.anti_spring for o in outcomes),
        "forfeits": [
            {key: value for key, value in asdict(o).items() if key not in ("record", "cpu_seconds")}
            for o in outcomes
            if o.forfeit
        ],
    }
