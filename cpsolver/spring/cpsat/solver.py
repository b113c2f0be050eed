"""The CP-SAT spring engine: the model proposes a split, the peasants' answers cut it.

Two strategies:

- ``lazy``: the model starts knowing nothing of the peasants. Each proposed
  split is checked step by step with the move generator; every answerable
  step becomes a cut, generalised so that one answer rules out a whole class
  (a peasant's play of some kind and shape at rank r makes every option of
  that kind and shape below r unsafe; a peasant's bomb, every non-bomb and
  every lower bomb; the rocket, everything but the rocket). Solved again,
  with the last split as a hint, until a split passes or none is left.
- ``eager``: every option's safety is computed up front and the model is
  solved once.

``eager`` is the default: answering "can a peasant beat this?" costs about a
microsecond per option (a 20-card hand has 40 to 80 options), while every
extra CP-SAT round costs milliseconds of fixed overhead, so one solve with
all the safety known wins (figures in benchmarks/solve.py and docs/speed.md).
"""

from __future__ import annotations

import time
from functools import cache
from importlib.metadata import version

from ortools.sat.python import cp_model

from cpsolver.rules.cards import Deal
from cpsolver.rules.movegen import generator
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring.cpsat.model import FAST_PARAMETERS, SpringModel, options_of
from cpsolver.spring.cpsat.objectives import optimize
from cpsolver.spring.cpsat.safety import Unsafe
from cpsolver.spring.cpsat.strategies import DEFAULT_STRATEGY, STRATEGIES, Strategy
from cpsolver.spring.result import (
    OBJECTIVES,
    SpringResult,
    Step,
    Verdict,
    natural_weights,
    order_plan,
)


def solve(
    deal: Deal,
    rules: RuleSet | None = None,
    strategy: Strategy = DEFAULT_STRATEGY,
    time_limit: float | None = None,
    parameters: dict[str, object] | None = None,
    objective: str = "spring",
    any_plan: bool = False,
) -> SpringResult:
    """Decide whether the landlord of ``deal`` has a spring, with a plan if so.

    The plan of a spring is the natural one (the model minimises
    :func:`~cpsolver.spring.result.plan_rank` as weighted plays): the fewest
    plays of any spring plan, then the most bombs and rockets, then no
    answerable play if it can be helped; unless ``any_plan`` takes the first
    spring found, which is cheaper. ``objective`` ``fewest-answerable`` or ``fewest-plays`` also
    finds a split with the proven fewest answerable plays, or fewest plays,
    and returns it as the plan. ``time_limit`` (seconds, over all rounds)
    turns a solve that runs out of time into ``unknown``; every other verdict
    is exact.
    """
    if objective == "spring":
        return _decide(deal, rules, strategy, time_limit, parameters, any_plan)
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r} (known: {', '.join(OBJECTIVES)})")
    return optimize(deal, rules, objective, time_limit, parameters)


@cache
def ortools_version() -> str:
    """The installed OR-Tools version, for the stats: read once, since reading costs 0.3 ms."""
    return version("ortools")


def _decide(
    deal: Deal,
    rules: RuleSet | None,
    strategy: Strategy,
    time_limit: float | None,
    parameters: dict[str, object] | None,
    any_plan: bool = False,
) -> SpringResult:
    """The spring question itself: one solve (eager) or rounds of cuts (lazy).

    Unless ``any_plan``, the plan's cost under
    :func:`~cpsolver.spring.result.natural_weights` is minimised: eager from
    the start, lazy once a first split has passed. Lazy rounds solve a
    relaxation (only the cuts met so far, and only the answerable plays known
    so far counted), which never costs a spring split more than it truly
    costs; the first minimal split that passes the check costs what it seems,
    so it is the most natural of all spring splits.
    """
    started = time.perf_counter()
    moves = generator(rules)
    options = options_of(deal.landlord, moves)
    model = SpringModel(deal.landlord, options, moves)
    unsafe = Unsafe(options, deal.peasants, moves)
    # Eager minimises from the start; lazy first decides (most deals have no
    # spring, and feasibility rounds are cheaper), then minimises.
    minimizing = not any_plan and strategy == "eager"
    if strategy == "eager":
        unsafe.classify_all()
    elif strategy != "lazy":
        raise ValueError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
    weights = natural_weights(deal.landlord)

    def minimize() -> None:
        """Each option's cost under the natural order, as far as its safety is known."""
        known = unsafe.known
        model.minimize_cost(
            [weights.cost(option.kind, o not in known) for o, option in enumerate(options)]
        )

    if minimizing:
        minimize()
    settings = parameters if parameters is not None else FAST_PARAMETERS
    stats: dict[str, object] = {
        "engine": "cpsat",
        "strategy": strategy,
        "plan": "any" if any_plan else "fewest",
        "options": len(options),
        "ortools": ortools_version(),
    }
    verdict = Verdict.UNKNOWN
    plan: list[Step] = []
    hint: list[int] | None = None
    rounds = cuts = 0
    new = set(unsafe.known)  # eager: every unsafe option; lazy: none yet
    while True:
        remaining = None if time_limit is None else time_limit - (time.perf_counter() - started)
        if remaining is not None and remaining <= 0:
            break  # out of time before this round: unknown
        if new:
            model.allow_one_of(sorted(unsafe.known))
            cuts += 1
            if minimizing and strategy == "lazy":
                minimize()  # the newly answerable options now cost what they do
        rounds += 1
        status, counts, plays = model.solve(remaining, settings, hint)
        if status == cp_model.INFEASIBLE:
            verdict = Verdict.NO_SPRING
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break  # out of time: unknown, never a guess
        used = [o for o, n in enumerate(counts) for _ in range(n)]
        new = unsafe.check(sorted(set(used)))
        if not new and not any_plan and not minimizing:
            minimizing = True  # a spring exists: now the most natural one
            minimize()
            hint = counts
            continue
        if not new:
            verdict = Verdict.SPRING
            steps = [Step(play, o not in unsafe.known) for play, o in zip(plays, used)]
            plan = order_plan(steps)
            if status != cp_model.OPTIMAL:  # a spring all the same, but maybe not the shortest
                stats["plan"] = "any"
            break
        hint = counts
    stats.update(
        rounds=rounds,
        cuts=cuts,
        unsafe_classes=len(unsafe.known),
        seconds=round(time.perf_counter() - started, 6),
    )
    return SpringResult(verdict, plan, stats)
