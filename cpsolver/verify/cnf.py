"""The CNF encoder of certificates: "these landlord cards can be covered" as clauses.

Encoder ``cover-cnf-1``, for a deal and a set S of the landlord's cards. Its
variables mirror the CP-SAT model, so that kicker choices do not multiply:

- for each class of play the landlord's hand can make (one kind, shape and
  rank: ``MoveGenerator.representatives``), a variable per copy of its core
  that the hand could hold (two singles of one rank are two copies), each
  copy implying the one before;
- for a class with kickers, a variable per kicker each rank could give it (as
  many as the rule set's kicker limits allow: one per rank under distinct
  kickers, none from a core rank), each implying the core and the rank's
  previous one; if the core is used, exactly as many kickers as it needs;
  never both jokers as single kickers unless the rules allow it;
- for each rank r: at most ``hand[r]`` cards of r in all the chosen cores and
  kickers (the plays are disjoint), and at least ``S[r]`` (S is covered);
- at most one chosen core that a peasant can answer (kickers never change who
  can answer).

A count of cards is a count over variables, each repeated as many times as it
stands for cards of that rank. "At most k" is Sinz's sequential counter;
"at least k" is its mirror: a register r(i, j) that may be true only if at
least j of the first i inputs are, asserted at (n, k).

The formula is satisfiable exactly when S can be covered by disjoint plays
with at most one answerable: so a refutation proves that S blocks every spring.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from cpsolver.rules.cards import BLACK_JOKER, RANK_COUNT, RED_JOKER, Deal, Hand, rank_symbol
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import kicker_limit
from cpsolver.rules.ruleset import RuleSet

ENCODER = "cover-cnf-1"
Clause = list[int]


@dataclass
class CoverCnf:
    """Clauses over variables 1..``variables``; ``names[v - 1]`` says what variable v means."""

    names: list[str] = field(default_factory=list)
    clauses: list[Clause] = field(default_factory=list)

    @property
    def variables(self) -> int:
        """How many variables the formula has."""
        return len(self.names)

    def new_variable(self, name: str = "counter") -> int:
        """A fresh variable, named for the DIMACS comments."""
        self.names.append(name)
        return len(self.names)

    def dimacs(self, comments: Sequence[str] = ()) -> str:
        """The formula in DIMACS CNF, its non-counter variables named in comments."""
        lines = [f"c {text}" for text in comments]
        lines += [
            f"c variable {v}: {name}" for v, name in enumerate(self.names, 1) if name != "counter"
        ]
        lines.append(f"p cnf {self.variables} {len(self.clauses)}")
        lines += [" ".join(map(str, clause)) + " 0" for clause in self.clauses]
        return "\n".join(lines) + "\n"


def at_most(cnf: CoverCnf, inputs: list[int], k: int) -> None:
    """At most ``k`` of ``inputs`` true (Sinz's sequential counter; inputs may repeat)."""
    n = len(inputs)
    if k >= n:
        return
    if k == 0:
        cnf.clauses.extend([-x] for x in inputs)
        return
    # s[i][j]: at least j + 1 of inputs[0..i] are true (implied upwards only).
    s = [[cnf.new_variable() for _ in range(k)] for _ in range(n - 1)]
    cnf.clauses.append([-inputs[0], s[0][0]])
    cnf.clauses.extend([-s[0][j]] for j in range(1, k))
    for i in range(1, n - 1):
        x = inputs[i]
        cnf.clauses.append([-x, s[i][0]])
        cnf.clauses.append([-s[i - 1][0], s[i][0]])
        for j in range(1, k):
            cnf.clauses.append([-x, -s[i - 1][j - 1], s[i][j]])
            cnf.clauses.append([-s[i - 1][j], s[i][j]])
        cnf.clauses.append([-x, -s[i - 1][k - 1]])
    cnf.clauses.append([-inputs[n - 1], -s[n - 2][k - 1]])


def at_least(cnf: CoverCnf, inputs: list[int], k: int, when: int | None = None) -> None:
    """At least ``k`` of ``inputs`` true, or only ``when`` that literal is (inputs may repeat).

    The sequential counter's mirror: registers r(i, j) are only allowed true
    when at least j of the first i inputs are, and r(n, k) is asserted.
    """
    guard = [] if when is None else [-when]
    if k <= 0:
        return
    if k > len(inputs):
        cnf.clauses.append(guard)  # cannot be met: the empty clause, or "not when"
        return
    # r[i][j]: true only if at least j + 1 of inputs[0..i] are true.
    r = [[cnf.new_variable() for _ in range(k)] for _ in inputs]
    cnf.clauses.append([-r[0][0], inputs[0]])
    cnf.clauses.extend([-r[0][j]] for j in range(1, k))
    for i in range(1, len(inputs)):
        cnf.clauses.append([-r[i][0], r[i - 1][0], inputs[i]])
        for j in range(1, k):
            cnf.clauses.append([-r[i][j], r[i - 1][j], inputs[i]])
            cnf.clauses.append([-r[i][j], r[i - 1][j], r[i - 1][j - 1]])
    cnf.clauses.append([*guard, r[-1][k - 1]])


def encode(deal: Deal, blocking: Hand, rules: RuleSet | None = None) -> CoverCnf:
    """The ``cover-cnf-1`` formula of ``blocking`` in ``deal``: satisfiable iff it can be covered."""
    moves = generator(rules)
    hand = deal.landlord
    cnf = CoverCnf()
    cards: list[list[int]] = [[] for _ in range(RANK_COUNT)]  # inputs of each rank's count
    answerable: list[int] = []
    for play in moves.representatives(hand):
        pattern = moves.pattern_of(play)
        core = [0] * RANK_COUNT
        if pattern is None:  # the rocket
            core[BLACK_JOKER] = core[RED_JOKER] = 1
        else:
            for r in range(play.rank - play.chain + 1, play.rank + 1):
                core[r] = pattern.width
        copies = min(hand[r] // count for r, count in enumerate(core) if count)
        label = f"{play.kind.value} {rank_symbol(play.rank)} x{play.chain}, {play.size} cards"
        uses = [cnf.new_variable(f"core of {label}, copy {n}") for n in range(1, copies + 1)]
        cnf.clauses.extend([-later, earlier] for earlier, later in itertools.pairwise(uses))
        unsafe = any(moves.can_answer(peasant, play) for peasant in deal.peasants)
        for use in uses:
            for r, count in enumerate(core):
                cards[r].extend([use] * count)
            if unsafe:
                answerable.append(use)
        if pattern is None or not pattern.kicker_size:
            continue
        size, wanted = pattern.kicker_size, pattern.kickers_per_link * play.chain
        kickers, jokers = [], []
        low, top = play.rank - play.chain + 1, play.rank
        for r in range(RANK_COUNT):
            # The rule set's kicker limits (distinct kickers, never the core's ranks).
            most = min(kicker_limit(moves.rules, pattern, low, top, r), hand[r] // size, wanted)
            given = [cnf.new_variable(f"kicker {rank_symbol(r)} of {label}") for _ in range(most)]
            cnf.clauses.extend([-later, earlier] for earlier, later in itertools.pairwise(given))
            for kicker in given:
                cnf.clauses.append([-kicker, uses[0]])  # a kicker only beside its core
                cards[r].extend([kicker] * size)
            kickers += given
            if r in (BLACK_JOKER, RED_JOKER):
                jokers += given
        at_most(cnf, kickers, wanted)
        at_least(cnf, kickers, wanted, when=uses[0])
        if size == 1 and not moves.rules.both_jokers_as_kickers:
            at_most(cnf, jokers, 1)  # rule "never both jokers as kickers"
    for r in range(RANK_COUNT):
        at_most(cnf, cards[r], hand[r])
        at_least(cnf, cards[r], blocking[r])
    at_most(cnf, answerable, 1)
    return cnf
