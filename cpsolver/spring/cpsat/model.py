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
from typing import NamedTuple

from ortools.sat.python import cp_model, cp_model_helper

from cpsolver.rules.cards import BLACK_JOKER, RANK_COUNT, RED_JOKER, Hand, Rank
from cpsolver.rules.movegen import MoveGenerator
from cpsolver.rules.plays import Kind, Play, kicker_limits

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
# halves their median. The LP's cut generators do not: on uniform full deals
# they cost more than they prune, and with them off the median solve of
# fewest-plays falls from 3.0 to 1.7 ms, of fewest-answerable from 1.4 to 1.0,
# with the same optima (120 deals; benchmarks/solve.py times the whole path).
# Adding the LP's constraints at once rather than lazily takes a further 12%
# off the median solve of fewest-plays on full deals (0.91 to 0.81 ms).
OPTIMIZE_PARAMETERS: dict[str, object] = {
    **FAST_PARAMETERS,
    "linearization_level": 1,
    "add_cg_cuts": False,
    "add_mir_cuts": False,
    "add_zero_half_cuts": False,
    "add_clique_cuts": False,
    "add_lin_max_cuts": False,
    "add_rlt_cuts": False,
    "add_lp_constraints_lazily": False,
}


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


class Option(NamedTuple):
    """One class of play the landlord can make: a core, and kickers of a given shape.

    A named tuple, since a hand has dozens and a dataclass costs several
    times as much to make.
    """

    representative: Play
    core: tuple[int, ...]  # cards of each rank in the core
    kicker_size: int  # 1 singles, 2 pairs, 0 none
    kicker_count: int  # how many kickers one use carries
    most_uses: int
    size: int = 0  # cards in one play, kickers included
    cells: tuple[tuple[Rank, int], ...] = ()  # the core's (rank, cards) pairs

    @property
    def kind(self) -> Kind:
        """The kind of the option's plays."""
        return self.representative.kind


# What an option takes from its representative play alone, made once per play
# (plays are interned by the move generator): core, kicker shape, size, cells,
# and the core's ranks and width for counting its uses.
_Shape = tuple[tuple[int, ...], int, int, int, tuple[tuple[Rank, int], ...], int, int, int]
_SHAPES: dict[Play, _Shape] = {}


def _shape(play: Play, moves: MoveGenerator) -> _Shape:
    pattern = moves.pattern_of(play)
    core = [0] * RANK_COUNT
    if pattern is None:  # the rocket
        core[BLACK_JOKER] = core[RED_JOKER] = 1
        size = count = 0
        low, width = BLACK_JOKER, 1
    else:
        low, width = play.rank - play.chain + 1, pattern.width
        core[low : play.rank + 1] = [width] * play.chain
        size, count = pattern.kicker_size, pattern.kickers_per_link * play.chain
    cells = tuple((r, w) for r, w in enumerate(core) if w)
    found = _SHAPES[play] = (
        tuple(core),
        size,
        count,
        sum(core) + size * count,
        cells,
        low,
        cells[-1][0] + 1,
        width,
    )
    return found


def options_of(hand: Hand, moves: MoveGenerator) -> list[Option]:
    """Every option of ``hand`` under the generator's rules."""
    counts = hand.counts
    found = []
    for play in moves.representatives(hand):
        core, size, count, cards, cells, low, stop, width = _SHAPES.get(play) or _shape(play, moves)
        most = min(counts[low:stop]) // width
        found.append(Option(play, core, size, count, most, cards, cells))
    return found


