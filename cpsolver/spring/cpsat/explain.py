"""Why there is no spring: a small set of the landlord's cards that cannot all be played.

A set S of the landlord's cards is *blocking* when no collection of disjoint
plays from his hand covers every card of S with at most one of those plays
answerable. If such an S exists there is no spring, since a spring's plays
would cover it. CP-SAT finds one from an infeasible core over assumption
literals (one per card of the hand, "this card is covered", plus one for "at
most one answerable play"); deletion then shrinks it until it is irreducible:
without any one of its cards, the rest can be covered.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from cpsolver.rules.cards import RANK_COUNT, Deal, Hand, Rank, rank_symbol
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring.cpsat.model import FAST_PARAMETERS, SpringModel, options_of


@dataclass
class Carrier:
    """One class of play that could carry a blocking card, and why it does not help."""

    play: Play  # an example of the class that holds the card
    answers: list[tuple[int, Play]]  # (peasant, a play that beats it), empty when safe

    def as_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "play": str(self.play),
            "kind": self.play.kind.value,
            "safe": not self.answers,
            "answered_by": [{"peasant": n, "with": str(p)} for n, p in self.answers],
        }

    def __str__(self) -> str:
        if self.answers:
            peasant, answer = self.answers[0]
            return f"{self.play} (peasant {peasant} answers with {answer})"
        return f"{self.play} (safe, but then the rest cannot be covered)"


@dataclass
class Explanation:
    """Blocking cards and, for each, the plays that could carry it; empty for a spring."""

    blocking: Hand | None
    carriers: dict[Rank, list[Carrier]] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form printed by ``cpsolver explain --json``."""
        return {
            "verdict": "spring" if self.blocking is None else "no_spring",
            "blocking": None if self.blocking is None else str(self.blocking),
            "cards": [
                {"card": rank_symbol(r), "carriers": [c.as_dict() for c in carriers]}
                for r, carriers in self.carriers.items()
            ],
            "stats": self.stats,
        }


class _CoverModel:
    """Which cards of the hand can be covered by disjoint plays, at most one answerable."""

    def __init__(self, deal: Deal, rules: RuleSet | None) -> None:
        moves = generator(rules)
        hand = deal.landlord
        options = options_of(hand, moves)
        self.spring = SpringModel(hand, options, moves, cover_all=False)
        model = self.spring.model
        unsafe = [
            o
            for o, option in enumerate(options)
            if any(moves.can_answer(p, option.representative) for p in deal.peasants)
        ]
        self.one_answerable = model.new_bool_var("at_most_one_answerable")
        model.add(sum(self.spring.uses[o] for o in unsafe) <= 1).only_enforce_if(
            self.one_answerable
        )
        # covered[r][j - 1]: at least j cards of rank r are covered.
        self.covered: list[list[cp_model.IntVar]] = []
        for r in range(RANK_COUNT):
            literals = []
            for j in range(1, hand[r] + 1):
                literal = model.new_bool_var(f"cover_{rank_symbol(r)}_{j}")
                model.add(self.spring.usage[r] >= j).only_enforce_if(literal)
                literals.append(literal)
            self.covered.append(literals)
        self.solves = 0

    def coverable(self, cards: list[int]) -> tuple[bool, list[int]]:
        """Whether ``cards`` (a count per rank) can be covered; if not, a core as counts."""
        model = self.spring.model
        model.clear_assumptions()
        chosen = [self.one_answerable] + [
            literal for r in range(RANK_COUNT) for literal in self.covered[r][: cards[r]]
        ]
        model.add_assumptions(chosen)
        solver = cp_model.CpSolver()
        # Ctrl-C is the caller's: CP-SAT's own handler would swallow it and leave none behind.
        solver.parameters.catch_sigint_signal = False
        for name, value in FAST_PARAMETERS.items():
            setattr(solver.parameters, name, value)
        self.solves += 1
        status = solver.solve(model)
        if status != cp_model.INFEASIBLE:
            return True, []
        in_core = set(solver.sufficient_assumptions_for_infeasibility())
        core = [0] * RANK_COUNT
        for r in range(RANK_COUNT):
            for j, literal in enumerate(self.covered[r], 1):
                if literal.index in in_core:
                    core[r] = max(core[r], j)
        return False, core


def blocking_cards(deal: Deal, rules: RuleSet | None = None) -> tuple[Hand | None, int]:
    """An irreducible blocking set of the landlord's cards (None if spring), and the solves used."""
    model = _CoverModel(deal, rules)
    coverable, core = model.coverable(list(deal.landlord.counts))
    if coverable:
        return None, model.solves
    blocking = core
    # Deletion: drop one card at a time while the rest still cannot be covered.
    for r in range(RANK_COUNT):
        while blocking[r]:
            smaller = blocking.copy()
            smaller[r] -= 1
            if model.coverable(smaller)[0]:
                break  # this card is needed
            blocking = smaller
    return Hand(blocking), model.solves


def explain(deal: Deal, rules: RuleSet | None = None) -> Explanation:
    """Blocking cards of a deal with no spring, and the plays that could carry each."""
    started = time.perf_counter()
    blocking, solves = blocking_cards(deal, rules)
    explanation = Explanation(blocking)
    if blocking is not None:
        moves = generator(rules)
        every = moves.plays(deal.landlord)
        for r in range(RANK_COUNT):
            if not blocking[r]:
                continue
            seen: set[tuple[object, Rank]] = set()
            carriers = []
            for play in every:
                if play.cards[r] and (play.family, play.rank) not in seen:
                    seen.add((play.family, play.rank))
                    answers = [
                        (number, found[0])
                        for number, peasant in enumerate(deal.peasants, 1)
                        if (found := moves.answers(peasant, play))
                    ]
                    carriers.append(Carrier(play, answers))
            explanation.carriers[r] = carriers
    explanation.stats = {
        "engine": "cpsat",
        "solves": solves,
        "seconds": round(time.perf_counter() - started, 6),
    }
    return explanation
