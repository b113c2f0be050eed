"""The verifier: is this plan a spring for this deal? Shares no code with the solvers.

It also checks certificates of "no spring" (:func:`check_certificate`) with the
CNF encoder and a unit-propagation checker, without CP-SAT or a SAT solver.

It reads each step with :func:`classify`, takes its cards out of the
landlord's hand, and asks the move generator for each peasant's answers; a
proof's claims (kind, rank, shape, safe flag, evidence) must all be true.
Every check returns the first failure as one sentence, or None.

>>> deal = Deal.parse("333444 5 6 KK", "77 J", "A 2")
>>> check_plan(deal, ["KK", "33344456"])
>>> check_plan(deal, ["33344456", "KK"]) is None
True
>>> check_plan(deal, ["5", "6", "333444", "KK"])
'step 1 (5): peasant 1 answers with 7'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cpsolver.io.dealformat import deal_as_dict, deal_from_dict
from cpsolver.io.reading import limit
from cpsolver.rules.cards import BLACK_JOKER, RED_JOKER, Deal, Hand, rank_symbol
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play, classify, readings
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.verify.cnf import ENCODER, encode
from cpsolver.verify.documents import ProofFormatError, rules_mismatch, validate
from cpsolver.verify.rup import StepsExceeded, check_refutation, parse_proof

_Cards = Hand | Play | str


def check_plan(deal: Deal, plan: Sequence[_Cards], rules: RuleSet | None = None) -> str | None:
    """The first reason ``plan`` is not a spring for ``deal``, or None if it is one."""
    failure, _ = _walk(deal, plan, rules or standard_rules())
    return failure


def check_proof(
    document: Any, deal: Deal | None = None, rules: RuleSet | None = None
) -> str | None:
    """The first reason a proof document does not prove a spring, or None if it does.

    ``deal``, when given, must be the deal the proof embeds; ``rules`` must be
    the rule set it was made under (same name and digest).
    """
    rules = rules or standard_rules()
    failure = _check_header(document, deal, rules, "proof")
    if failure is not None:
        return failure
    embedded = deal_from_dict(document["deal"])
    steps = document["plan"]
    claims = [(step["kind"], step["rank"]) for step in steps]
    failure, plays = _walk(embedded, [step["cards"] for step in steps], rules, claims=claims)
    for number, (step, play) in enumerate(zip(steps, plays), 1):
        claim_failure = _check_claims(embedded, number, step, play, rules)
        if claim_failure is not None:
            return claim_failure
    return failure


def check_split(
    deal: Deal, plan: Sequence[_Cards], rules: RuleSet | None = None
) -> tuple[str | None, int]:
    """Whether ``plan`` splits the landlord's hand into plays, spring or not.

    Returns the first failure (or None) and how many of the plays a peasant
    can answer: what a claimed optimum of ``fewest-answerable`` is checked by.

    >>> check_split(Deal.parse("KK 2", "AA", "B"), ["KK", "2"])
    (None, 2)
    """
    rules = rules or standard_rules()
    failure, plays = _walk(deal, plan, rules, spring=False)
    moves = generator(rules)
    return failure, sum(any(moves.can_answer(p, play) for p in deal.peasants) for play in plays)


def check_certificate(
    document: Any, deal: Deal | None = None, rules: RuleSet | None = None
) -> str | None:
    """The first reason a certificate does not prove "no spring", or None if it does.

    The CNF is rebuilt from the deal and the blocking cards with the encoder
    of :mod:`cpsolver.verify.cnf`, and the refutation checked by unit propagation.
    """
    rules = rules or standard_rules()
    failure = _check_header(document, deal, rules, "certificate")
    if failure is not None:
        return failure
    embedded = deal_from_dict(document["deal"])
    blocking = Hand.parse(document["blocking"])
    if not blocking <= embedded.landlord:
        return (
            f"the blocking cards {blocking} are not all in the landlord's hand {embedded.landlord}"
        )
    try:
        lemmas = parse_proof(document["proof"])
    except ValueError as error:
        return f"certificate.proof: {error}"
    # Hints only ever speed the check up (rup.check_refutation): ones that do
    # not fit the lemmas, one per lemma, are left aside.
    hints: list[list[int]] | None = [_hint(line) for line in document.get("hints", [])]
    if hints is not None and len(hints) != len(lemmas):
        hints = None
    steps = limit("rup_steps")
    try:
        failure = check_refutation(encode(embedded, blocking, rules).clauses, lemmas, hints, steps)
    except StepsExceeded:
        raise ProofFormatError(
            f"certificate: checking its refutation passed {steps:,} clause visits of unit "
            "propagation (set CPSOLVER_LIMIT_RUP_STEPS to raise it); the certificates cpsolver "
            "writes carry hints and need under 100,000"
        ) from None
    return None if failure is None else f"the refutation of {ENCODER} for {blocking}: {failure}"


def _hint(line: str) -> list[int]:
    """A hint line's clause numbers; a number too long to be one (0: a no-clause) shows nothing."""
    return [int(number) if len(number) <= 18 else 0 for number in line.split()]


def _check_header(document: Any, deal: Deal | None, rules: RuleSet, what: str) -> str | None:
    """A ``what`` ("proof" or "certificate") must fit its schema, be made under ``rules``
    and, if ``deal`` is given, embed that deal."""
    try:
        validate(document, what)
    except ProofFormatError as error:
        return str(error)
    mismatch = rules_mismatch(document, rules, what)
    if mismatch is not None:
        return mismatch
    try:
        embedded = deal_from_dict(document["deal"])
    except CpsolverError as error:
        return f"the {what}'s deal: {error}"
    if deal is not None and deal != embedded:
        return f"the {what} is for another deal: {json.dumps(deal_as_dict(embedded))}"
    return None