def kicker_rooms(hand: Hand, options: list[Option], moves: MoveGenerator) -> list[dict[Rank, int]]:
    """For each option, the most kickers of each rank one play may carry (ranks with none left out).

    The rule set's kicker limits (distinct kickers, never the core's ranks),
    and no more than the hand holds.
    """
    counts = hand.counts
    rules = moves.rules
    found: list[dict[Rank, int]] = []
    for option in options:
        room: dict[Rank, int] = {}
        size = option.kicker_size
        if size:
            pattern = moves.pattern_of(option.representative)
            assert pattern is not None
            play = option.representative
            limits = kicker_limits(rules, pattern, play.rank - play.chain + 1, play.rank)
            for r in range(RANK_COUNT):
                most = min(limits[r], counts[r] // size)
                if most:
                    room[r] = most
        found.append(room)
    return found


class SpringModel:
    """The landlord's hand as a sum of options' cores and kickers; cuts added as found.

    With ``cover_all`` (the spring question) every card is in exactly one play;
    without it, plays are only disjoint (``usage[r] <= hand[r]``), and callers
    ask for the cards they need covered (:mod:`cpsolver.spring.cpsat.explain`).

    The model is written as protobuf text and read in one call: through
    ``new_int_var`` and ``add`` the same model costs about three times as
    much, which on models this small is as much as solving them. Variables
    are known by their index (``use_index``, ``kicker_index``); ``uses`` and
    ``usage`` give OR-Tools expressions for callers that add constraints.
    """

    def __init__(
        self,
        hand: Hand,
        options: list[Option],
        moves: MoveGenerator,
        cover_all: bool = True,
        model: cp_model.CpModel | None = None,
        rooms: list[dict[Rank, int]] | None = None,
    ) -> None:
        self.hand = hand
        self.options = options
        # A second split can live in the same model (``model``): two questions, one solve.
        self.model = model if model is not None else new_model()
        self.solver: cp_model.CpSolver | None = None  # the last solve's, for its values
        self._rules = moves.rules
        first = len(self.model.proto.variables)
        self.use_index = list(range(first, first + len(options)))
        self.kicker_index: list[dict[Rank, int]] = []
        self._uses: list[cp_model.IntVar] | None = None
        self._usage: list[cp_model.LinearExprT] | None = None
        text = [f"variables{{domain:[0,{option.most_uses}]}}" for option in options]
        if rooms is None:
            rooms = kicker_rooms(hand, options, moves)
        self._add_kickers(text, rooms, first + len(options))
        self._add_cards(text, cover_all)
        _merge(self.model, "".join(text))

    def _add_kickers(self, text: list[str], rooms: list[dict[Rank, int]], next_index: int) -> None:
        """Kickers of each option: the right number, each rank within its room."""
        no_rocket = not self._rules.both_jokers_as_kickers
        constraints = []
        for option, use, room in zip(self.options, self.use_index, rooms):
            chosen: dict[Rank, int] = {}
            if option.kicker_size:
                for r, most in room.items():
                    chosen[r] = next_index
                    next_index += 1
                    text.append(f"variables{{domain:[0,{most}]}}")
                # Kicker options have a width-3 or -4 core, used at most once:
                # the kickers sum to kicker_count * use.
                variables = _joined([*chosen.values(), use])
                coefficients = _joined([*[1] * len(chosen), -option.kicker_count])
                constraints.append(
                    f"constraints{{linear{{vars:[{variables}]"
                    f"coeffs:[{coefficients}]domain:[0,0]}}}}"
                )
                if (
                    option.kicker_size == 1
                    and no_rocket
                    and BLACK_JOKER in chosen
                    and RED_JOKER in chosen
                ):
                    # Rule "never both jokers as kickers".
                    constraints.append(
                        f"constraints{{linear{{vars:[{chosen[BLACK_JOKER]},{chosen[RED_JOKER]}]"
                        "coeffs:[1,1]domain:[0,1]}}"
                    )
            self.kicker_index.append(chosen)
        text += constraints

    def _add_cards(self, text: list[str], cover_all: bool) -> None:
        """Every card of the hand in exactly one play (or, short of ``cover_all``, at most one)."""
        variables: list[list[int]] = [[] for _ in range(RANK_COUNT)]
        weights: list[list[int]] = [[] for _ in range(RANK_COUNT)]
        for option, use, kickers in zip(self.options, self.use_index, self.kicker_index):
            for r, width in enumerate(option.core):
                if width:
                    variables[r].append(use)
                    weights[r].append(width)
            for r, variable in kickers.items():
                variables[r].append(variable)
                weights[r].append(option.kicker_size)
        for r, count in enumerate(self.hand.counts):
            if not count and not variables[r]:
                continue  # 0 == 0
            low = count if cover_all else 0  # every usage is a sum of counts, never below 0
            text.append(
                f"constraints{{linear{{vars:[{_joined(variables[r])}]"
                f"coeffs:[{_joined(weights[r])}]domain:[{low},{count}]}}}}"
            )
        self._weights = weights
        self._variables = variables

    @property
    def uses(self) -> list[cp_model.IntVar]:
        """Each option's use count, as OR-Tools variables."""
        if self._uses is None:
            proto = self.model.proto
            self._uses = [cp_model_helper.IntVar(proto, index) for index in self.use_index]
        return self._uses

    @property
    def usage(self) -> list[cp_model.LinearExprT]:
        """The cards of each rank the split plays, as OR-Tools expressions."""
        if self._usage is None:
            proto = self.model.proto
            self._usage = [
                cp_model.LinearExpr.weighted_sum(
                    [cp_model_helper.IntVar(proto, index) for index in variables], weights
                )
                for variables, weights in zip(self._variables, self._weights)
            ]
        return self._usage

    def minimize_plays(
        self,
        among: Iterable[int] | None = None,
        reward: int | None = None,
        bounds: tuple[int, int] | None = None,
    ) -> None:
        """The objective: as few plays as possible (of the options ``among``, if given).

        ``reward``, a boolean variable's index, is subtracted: maximised alongside.
        ``bounds`` (low, high) are known bounds on the objective's value.
        """
        chosen = self.use_index if among is None else [self.use_index[o] for o in among]
        coefficients = [1] * len(chosen)
        if reward is not None:
            chosen, coefficients = [*chosen, reward], [*coefficients, -1]
        domain = "" if bounds is None else f"domain:[{bounds[0]},{bounds[1]}]"
        self.model.proto.clear_objective()
        _merge(
            self.model,
            f"objective{{vars:[{_joined(chosen)}]coeffs:[{_joined(coefficients)}]{domain}}}",
        )

    def minimize_cost(self, costs: list[int]) -> None:
        """The objective: the least sum of ``costs[o]`` over the plays of each option ``o``."""
        self.model.proto.clear_objective()
        _merge(
            self.model,
            f"objective{{vars:[{_joined(self.use_index)}]coeffs:[{_joined(costs)}]}}",
        )

    def allow_one_of(self, unsafe: Iterable[int]) -> None:
        """The cut: at most one play in all from these (unsafe) options."""
        chosen = [self.use_index[o] for o in unsafe]
        _merge(
            self.model,
            f"constraints{{linear{{vars:[{_joined(chosen)}]coeffs:[{_ones(chosen)}]domain:[0,1]}}}}",
        )

    def spring_flag(self, unsafe: Iterable[int]) -> int:
        """The index of a boolean that may be true only if this split has at most one play
        from ``unsafe``."""
        flag = len(self.model.proto.variables)
        chosen = [self.use_index[o] for o in unsafe]
        _merge(
            self.model,
            f"variables{{domain:[0,1]}}constraints{{enforcement_literal:[{flag}]"
            f"linear{{vars:[{_joined(chosen)}]coeffs:[{_ones(chosen)}]domain:[0,1]}}}}",
        )
        return flag

    def solve(
        self, time_limit: float | None, parameters: dict[str, object], hint: list[int] | None = None
    ) -> tuple[cp_model.CpSolverStatus, list[int], list[Play]]:
        """Solve; returns the status, each option's use count and the plays of the split."""
        proto = self.model.proto
        if hint is not None:
            proto.clear_solution_hint()
            _merge(
                self.model,
                f"solution_hint{{vars:[{_joined(self.use_index)}]values:[{_joined(hint)}]}}",
            )
        solver = cp_model.CpSolver()
        solver.parameters = solver_parameters(parameters, time_limit)
        status = solver.solve(self.model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return status, [], []
        self.solver = solver
        return status, *self.split_of(solver)

    def split_of(self, solver: cp_model.CpSolver) -> tuple[list[int], list[Play]]:
        """Each option's use count in a solved model, and the plays of that split."""
        values = list(solver.response_proto.solution)
        counts = [values[index] for index in self.use_index]
        return counts, self._extract(values, counts)

    def _extract(self, values: list[int], counts: list[int]) -> list[Play]:
        plays = []
        for o, option in enumerate(self.options):
            for _ in range(counts[o]):
                cards = list(option.core)
                for r, variable in self.kicker_index[o].items():
                    cards[r] += option.kicker_size * values[variable]
                play = option.representative
                plays.append(Play(play.kind, play.rank, play.chain, Hand(cards)))
        return plays


def _joined(numbers: Iterable[int]) -> str:
    return ",".join(map(str, numbers))


def _ones(items: list[int]) -> str:
    return ",".join("1" * len(items))


def _merge(model: cp_model.CpModel, text: str) -> None:
    """Add protobuf text to the model; OR-Tools only logs a parse error, so it is raised here."""
    if not model.proto.merge_text_format(text):
        raise RuntimeError(f"CP-SAT could not read the model text: {text[:200]}")


_PARAMETERS: dict[tuple[tuple[str, object], ...], cp_model_helper.SatParameters] = {}


def solver_parameters(
    parameters: dict[str, object], time_limit: float | None = None
) -> cp_model_helper.SatParameters:
    """CP-SAT's parameters from a dictionary of fields, made once per dictionary's contents."""
    key = tuple(sorted(parameters.items(), key=lambda item: item[0]))
    known = _PARAMETERS.get(key)
    if known is None:
        known = cp_model_helper.SatParameters()
        # Ctrl-C is the caller's: CP-SAT's own handler would swallow it and leave none behind.
        known.catch_sigint_signal = False
        for name, value in parameters.items():
            setattr(known, name, value)
        _PARAMETERS[key] = known
    if time_limit is None:
        return known
    limited = cp_model_helper.SatParameters()
    limited.copy_from(known)
    limited.max_time_in_seconds = max(time_limit, 0.001)
    return limited
