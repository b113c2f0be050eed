"""Cross-checking spring solvers: ours against each other, and other people's against ours.

Every deal goes to every solver. Every plan a solver offers is checked with
the verifier; decided verdicts must agree with each other and with the
corpus's ``expected``. A disagreement or an invalid plan is shrunk — cards
are taken out of the deal while the solvers still fail the same way — so that
its reproducer is as small as it can be.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from cpsolver.crosscheck import report
from cpsolver.crosscheck.external import ExternalCommand
from cpsolver.crosscheck.report import answer_problems
from cpsolver.crosscheck.report import shrink as shrink_while
from cpsolver.io.dealformat import CorpusEntry, DealFormatError, deal_as_dict
from cpsolver.rules.cards import RANK_COUNT, Deal, Hand
from cpsolver.rules.plays import Play
from cpsolver.rules.ruleset import RuleSet
from cpsolver.scale.parallel import Runner, chunked
from cpsolver.spring.engines import solve_with
from cpsolver.spring.result import OBJECTIVES
from cpsolver.verify.spring import check_plan, check_split

DECIDED = ("spring", "no_spring")


@dataclass
class Answer:
    """One solver's answer to one deal: a verdict, the plan's cards if any, or a problem."""

    solver: str
    verdict: str | None
    plan: list[str] | list[Play] | None  # cards from other solvers, plays (readings) from ours
    seconds: float
    problem: str | None = None
    optima: dict[str, tuple[int, list[Play]]] = field(default_factory=dict)  # value and its split
    stale: list[str] = field(default_factory=list)  # lines discarded while waiting for this answer


class Solver(Protocol):
    """Anything that answers deals: one of our engines, or an external command."""

    name: str

    def answer(self, deal: Deal, deal_id: str) -> Answer: ...

    def close(self) -> None: ...


class EngineSolver:
    """One of our engines; with ``optima``, it also finds both optimum values."""

    def __init__(
        self, engine: str, rules: RuleSet, time_limit: float | None, optima: bool = False
    ) -> None:
        self.name = engine
        self.rules = rules
        self.time_limit = time_limit
        self.objectives = OBJECTIVES[1:] if optima else ()

    def answer(self, deal: Deal, deal_id: str) -> Answer:
        started = time.perf_counter()
        result = solve_with(self.name, deal, self.rules, self.time_limit)
        plan = [step.play for step in result.plan] if result.plan else None
        answer = Answer(self.name, result.verdict.value, plan, 0.0)
        for objective in self.objectives:
            found = solve_with(self.name, deal, self.rules, self.time_limit, objective=objective)
            if found.objective is not None:
                split = [step.play for step in found.plan]
                answer.optima[objective] = (found.objective.value, split)
        answer.seconds = time.perf_counter() - started
        return answer

    def close(self) -> None:
        pass


class CommandSolver(ExternalCommand):
    """An external command speaking the line protocol (``cpsolver.crosscheck.external``)."""

    def answer(self, deal: Deal, deal_id: str) -> Answer:
        reply = self._solver.answer(deal, deal_id)
        return Answer(
            self.name, reply.verdict, reply.plan, reply.seconds, reply.problem, stale=reply.stale
        )


@dataclass
class Finding(report.Finding):
    """A deal on which the solvers failed: what, why, and the shrunk reproducer."""

    deal: Deal
    original: Deal
    verdicts: dict[str, str | None]

    def reproducer(self) -> dict[str, Any]:
        return {
            "deal": deal_as_dict(self.deal),
            "original_deal": deal_as_dict(self.original),
            "verdicts": self.verdicts,
        }


@dataclass
class Summary(report.Tally[Finding]):
    """The counts of a spring cross-check, the time each solver took, and every finding."""

    deals: int = 0
    springs: int = 0

    def counts(self) -> dict[str, Any]:
        """The JSON summary's leading counts, as ``cpsolver crosscheck --json`` prints them."""
        return {
            "deals": self.deals,
            "agreements": self.agreements,
            "disagreements": self.disagreements,
            "invalid_proofs": self.invalid_proofs,
            "unknowns": self.unknowns,
            "springs": self.springs,
        }


def judge(
    deal: Deal, answers: list[Answer], expected: str | None, rules: RuleSet
) -> tuple[str, str] | None:
    """The first failure among these answers, as (kind, reason), or None."""
    for answer in answers:
        if answer.verdict == "spring" and answer.plan is not None:
            failure = check_plan(deal, answer.plan, rules)
            if failure is not None:
                return "invalid proof", f"{answer.solver}'s plan: {failure}"
        if answer.verdict == "no_spring" and answer.plan:
            return "invalid proof", f"{answer.solver} says no_spring but gives a plan"
    for answer in answers:
        for objective, (value, split) in answer.optima.items():
            failure, answerable = check_split(deal, split, rules)
            achieved = answerable if objective == "fewest-answerable" else len(split)
            if failure is not None or achieved != value:
                why = failure or f"it has {achieved}"
                return "invalid proof", f"{answer.solver}'s split for {objective} {value}: {why}"
    decided = [(a.solver, a.verdict) for a in answers if a.verdict in DECIDED]
    if len({verdict for _, verdict in decided}) > 1:
        return "disagreement", ", ".join(f"{name} says {verdict}" for name, verdict in decided)
    for objective in OBJECTIVES[1:]:
        values = [(a.solver, a.optima[objective][0]) for a in answers if objective in a.optima]
        if len({value for _, value in values}) > 1:
            return "disagreement", ", ".join(f"{name} finds {objective} {v}" for name, v in values)
    if expected in DECIDED:
        for name, verdict in decided:
            if verdict != expected:
                return "disagreement", f"expected {expected}, {name} says {verdict}"
    return None


