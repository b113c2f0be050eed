"""The CP-SAT model: the landlord's cards split into plays, at most one of them unsafe.

Variables are per *option*: one class of play the landlord's hand can make
(a kind, a shape and a rank; see ``MoveGenerator.representatives``). An
option's core is counted by ``uses[o]``; its kickers, which never change who
can answer, are separate variables ``kickers[o][r]`` — so ``KKK`` with any of
ten kickers is one option, not ten. Order is left out of the model: a split
with at most one unsafe play is a spring once that play is put last.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from ortools.sat.python import cp_model

from cpsolver.cards import BLACK_JOKER, RANK_COUNT, RED_JOKER, Hand, Rank
from cpsolver.movegen import MoveGenerator
from cpsolver.plays import Kind, Pattern, Play, kicker_limit
from cpsolver.rules import RuleSet

# Parameters measured in benchmarks/solve.py (--defaults): on models this
# small, solving is dominated by fixed overhead; one worker with probing,
# linearization and inprocessing off has about the defaults' median and a
# two- to threefold lower p99. Presolve and symmetry detection off cut the
# native solve's median about threefold more (0.86 to 0.22 ms on uniform
# full deals, 1.8 to 0.56 ms on spring-likely ones): the model is already
# tight, and presolve only re-derives it. One worker and a fixed seed also
# make verdicts and plans reproducible, which several workers racing never are.
FAST_PARAMETERS: dict[str, object] = {
    "num_workers": 1,
    "random_seed": 0,
    "cp_model_probing_level": 0,
    "linearization_level": 0,
    "use_sat_inprocessing": False,
    "cp_model_presolve": False,
    "symmetry_level": 0,
}
# The objectives (fewest plays, fewest answerable plays) prove an optimum over
# every split, where the LP relaxation's bound pays: linearization level 1
# halves their median (benchmarks/solve.py).
OPTIMIZE_PARAMETERS: dict[str, object] = {**FAST_PARAMETERS, "linearization_level": 1}


def new_model() -> cp_model.CpModel:
    """An empty model, without the deprecated camel-case aliases ``CpModel()`` attaches.

    Attaching them walks every method of the class: about 0.1 ms a model, more
    than building the whole spring model. Falls back to ``CpModel()`` on an
    OR-Tools whose model is built differently.
    """
    base = cp_model.CpModel.__mro__[1]
    if base is object or not hasattr(cp_model.CpModel, "_add_pre_pep8_methods"):
        return cp_model.CpModel()
    model = cp_model.CpModel.__new__(cp_model.CpModel)
    base.__init__(model, None)  # type: ignore[misc]
    return model


@cache
def _kicker_limits(rules: RuleSet, pattern: Pattern, low: Rank, top: Rank) -> tuple[int, ...]:
    """:func:`kicker_limit` for every rank, beside the core ``low..top``: asked per model."""
    return tuple(kicker_limit(rules, pattern, low, top, r) for r in range(RANK_COUNT))


@dataclass(frozen=True)
class Option:
    """One class of play the landlord can make: a core, and kickers of a given shape."""

    representative: Play
    core: tuple[int, ...]  # cards of each rank in the core
    kicker_size: int  # 1 singles, 2 pairs, 0 none
    kicker_count: int  # how many kickers one use carries
    most_uses: int

    @property
    def kind(self) -> Kind:
        """The kind of the option's plays."""
        return self.representative.kind


def options_of(hand: Hand, moves: MoveGenerator) -> list[Option]:
    """Every option of ``hand`` under the generator's rules."""
    found = []
    for play in moves.representatives(hand):
        pattern = moves.pattern_of(play)
        core = [0] * RANK_COUNT
        if pattern is None:  # the rocket
            core[BLACK_JOKER] = core[RED_JOKER] = 1
            size = count = 0
            most = 1
        else:
            low = play.rank - play.chain + 1
            for r in range(low, play.rank + 1):
                core[r] = pattern.width
            size, count = pattern.kicker_size, pattern.kickers_per_link * play.chain
            most = min(hand.counts[low : play.rank + 1]) // pattern.width
        found.append(Option(play, tuple(core), size, count, most))
    return found


