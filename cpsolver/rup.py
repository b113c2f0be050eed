"""A small checker of DRUP refutations: each lemma must follow by unit propagation.

For every lemma of the proof, in order: assume the negation of each of its
literals, propagate unit clauses over the formula and the lemmas accepted so
far, and require a conflict; then accept the lemma. The proof is a refutation
when it accepts the empty clause. Deletion lines (``d ...``) are ignored:
keeping a clause that is implied anyway can never make a wrong lemma pass.

>>> check_refutation([[1, 2], [-1, 2], [1, -2], [-1, -2]], parse_proof(["-2 0", "1 0", "0"]))
>>> check_refutation([[1, 2]], parse_proof(["0"]))
'lemma 1 (the empty clause) does not follow by unit propagation'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

Clause = list[int]


def parse_proof(lines: Iterable[str]) -> list[Clause]:
    """The lemmas of a DRUP proof in text form, deletions dropped; ValueError on a bad line."""
    lemmas = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith(("c", "d")):
            continue
        try:
            literals = [int(token) for token in text.split()]
        except ValueError:
            raise ValueError(f"proof line {number} is not a clause: {text!r}") from None
        if not literals or literals[-1] != 0 or 0 in literals[:-1]:
            raise ValueError(
                f"proof line {number} does not end its clause with a single 0: {text!r}"
            )
        lemmas.append(literals[:-1])
    return lemmas


class _Database:
    """Clauses for unit propagation, each watched by two of its literals.

    A clause is only looked at when one of its two watched literals turns
    false; it then either finds another literal to watch, or is unit (its
    other watch is forced) or in conflict. Watches need no undoing between
    calls, since any two literals are a valid watch of an unassigned clause.
    """

    def __init__(self, clauses: Iterable[Clause]) -> None:
        self.clauses: list[Clause] = []
        self.watches: dict[int, list[int]] = defaultdict(list)  # literal -> clause numbers
        self.short: list[Clause] = []  # empty and unit clauses, propagated first
        for clause in clauses:
            self.add(clause)

    def add(self, clause: Clause) -> None:
        literals = list(dict.fromkeys(clause))  # a repeated literal is one literal
        if len(literals) <= 1:
            self.short.append(literals)
            return
        index = len(self.clauses)
        self.clauses.append(literals)
        self.watches[literals[0]].append(index)
        self.watches[literals[1]].append(index)

    def conflicts(self, assumed: Iterable[int]) -> bool:
        """Whether assuming these literals true and propagating units reaches a conflict."""
        true: set[int] = set()
        trail: list[int] = []

        def assign(literal: int) -> bool:  # False on a conflict
            if -literal in true:
                return False
            if literal not in true:
                true.add(literal)
                trail.append(literal)
            return True

        if not all(assign(literal) for literal in assumed):
            return True
        for clause in self.short:
            if not clause or not assign(clause[0]):
                return True
        position = 0
        while position < len(trail):
            false = -trail[position]
            position += 1
            watching = self.watches[false]
            kept: list[int] = []
            for n, index in enumerate(watching):
                clause = self.clauses[index]
                if clause[0] == false:  # keep the false watch in slot 1
                    clause[0], clause[1] = clause[1], clause[0]
                if clause[0] in true:
                    kept.append(index)
                    continue
                for k in range(2, len(clause)):
                    if -clause[k] not in true:  # a literal not false: watch it instead
                        clause[1], clause[k] = clause[k], clause[1]
                        self.watches[clause[1]].append(index)
                        break
                else:
                    kept.append(index)
                    if not assign(clause[0]):  # every literal false
                        self.watches[false] = kept + watching[n + 1 :]
                        return True
            self.watches[false] = kept
        return False


def check_refutation(clauses: list[Clause], lemmas: list[Clause]) -> str | None:
    """None when the lemmas refute the clauses by reverse unit propagation; else the first failure."""
    database = _Database(clauses)
    for number, lemma in enumerate(lemmas, 1):
        if not database.conflicts(-literal for literal in lemma):
            shown = " ".join(map(str, lemma)) if lemma else "the empty clause"
            return f"lemma {number} ({shown}) does not follow by unit propagation"
        if not lemma:
            return None
        database.add(lemma)
    return "the proof never derives the empty clause"
