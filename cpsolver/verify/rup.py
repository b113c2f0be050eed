"""A small checker of DRUP refutations: each lemma must follow by unit propagation.

For every lemma of the proof, in order: assume the negation of each of its
literals, propagate unit clauses over the formula and the lemmas accepted so
far, and require a conflict; then accept the lemma. The proof is a refutation
when it accepts the empty clause. Deletion lines (``d ...``) are ignored:
keeping a clause that is implied anyway can never make a wrong lemma pass.

Checking every lemma that way has a tail: a SAT solver's proof holds many
lemmas the refutation never needs, and each costs a full propagation. So the
maker trims the proof by backward checking (:func:`trim_refutation`) and
hands each kept lemma a *hint*, the clauses its conflict rests on in order
(as LRAT does); the checker follows a hint in time linear in its length, and
falls back to full propagation for a lemma its hint does not show.

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


# Clause visits of full propagation in one check: about ten seconds at most. The
# certificates cpsolver writes need under 100,000 even with their hints left out.
STEPS = 5_000_000


class StepsExceeded(Exception):
    """Full unit propagation passed its budget of clause visits: too costly a proof to check."""


class _Database:
    """Clauses for unit propagation, each watched by two of its literals.

    What unit propagation derives from the clauses alone (no assumption) is
    kept between checks, at "level 0": it holds for every later lemma too,
    so each check propagates only from its own assumptions and then undoes
    just those. A clause satisfied at level 0 is dropped, and literals false
    there are left out of the clauses added after. A conflict at level 0
    makes every later lemma follow.

    A clause is only looked at when one of its two watched literals turns
    false; it then either finds another literal to watch, or is unit (its
    other watch is forced) or in conflict. Watches need no undoing: a watch
    moves only to a literal that is not false, and undoing assignments never
    makes a literal false.
    """

    def __init__(self, clauses: Iterable[Clause], steps: int = STEPS) -> None:
        self.clauses: list[Clause] = []
        self.watches: dict[int, list[int]] = defaultdict(list)  # literal -> clause numbers
        self.true: set[int] = set()  # the literals assigned true, level 0 first
        self.trail: list[int] = []  # the same literals, in the order assigned
        self.inconsistent = False  # unit propagation alone reaches a conflict
        # A clause added twice propagates nothing more; kept once, a proof that
        # repeats a lemma thousands of times costs no more than one that does not.
        self.known: set[frozenset[int]] = set()
        self.steps = steps  # clause visits left before the check gives up (StepsExceeded)
        for clause in clauses:
            self.add(clause)

    def add(self, clause: Clause) -> None:
        """Add a clause at level 0, propagating what it makes unit."""
        if self.inconsistent:
            return
        true = self.true
        literals = list(dict.fromkeys(clause))  # a repeated literal is one literal
        if any(literal in true for literal in literals):
            return  # satisfied for good
        free = [literal for literal in literals if -literal not in true]
        if not free:
            self.inconsistent = True
        elif len(free) == 1:
            start = len(self.trail)
            true.add(free[0])
            self.trail.append(free[0])
            self.inconsistent = self._propagate(start)
        else:
            key = frozenset(free)
            if key in self.known:
                return
            self.known.add(key)
            index = len(self.clauses)
            self.clauses.append(free)
            self.watches[free[0]].append(index)
            self.watches[free[1]].append(index)

    def conflicts(self, assumed: Iterable[int]) -> bool:
        """Whether assuming these literals true and propagating units reaches a conflict."""
        if self.inconsistent:
            return True
        true, trail = self.true, self.trail
        mark = len(trail)
        conflict = False
        for literal in assumed:
            if -literal in true:
                conflict = True
                break
            if literal not in true:
                true.add(literal)
                trail.append(literal)
        if not conflict:
            conflict = self._propagate(mark)
        for literal in trail[mark:]:  # back to level 0
            true.discard(literal)
        del trail[mark:]
        return conflict

    def _propagate(self, position: int) -> bool:
        """Propagate the trail from ``position`` on; True on a conflict."""
        true, trail, clauses, watches = self.true, self.trail, self.clauses, self.watches
        while position < len(trail):
            false = -trail[position]
            position += 1
            watching = watches[false]
            self.steps -= len(watching)
            if self.steps < 0:
                raise StepsExceeded
            kept: list[int] = []
            for n, index in enumerate(watching):
                clause = clauses[index]
                if clause[0] == false:  # keep the false watch in slot 1
                    clause[0], clause[1] = clause[1], clause[0]
                first = clause[0]
                if first in true:
                    kept.append(index)
                    continue
                for k in range(2, len(clause)):
                    if -clause[k] not in true:  # a literal not false: watch it instead
                        clause[1], clause[k] = clause[k], clause[1]
                        watches[clause[1]].append(index)
                        break
                else:
                    kept.append(index)
                    if -first in true:  # every literal false
                        if len(kept) <= n:  # watches moved away: the rest stays watched here
                            watches[false] = kept + watching[n + 1 :]
                        return True
                    true.add(first)
                    trail.append(first)
            watches[false] = kept
        return False


def follows_by_hints(clauses: list[Clause], lemma: Clause, hint: list[int], limit: int) -> bool:
    """Whether the hinted clauses (numbered from 1, below ``limit``) derive a conflict from
    the negated lemma, each unit in turn when its turn comes.

    A hint can only ever show that a lemma follows: every hinted clause must
    be unit or in conflict under what is assigned so far.
    """
    true = {-literal for literal in lemma}
    if any(-literal in true for literal in true):
        return True  # a tautology
    for number in hint:
        if not 1 <= number < limit:
            return False
        unassigned = None
        for literal in clauses[number - 1]:
            if literal in true:
                return False
            if -literal not in true:
                if unassigned is not None and unassigned != literal:
                    return False
                unassigned = literal
        if unassigned is None:
            return True  # every literal false: the conflict
        true.add(unassigned)
    return False


def check_refutation(
    clauses: list[Clause],
    lemmas: list[Clause],
    hints: list[list[int]] | None = None,
    steps: int = STEPS,
) -> str | None:
    """None when the lemmas refute the clauses by reverse unit propagation; else the first failure.

    With ``hints`` (one list per lemma, as :func:`trim_refutation` makes
    them), a lemma is first checked along its hint alone, which costs only
    the hint's length; a lemma whose hint does not show it is checked by full
    unit propagation all the same, so a hint can speed a check up but never
    make a lemma pass or fail. Full propagation visits at most ``steps``
    clauses in all, else :class:`StepsExceeded`: no proof can keep a checker
    busy for long, valid or not.
    """
    accepted = list(clauses)
    database: _Database | None = None  # built only if some lemma needs full propagation
    for number, lemma in enumerate(lemmas, 1):
        hint = hints[number - 1] if hints is not None and number <= len(hints) else None
        if hint is None or not follows_by_hints(accepted, lemma, hint, len(accepted) + 1):
            if database is None:
                database = _Database(accepted, steps)
            if not database.conflicts(-literal for literal in lemma):
                shown = " ".join(map(str, lemma)) if lemma else "the empty clause"
                return f"lemma {number} ({shown}) does not follow by unit propagation"
        if not lemma:
            return None
        accepted.append(lemma)
        if database is not None:
            database.add(lemma)
    return "the proof never derives the empty clause"


class _Tracer:
    """Unit propagation that remembers why each literal was set: for backward checking.

    Every call starts from no assignment and may use only the clauses numbered
    below a limit, which only ever shrinks (lemmas are dropped from the end).
    """

    def __init__(self, clauses: list[Clause]) -> None:
        self.clauses = [list(dict.fromkeys(clause)) for clause in clauses]
        self.watches: dict[int, list[int]] = defaultdict(list)
        self.short: list[int] = []  # numbers of empty and unit clauses, propagated first
        for index, clause in enumerate(self.clauses):
            if len(clause) <= 1:
                self.short.append(index)
            else:
                self.watches[clause[0]].append(index)
                self.watches[clause[1]].append(index)

    def core(self, assumed: list[int], limit: int) -> list[int] | None:
        """The clauses (below ``limit``) a conflict from ``assumed`` rests on; None if none.

        In the order propagation used them, the conflicting clause last: a
        checker that follows them finds each unit in turn (:func:`follows_by_hints`).
        """
        reason: dict[int, int] = {}  # literal true -> the clause that forced it, -1 assumed
        trail: list[int] = []
        for literal in assumed:
            if -literal in reason:
                return []  # the assumptions contradict each other: a tautology
            if literal not in reason:
                reason[literal] = -1
                trail.append(literal)
        clauses, watches = self.clauses, self.watches
        for index in self.short:
            if index >= limit:
                continue
            clause = clauses[index]
            if not clause or -clause[0] in reason:
                return self._analyze(index, reason)
            if clause[0] not in reason:
                reason[clause[0]] = index
                trail.append(clause[0])
        position = 0
        while position < len(trail):
            false = -trail[position]
            position += 1
            watching = watches[false]
            kept: list[int] = []
            for n, index in enumerate(watching):
                clause = clauses[index]
                if index >= limit:
                    kept.append(index)
                    continue
                if clause[0] == false:
                    clause[0], clause[1] = clause[1], clause[0]
                first = clause[0]
                if first in reason:
                    kept.append(index)
                    continue
                for k in range(2, len(clause)):
                    if -clause[k] not in reason:
                        clause[1], clause[k] = clause[k], clause[1]
                        watches[clause[1]].append(index)
                        break
                else:
                    kept.append(index)
                    if -first in reason:
                        watches[false] = kept + watching[n + 1 :]
                        return self._analyze(index, reason)
                    reason[first] = index
                    trail.append(first)
            watches[false] = kept
        return None

    def _analyze(self, conflict: int, reason: dict[int, int]) -> list[int]:
        """Every clause on a path of reasons to the conflicting clause, in the order forced."""
        core: set[int] = set()
        stack = [conflict]
        while stack:
            index = stack.pop()
            if index in core:
                continue
            core.add(index)
            for literal in self.clauses[index]:
                forced_by = reason.get(-literal, -1)
                if forced_by >= 0 and forced_by not in core:
                    stack.append(forced_by)
        # The dict keeps the order literals were set in: reasons in that order, conflict last.
        ordered = [index for index in reason.values() if index in core and index != conflict]
        return [*dict.fromkeys(ordered), conflict]


def trim_refutation(
    clauses: list[Clause], lemmas: list[Clause]
) -> tuple[list[Clause], list[list[int]]] | None:
    """Only the lemmas a refutation needs, with hints; None if it is no refutation.

    Backward checking, as drat-trim does: the empty clause is checked first
    with every lemma before it available, and the clauses its conflict rests
    on are marked; then, from the last lemma back, only marked lemmas are
    checked, each against the clauses and the lemmas before it, marking what
    it rests on. Returns the marked lemmas in order, ending with the empty
    clause, and for each its hints: the clauses its conflict rests on, in the
    order unit propagation uses them, numbered 1..m for the formula's clauses
    and m+j for the j-th lemma kept (:func:`check_refutation` follows them).
    """
    end = next((k for k, lemma in enumerate(lemmas) if not lemma), None)
    if end is None:
        return None
    base = len(clauses)
    tracer = _Tracer(list(clauses) + list(lemmas[:end]))
    cores: dict[int, list[int]] = {}
    final = tracer.core([], base + end)
    if final is None:
        return None
    marked = set(final)
    for k in range(end - 1, -1, -1):
        if base + k not in marked:
            continue
        found = tracer.core([-literal for literal in lemmas[k]], base + k)
        if found is None:
            return None
        cores[k] = found
        marked.update(found)
    kept = [k for k in range(end) if base + k in marked]
    number = {index: index + 1 for index in range(base)}
    number.update({base + k: base + 1 + j for j, k in enumerate(kept)})
    hints = [[number[index] for index in cores[k]] for k in kept]
    hints.append([number[index] for index in final])
    return [lemmas[k] for k in kept] + [[]], hints
