"""The CP-SAT engine's objectives: the fewest plays, or answerable plays, of any split.

Before the model is built, a greedy split bounds the optimum from above and
counting arguments bound it from below (:mod:`cpsolver.spring.cpsat.bounds`). When
they meet, the greedy split is the optimum and CP-SAT is not called; the
stats say so (``"proof": "bounds"``). Otherwise CP-SAT minimises within the
bounds and proves the optimum. (The greedy split as a solution hint was
measured and left out: on full deals it made the median solve a fifth slower.)

``fewest-plays`` also answers the spring question. A greedy split with at most one
answerable play proves a spring, and
the answerable bound above 1 proves none; only when neither settles it does
the model carry a second, independent split whose flag says "spring" in the
same solve (or, with the optimum already known, the solve is the spring
question alone). Either way there is at most one solve.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from cpsolver.rules.cards import Deal, Hand
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring.cpsat.bounds import (
    Use,
    answerable_bound,
    capacities,
    fewest_plays_bound,
    greedy_split,
)
from cpsolver.spring.cpsat.model import (
    FAST_PARAMETERS,
    OPTIMIZE_PARAMETERS,
    Option,
    SpringModel,
    kicker_rooms,
    options_of,
)
from cpsolver.spring.cpsat.safety import Unsafe
from cpsolver.spring.result import Objective, SpringResult, Step, Verdict, order_plan


def optimize(
    deal: Deal,
    rules: RuleSet | None,
    objective: str,
    time_limit: float | None = None,
    parameters: dict[str, object] | None = None,
) -> SpringResult:
    """The proven optimum of ``objective`` (``fewest-plays`` or ``fewest-answerable``) and its split.

    ``time_limit`` (seconds) turns a solve that runs out of time into ``unknown``.
    """
    started = time.perf_counter()
    moves = generator(rules)
    hand = deal.landlord
    options = options_of(hand, moves)
    rooms = kicker_rooms(hand, options, moves)
    unsafe = Unsafe(options, deal.peasants, moves)
    unsafe.classify_all()
    known = unsafe.known
    caps = capacities(options, rooms)
    jokers = moves.rules.both_jokers_as_kickers
    largest_first = sorted(range(len(options)), key=lambda o: -options[o].size)
    safe_first = sorted(largest_first, key=lambda o: o in known)  # stable: larger first in each
    stats: dict[str, object] = {"engine": "cpsat", "strategy": "optimize", "options": len(options)}
    verdict: Verdict | None = None
    if objective == "fewest-answerable":
        best = greedy_split(hand, options, rooms, safe_first, jokers)
        low, high = answerable_bound(hand, options, caps, known), _answerable(best, known)
    else:
        best = greedy_split(hand, options, rooms, largest_first, jokers)
        low = fewest_plays_bound(hand, options, caps, enough=len(best))
        if _answerable(best, known) > 1:
            cautious = greedy_split(hand, options, rooms, safe_first, jokers)
            if _answerable(cautious, known) <= 1:
                verdict, stats["verdict_by"] = Verdict.SPRING, "greedy split"
            elif answerable_bound(hand, options, caps, known) > 1:
                verdict, stats["verdict_by"] = Verdict.NO_SPRING, "bound"
            if len(cautious) < len(best):
                best = cautious
        else:
            verdict, stats["verdict_by"] = Verdict.SPRING, "greedy split"
        high = len(best)
    stats["bounds"] = [low, high]
    plan = _steps(options, best, known)
    if low == high and (verdict is not None or objective == "fewest-answerable"):
        stats["proof"] = "bounds"  # the greedy split meets the lower bound: no solve
    else:
        stats["proof"] = "cp-sat"
        model = SpringModel(hand, options, moves, rooms=rooms)
        flag = None
        settings = OPTIMIZE_PARAMETERS
        if objective == "fewest-answerable" or verdict is not None:
            model.minimize_plays(
                sorted(known) if objective == "fewest-answerable" else None, bounds=(low, high)
            )
        elif low == high:  # the optimum is known: the spring question is all that is left
            model.allow_one_of(sorted(known))
            settings = FAST_PARAMETERS
        else:
            # The verdict from the same solve: a second, independent split of the
            # hand in the same model, whose flag may be true only for a spring.
            # Minimising the plays of the first and maximising the flag of the
            # second are separate parts of one objective, so both are optimal.
            decider = SpringModel(hand, options, moves, model=model.model, rooms=rooms)
            flag = decider.spring_flag(sorted(known))
            model.minimize_plays(reward=flag, bounds=(low - 1, high))
        remaining = None if time_limit is None else time_limit - (time.perf_counter() - started)
        status, counts, plays = model.solve(remaining, parameters or settings)
        if settings is FAST_PARAMETERS:
            if status == cp_model.INFEASIBLE:
                verdict = Verdict.NO_SPRING
            elif status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                verdict = Verdict.SPRING
            stats["verdict_by"] = "cp-sat"
        elif status == cp_model.OPTIMAL:  # only a proven optimum is an answer
            used = [o for o, n in enumerate(counts) for _ in range(n)]
            plan = order_plan([Step(play, o not in known) for play, o in zip(plays, used)])
            if flag is not None:
                assert model.solver is not None
                spring = model.solver.response_proto.solution[flag]
                verdict = Verdict.SPRING if spring else Verdict.NO_SPRING
                stats["verdict_by"] = "cp-sat"
        else:
            verdict, plan = Verdict.UNKNOWN, []
        if verdict is None and objective == "fewest-plays":  # out of time deciding
            verdict, plan = Verdict.UNKNOWN, []
        if verdict is Verdict.UNKNOWN:
            stats["seconds"] = round(time.perf_counter() - started, 6)
            return SpringResult(verdict, [], stats)
    value = sum(not step.safe for step in plan) if objective == "fewest-answerable" else len(plan)
    if objective == "fewest-answerable":
        verdict = Verdict.SPRING if value <= 1 else Verdict.NO_SPRING
    assert verdict is not None
    stats["seconds"] = round(time.perf_counter() - started, 6)
    return SpringResult(verdict, plan, stats, Objective(objective, value))


def _answerable(split: list[Use], unsafe: set[int]) -> int:
    return sum(use.option in unsafe for use in split)


def _steps(options: list[Option], split: list[Use], unsafe: set[int]) -> list[Step]:
    """A split of options as a plan: each use's play, with its kickers."""
    steps = []
    for use in split:
        option = options[use.option]
        play = option.representative
        if option.kicker_size:
            cards = list(option.core)
            for r, count in use.kickers:
                cards[r] += option.kicker_size * count
            play = Play(play.kind, play.rank, play.chain, Hand(cards))
        steps.append(Step(play, use.option not in unsafe))
    return order_plan(steps)