def _read_step(
    number: int, item: _Cards, claim: tuple[str, str] | None, rules: RuleSet
) -> tuple[Play | None, str]:
    """The play a step stands for, or why it stands for none.

    Under rules where one multiset reads two ways, a :class:`Play` or a
    proof's claimed (kind, rank) says which reading is meant; plain cards
    with two readings are ambiguous.
    """
    try:
        cards = (
            item.cards
            if isinstance(item, Play)
            else Hand.parse(item)
            if isinstance(item, str)
            else item
        )
    except CpsolverError as error:
        return None, f"step {number} ({item}): {error}"
    where = f"step {number} ({cards})"
    found = readings(cards, rules)
    if not found:
        try:
            classify(cards, rules)
        except CpsolverError as error:
            return None, f"{where}: no play: {str(error).split(': ', 1)[-1]}"
    if isinstance(item, Play):
        return (
            (item, "")
            if item in found
            else (None, f"{where}: not a {item.kind.value} under these rules")
        )
    if claim is not None:
        chosen = [p for p in found if (p.kind.value, rank_symbol(p.rank)) == claim]
        return (chosen or found)[0], ""
    if len(found) > 1:
        kinds = ", ".join(f"{p.kind.value} (rank {rank_symbol(p.rank)})" for p in found)
        return None, f"{where}: ambiguous under the {rules.name} rules: reads as {kinds}"
    return found[0], ""


def _walk(
    deal: Deal,
    plan: Sequence[_Cards],
    rules: RuleSet,
    spring: bool = True,
    claims: Sequence[tuple[str, str]] | None = None,
) -> tuple[str | None, list[Play]]:
    """Play the plan out: the first failure, and the plays of the steps before it.

    ``spring`` False checks only that the plan splits the hand into plays;
    ``claims`` are a proof's (kind, rank) of each step, naming its reading.
    """
    moves = generator(rules)
    left = deal.landlord
    plays: list[Play] = []
    if not plan:
        return "the plan is empty", plays
    for number, item in enumerate(plan, 1):
        claim = claims[number - 1] if claims is not None else None
        play, failure = _read_step(number, item, claim, rules)
        if play is None:
            return failure, plays
        cards = play.cards
        where = f"step {number} ({cards})"
        short = [r for r in range(len(cards.counts)) if cards[r] > left[r]]
        if short:
            return f"{where}: the landlord holds no more {rank_symbol(short[0])}s", plays
        left = left - cards
        if spring and number < len(plan):
            for peasant_number, peasant in enumerate(deal.peasants, 1):
                answers = moves.answers(peasant, play)
                if answers:
                    return f"{where}: peasant {peasant_number} answers with {answers[0]}", plays
        plays.append(play)
    if left:
        return f"the plan leaves {left} in the landlord's hand", plays
    return None, plays


def _check_claims(
    deal: Deal, number: int, step: dict[str, Any], play: Play, rules: RuleSet
) -> str | None:
    """A proof step's claims about its play, each checked against the rules core."""
    where = f"step {number} ({play})"
    for field, true_value in play.as_dict().items():
        if step[field] != true_value:
            return f"{where}: claims {field} {step[field]!r}, but it is {true_value!r}"
    moves = generator(rules)
    answerable = [any(True for _ in moves.answers(p, play)) for p in deal.peasants]
    if step["safe"] == any(answerable):
        truth = "a peasant can answer it" if any(answerable) else "no peasant can answer it"
        return f"{where}: marked {'safe' if step['safe'] else 'unsafe'}, but {truth}"
    for peasant_number, (peasant, record) in enumerate(zip(deal.peasants, step["evidence"]), 1):
        failure = _check_evidence(peasant, record, play, rules)
        if record["peasant"] != peasant_number:
            failure = f"evidence number {peasant_number} is about peasant {record['peasant']}"
        if failure is not None:
            return f"{where}: {failure}"
    return None


def _check_evidence(
    peasant: Hand, record: dict[str, Any], play: Play, rules: RuleSet
) -> str | None:
    """Evidence is true when it names the peasant's strongest play of the shape, bombs and rocket."""
    name = f"peasant {record['peasant']}"
    same_shape = [p for p in generator(rules).plays(peasant) if p.family == play.family]
    top = max((p.rank for p in same_shape), default=None)
    claimed = record["strongest"]
    if claimed is None:
        if top is not None:
            return f"evidence says {name} has no play of this kind and shape, but it has one ranked {rank_symbol(top)}"
    else:
        matching = [p for p in same_shape if str(p) == claimed]
        if not matching:
            return f"evidence names {claimed} as {name}'s strongest play of this kind and shape, which it does not hold"
        if matching[0].rank != top:
            return f"evidence names {claimed} as {name}'s strongest, but it has one ranked {rank_symbol(top or 0)}"
    bombs = sorted(str(p) for p in generator(rules).plays(peasant) if p.kind.value == "bomb")
    if sorted(record["bombs"]) != bombs:
        return f"evidence lists {name}'s bombs as {record['bombs']}, but they are {bombs}"
    if record["rocket"] != bool(peasant[BLACK_JOKER] and peasant[RED_JOKER]):
        return f"evidence says {name} {'holds' if record['rocket'] else 'lacks'} the rocket, which is false"
    return None