class SpringModel:
    """The landlord's hand as a sum of options' cores and kickers; cuts added as found.

    With ``cover_all`` (the spring question) every card is in exactly one play;
    without it, plays are only disjoint (``usage[r] <= hand[r]``), and callers
    ask for the cards they need covered (:mod:`cpsolver.cpsat.explain`).
    """

    def __init__(
        self,
        hand: Hand,
        options: list[Option],
        moves: MoveGenerator,
        cover_all: bool = True,
        model: cp_model.CpModel | None = None,
    ) -> None:
        self.hand = hand
        self.options = options
        # A second split can live in the same model (``model``): two questions, one solve.
        self.model = model if model is not None else new_model()
        self.solver: cp_model.CpSolver | None = None  # the last solve's, for its values
        self._rules = moves.rules
        self._patterns = [moves.pattern_of(option.representative) for option in options]
        self.uses: list[cp_model.IntVar] = []
        self.kickers: list[dict[Rank, cp_model.IntVar]] = []
        self.usage: list[cp_model.LinearExprT] = []
        self._add_option_variables()
        self._add_kicker_constraints()
        self._add_card_constraints(cover_all)

    def _add_option_variables(self) -> None:
        for index, option in enumerate(self.options):
            self.uses.append(self.model.new_int_var(0, option.most_uses, f"use_{index}"))

    def _add_kicker_constraints(self) -> None:
        """Kickers of each option: the right number, of ranks off its core, by the rules."""
        for index, option in enumerate(self.options):
            chosen: dict[Rank, cp_model.IntVar] = {}
            if option.kicker_size:
                size, count = option.kicker_size, option.kicker_count
                pattern = self._patterns[index]
                assert pattern is not None
                play = option.representative
                limits = _kicker_limits(self._rules, pattern, play.rank - play.chain + 1, play.rank)
                counts = self.hand.counts
                for r in range(RANK_COUNT):
                    # The rule set's kicker limits (distinct kickers, never the core's ranks).
                    most = min(limits[r], counts[r] // size)
                    if most:
                        chosen[r] = self.model.new_int_var(0, most, f"kicker_{index}_{r}")
                # Kicker options have a width-3 or -4 core: used at most once.
                total = cp_model.LinearExpr.sum(list(chosen.values()))
                self.model.add(total == count * self.uses[index])
                if (
                    size == 1
                    and not self._rules.both_jokers_as_kickers
                    and BLACK_JOKER in chosen
                    and RED_JOKER in chosen
                ):
                    # Rule "never both jokers as kickers".
                    self.model.add(chosen[BLACK_JOKER] + chosen[RED_JOKER] <= 1)
            self.kickers.append(chosen)

    def _add_card_constraints(self, cover_all: bool) -> None:
        """Every card of the hand in exactly one play (or, short of ``cover_all``, at most one)."""
        variables: list[list[cp_model.IntVar]] = [[] for _ in range(RANK_COUNT)]
        weights: list[list[int]] = [[] for _ in range(RANK_COUNT)]
        for o, option in enumerate(self.options):
            use = self.uses[o]
            for r, width in enumerate(option.core):
                if width:
                    variables[r].append(use)
                    weights[r].append(width)
            for r, variable in self.kickers[o].items():
                variables[r].append(variable)
                weights[r].append(option.kicker_size)
        for r in range(RANK_COUNT):
            usage = cp_model.LinearExpr.weighted_sum(variables[r], weights[r])
            self.usage.append(usage)
            if cover_all:
                self.model.add(usage == self.hand[r])
            else:
                self.model.add(usage <= self.hand[r])

    def minimize_plays(self, among: Iterable[int] | None = None) -> None:
        """The objective: as few plays as possible (of the options ``among``, if given)."""
        chosen = range(len(self.options)) if among is None else among
        self.model.minimize(cp_model.LinearExpr.sum([self.uses[o] for o in chosen]))

    def allow_one_of(self, unsafe: Iterable[int]) -> None:
        """The cut: at most one play in all from these (unsafe) options."""
        self.model.add(cp_model.LinearExpr.sum([self.uses[o] for o in unsafe]) <= 1)

    def spring_flag(self, unsafe: Iterable[int]) -> cp_model.IntVar:
        """A boolean that may be true only if this split has at most one play from ``unsafe``."""
        flag = self.model.new_bool_var("spring")
        self.model.add(sum(self.uses[o] for o in unsafe) <= 1).only_enforce_if(flag)
        return flag

    def solve(
        self, time_limit: float | None, parameters: dict[str, object], hint: list[int] | None = None
    ) -> tuple[cp_model.CpSolverStatus, list[int], list[Play]]:
        """Solve; returns the status, each option's use count and the plays of the split."""
        if hint is not None:
            self.model.clear_hints()  # type: ignore[no-untyped-call]
            for variable, count in zip(self.uses, hint):
                self.model.add_hint(variable, count)
        solver = cp_model.CpSolver()
        # Ctrl-C is the caller's: CP-SAT's own handler would swallow it and leave none behind.
        solver.parameters.catch_sigint_signal = False
        for name, value in parameters.items():
            setattr(solver.parameters, name, value)
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
        status = solver.solve(self.model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return status, [], []
        self.solver = solver
        return status, *self.split_of(solver)

    def split_of(self, solver: cp_model.CpSolver) -> tuple[list[int], list[Play]]:
        """Each option's use count in a solved model, and the plays of that split."""
        counts = [solver.value(use) for use in self.uses]
        return counts, self._extract(solver, counts)

    def _extract(self, solver: cp_model.CpSolver, counts: list[int]) -> list[Play]:
        plays = []
        for o, option in enumerate(self.options):
            for _ in range(counts[o]):
                cards = list(option.core)
                for r, variable in self.kickers[o].items():
                    cards[r] += option.kicker_size * solver.value(variable)
                play = option.representative
                plays.append(Play(play.kind, play.rank, play.chain, Hand(cards)))
        return plays