def without_one_card(deal: Deal) -> Iterable[Deal]:
    """Every deal with one card fewer (no hand left empty), the landlord's cards first."""
    for which, hand in enumerate(deal.hands):
        if len(hand) == 1:
            continue
        for rank in range(RANK_COUNT - 1, -1, -1):
            if hand[rank]:
                smaller = list(deal.hands)
                smaller[which] = hand - Hand.from_ranks([rank])
                yield Deal(*smaller)


def shrink(deal: Deal, fails: Callable[[Deal], bool], budget: float | None = None) -> Deal:
    """Take cards out while ``fails`` holds, until no single card can go or ``budget`` s pass.

    Past the budget the smallest failing deal found so far is returned.
    """
    return shrink_while(deal, without_one_card, fails, budget)[0]


def crosscheck(
    entries: Iterable[CorpusEntry | DealFormatError],
    solvers: list[Solver],
    rules: RuleSet,
    progress: Callable[[], None] = lambda: None,
    runner: Runner | None = None,
    shrink_budget: float | None = None,
) -> Summary:
    """Run every deal past every solver; count, compare, verify and shrink.

    With a ``runner``, our engines answer in its workers (in chunks, in any
    order); other solvers, judging and shrinking stay in this process. Each
    finding's shrinking stops after ``shrink_budget`` seconds. Ctrl-C ends
    the run early with the summary so far (``interrupted``).
    """
    summary = Summary([solver.name for solver in solvers])
    summary.run(
        lambda: _check_all(entries, solvers, rules, progress, runner, shrink_budget, summary),
        solvers,
    )
    return summary


def _check_all(
    entries: Iterable[CorpusEntry | DealFormatError],
    solvers: list[Solver],
    rules: RuleSet,
    progress: Callable[[], None],
    runner: Runner | None,
    shrink_budget: float | None,
    summary: Summary,
) -> None:
    ours = [solver for solver in solvers if isinstance(solver, EngineSolver)]
    others = [solver for solver in solvers if not isinstance(solver, EngineSolver)]

    def ask(deal: Deal, deal_id: str) -> list[Answer]:
        return [solver.answer(deal, deal_id) for solver in [*ours, *others]]

    task = _AnswerTask(ours)
    if runner is None:
        answered: Iterable[list[tuple[CorpusEntry | DealFormatError, list[Answer]]]] = (
            task([entry]) for entry in entries
        )
    else:
        answered = runner.run(task, chunked(entries, 16), _lost_chunk(ours))
    for entry, ours_said in (pair for chunk in answered for pair in chunk):
        progress()
        if isinstance(entry, DealFormatError):
            summary.bad_lines.append(str(entry))
            continue
        summary.deals += 1
        answers = ours_said + [solver.answer(entry.deal, entry.id) for solver in others]
        for answer in answers:
            summary.seconds[answer.solver].append(answer.seconds)
            summary.unknowns += answer.verdict == "unknown"
            summary.problems += answer_problems(
                entry.id, answer.solver, answer.problem, answer.stale
            )
        summary.springs += any(a.verdict == "spring" for a in answers)
        failure = judge(entry.deal, answers, entry.expected, rules)
        if failure is None:
            summary.agreements += 1
            continue
        kind, reason = failure
        if kind == "invalid proof":
            summary.invalid_proofs += 1
        else:
            summary.disagreements += 1
        shrunk = entry.deal
        if not reason.startswith("expected "):  # the label is about the original deal only

            def still_fails(deal: Deal, kind: str = kind, deal_id: str = entry.id) -> bool:
                found = judge(deal, ask(deal, f"{deal_id}-shrink"), None, rules)
                return found is not None and found[0] == kind

            shrunk, cut_short = shrink_while(
                entry.deal, without_one_card, still_fails, shrink_budget
            )
            summary.shrinks_cut_short += cut_short
            reason = (judge(shrunk, ask(shrunk, entry.id), None, rules) or failure)[1]
        verdicts = {answer.solver: answer.verdict for answer in ask(shrunk, entry.id)}
        summary.findings.append(Finding(entry.id, kind, reason, shrunk, entry.deal, verdicts))


def _lost_chunk(
    solvers: list[EngineSolver],
) -> Callable[[list[CorpusEntry | DealFormatError], str], list[tuple[Any, list[Answer]]]]:
    """What stands for our engines' answers on a chunk whose worker kept dying: problems."""

    def lost(
        chunk: list[CorpusEntry | DealFormatError], reason: str
    ) -> list[tuple[Any, list[Answer]]]:
        return [
            (
                entry,
                []
                if isinstance(entry, DealFormatError)
                else [Answer(s.name, None, None, 0.0, f"not answered: {reason}") for s in solvers],
            )
            for entry in chunk
        ]

    return lost


@dataclass(frozen=True)
class _AnswerTask:
    """Our engines' answers to a chunk of corpus entries: picklable, for any runner."""

    solvers: list[EngineSolver]

    def __call__(
        self, chunk: list[CorpusEntry | DealFormatError]
    ) -> list[tuple[CorpusEntry | DealFormatError, list[Answer]]]:
        return [
            (
                entry,
                []
                if isinstance(entry, DealFormatError)
                else [s.answer(entry.deal, entry.id) for s in self.solvers],
            )
            for entry in chunk
        ]
