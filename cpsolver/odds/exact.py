"""Exact spring odds: every split of the unseen cards, grouped by what decides it.

A split of the unseen physical cards gives the first peasant a rank-count
vector ``a`` (and the second ``unseen - a``); ``prod(comb(unseen[r], a[r]))``
splits share that vector. Whether it is a spring depends on the vector only
through the *union* of the two peasants' answer profiles (the landlord's
classes one of them can answer, :mod:`cpsolver.odds.profiles`). So the vectors
are enumerated in chunks — a prefix of the ranks times every suffix of the
right size — their profiles computed as arrays, grouped by union, and each
distinct union decided once by the search engine, on the first split that
produced it. With face-down cards (a 17-card hand), the same runs once for
each rank vector of the cards the landlord takes, weighted the same way.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from math import comb, prod

import numpy as np
import numpy.typing as npt

from cpsolver.odds.profiles import ClassTable, Counts, Masks
from cpsolver.odds.question import OddsError, OddsQuestion
from cpsolver.odds.screen import spring_certain, spring_impossible
from cpsolver.rules.cards import Deal, Hand
from cpsolver.rules.ruleset import RuleSet
from cpsolver.scale.parallel import InProcess, Runner
from cpsolver.spring.result import Verdict
from cpsolver.spring.search import solve

_PREFIX_RANKS = 7  # ranks 3..9 are enumerated one prefix at a time, T..R in bulk
_CHUNK_ROWS = 200_000  # peasant vectors per chunk of work
_BINOMIALS = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.int64)
_DECISIONS_KEPT = 100_000


@dataclass
class Tally:
    """What a set of splits adds up to; tallies of disjoint sets merge by adding."""

    splits: int = 0
    springs: int = 0
    by_fewest: Counter[int] = field(default_factory=Counter)
    profiles: set[bytes] = field(default_factory=set)
    decisions: set[bytes] = field(default_factory=set)
    screened: int = 0  # questions the screen settled with no spring, unenumerated
    certain: int = 0  # questions the screen settled as a spring in every split, unenumerated

    def merge(self, other: Tally) -> None:
        """Add ``other``'s splits (a disjoint set) into this tally."""
        self.splits += other.splits
        self.springs += other.springs
        self.by_fewest.update(other.by_fewest)
        self.profiles |= other.profiles
        self.decisions |= other.decisions
        self.screened += other.screened
        self.certain += other.certain


@dataclass(frozen=True)
class Chunk:
    """One unit of work: first-peasant vectors of one question without face-down cards.

    ``prefixes`` are the counts of the first ranks each vector starts with
    (all of them when None: a whole question, as for each choice of
    face-down cards); ``weight`` is how many face-down choices stand behind it.
    """

    question: OddsQuestion
    weight: int
    distribution: bool
    prefixes: tuple[tuple[int, ...], ...] | None = None


# An exact count is one chunk a face-down rank vector: past this many, the
# chunks alone would not fit in memory (18 face-down cards have millions).
MOST_FACE_DOWN_CHOICES = 5_000


def face_down_count(question: OddsQuestion) -> int:
    """How many rank vectors the face-down cards can have, counted without listing them.

    >>> from cpsolver.odds import question
    >>> face_down_count(question(Hand.parse("3"), Hand.parse("33 4"), (1, 1)))
    2
    """
    ways = [1] + [0] * question.face_down  # ways[n]: vectors of n cards over the ranks so far
    for cap in question.unseen.counts:
        ways = [sum(ways[n - k] for k in range(min(cap, n) + 1)) for n in range(len(ways))]
    return ways[question.face_down]


def face_down_choices(question: OddsQuestion) -> list[tuple[Hand, int]]:
    """Each rank vector of the face-down cards, with how many physical choices give it.

    >>> from cpsolver.odds import question
    >>> three_left = question(Hand.parse("3"), Hand.parse("33 4"), (1, 1))
    >>> [(str(h), w) for h, w in face_down_choices(three_left)]
    [('4', 1), ('3', 2)]
    """
    caps = question.unseen.counts
    found = []
    for counts in _vectors(caps, question.face_down):
        found.append((Hand(counts), prod(comb(c, k) for c, k in zip(caps, counts))))
    return found


def chunks(question: OddsQuestion, distribution: bool = False) -> list[Chunk]:
    """The work of an exact count: slices of the vectors, or one chunk per face-down choice.

    A question the screen settles (:func:`spring_impossible`) is one chunk.
    """
    if question.face_down:
        count = face_down_count(question)
        if count > MOST_FACE_DOWN_CHOICES:
            raise OddsError(
                f"{question.face_down} cards face down can be {count} different sets of ranks, "
                f"more than an exact count holds ({MOST_FACE_DOWN_CHOICES}); estimate the "
                "odds with --samples N"
            )
        return [
            Chunk(taking_face_down(question, taken), weight, distribution)
            for taken, weight in face_down_choices(question)
        ]
    if not distribution and (spring_impossible(question) or spring_certain(question)):
        return [Chunk(question, 1, distribution)]
    return [Chunk(question, 1, distribution, batch) for batch in _prefix_batches(question)]


def count_chunk(chunk: Chunk) -> Tally:
    """The tally of one chunk: its splits, its springs, its profiles and decisions."""
    question = chunk.question
    if chunk.prefixes is None and not chunk.distribution and spring_impossible(question):
        return Tally(splits=question.splits * chunk.weight, screened=1)
    if chunk.prefixes is None and not chunk.distribution and spring_certain(question):
        splits = question.splits * chunk.weight
        return Tally(splits=splits, springs=splits, certain=1)
    batches = _prefix_batches(question) if chunk.prefixes is None else [chunk.prefixes]
    suffixes = _suffixes(question.unseen.counts[_PREFIX_RANKS:])
    tally = Tally()
    for batch in batches:
        first = np.concatenate(
            [
                np.hstack(
                    [
                        np.broadcast_to(np.array(prefix, dtype=np.int8), (len(tail), len(prefix))),
                        tail,
                    ]
                )
                for prefix in batch
                for tail in (suffixes[question.sizes[0] - sum(prefix)],)
            ]
        )
        tally.merge(tally_vectors(question, first, chunk.distribution, chunk.weight))
    return tally


def taking_face_down(question: OddsQuestion, taken: Hand) -> OddsQuestion:
    """The question once the landlord has taken ``taken`` face down."""
    return OddsQuestion(
        question.landlord + taken, question.unseen - taken, question.sizes, question.rules
    )


def _prefix_batches(question: OddsQuestion) -> list[tuple[tuple[int, ...], ...]]:
    """The prefixes of the first peasant's vectors, in batches of about ``_CHUNK_ROWS`` vectors."""
    caps = question.unseen.counts
    suffixes = _suffixes(caps[_PREFIX_RANKS:])
    batches: list[tuple[tuple[int, ...], ...]] = []
    batch: list[tuple[int, ...]] = []
    rows = 0
    for prefix in product(*(range(c + 1) for c in caps[:_PREFIX_RANKS])):
        rest = question.sizes[0] - sum(prefix)
        if rest not in suffixes:
            continue
        batch.append(prefix)
        rows += len(suffixes[rest])
        if rows >= _CHUNK_ROWS:
            batches.append(tuple(batch))
            batch, rows = [], 0
    if batch:
        batches.append(tuple(batch))
    return batches


def tally_vectors(
    question: OddsQuestion,
    first: Counts,
    distribution: bool,
    weight: int = 1,
    weights: npt.NDArray[np.int64] | None = None,
) -> Tally:
    """Tally the splits giving the first peasant each row of ``first`` (no face-down cards).

    ``weights`` defaults to each vector's number of physical splits; Monte
    Carlo passes ones instead.
    """
    caps = np.array(question.unseen.counts, dtype=np.int8)
    second = caps - first
    table = _class_table(question.landlord, question.rules)
    ones = table.profiles(first)
    twos = table.profiles(second)
    if weights is None:
        weights = _BINOMIALS[caps, first].prod(axis=1)
    # Group by the pair of profiles first (dense integer ids sort fast), then
    # pairs by their union: few distinct pairs, so the unions are formed row by row.
    one_ids, one_rows = _row_ids(ones)
    two_ids, two_rows = _row_ids(twos)
    pairs, firsts, inverse = np.unique(
        one_ids * (int(two_ids.max()) + 1) + two_ids, return_index=True, return_inverse=True
    )
    totals = np.zeros(len(pairs), dtype=np.int64)
    np.add.at(totals, inverse.ravel(), weights)
    by_union: dict[bytes, list[int]] = {}
    for index, total in zip(firsts.tolist(), totals.tolist()):
        key = (ones[index] | twos[index]).tobytes()
        found = by_union.setdefault(key, [0, index])
        found[0] += total
    tally = Tally(splits=int(weights.sum()) * weight)
    label = str(question.landlord).encode() + b":"
    tally.profiles = {label + ones[i].tobytes() for i in one_rows.tolist()}
    tally.profiles |= {label + twos[i].tobytes() for i in two_rows.tolist()}
    for key, (total, index) in by_union.items():
        tally.decisions.add(label + key)
        fewest = _decide(question, key, first[index], distribution)
        count = total * weight
        if fewest <= 1:
            tally.springs += count
        if distribution:
            tally.by_fewest[fewest] += count
    return tally


def count_exact(
    question: OddsQuestion,
    distribution: bool = False,
    runner: Runner | None = None,
    advance: Callable[[int], None] = lambda n: None,
    work: list[Chunk] | None = None,
    deadline: float | None = None,
) -> Tally:
    """The exact tally of every split of ``question``; ``advance`` hears of each chunk done.

    Past ``deadline`` (``time.monotonic()``), read between chunks, the count
    stops with the chunks done so far: fewer splits than the question has.
    """
    tally = Tally()
    work = chunks(question, distribution) if work is None else work
    for result in (runner or InProcess()).run(count_chunk, work):
        tally.merge(result)
        advance(1)
        if deadline is not None and time.monotonic() > deadline:
            break
    return tally


@cache
def _class_table(landlord: Hand, rules: RuleSet) -> ClassTable:
    return ClassTable(landlord, rules)


_decided: dict[tuple[OddsQuestion, bytes, bool], int] = {}


def _decide(question: OddsQuestion, key: bytes, first: Counts, distribution: bool) -> int:
    """The fewest answerable plays (only 0-1 vs 2 is exact without ``distribution``).

    Decided once per union of profiles, by the search engine on a split that has it.
    """
    cache_key = (question, key, distribution)
    found = _decided.get(cache_key)
    if found is not None:
        return found
    one = Hand(int(c) for c in first)
    deal = Deal(question.landlord, one, question.unseen - one)
    if distribution:
        result = solve(deal, question.rules, objective="fewest-answerable")
        assert result.objective is not None
        found = result.objective.value
    else:
        found = 1 if solve(deal, question.rules).verdict is Verdict.SPRING else 2
    if len(_decided) >= _DECISIONS_KEPT:
        _decided.clear()
    _decided[cache_key] = found
    return found


def _row_ids(masks: Masks) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Dense ids of the distinct rows of ``masks``: (the id of each row, a row of each id).

    One word at a time, so only integers are ever sorted, never whole rows.
    """
    ids = np.zeros(masks.shape[0], dtype=np.int64)
    for word in range(masks.shape[1]):
        _, column = np.unique(masks[:, word], return_inverse=True)
        combined = ids * (int(column.max()) + 1) + column.ravel()
        _, ids = np.unique(combined, return_inverse=True)
        ids = ids.ravel()
    _, rows = np.unique(ids, return_index=True)
    return ids, rows


def _vectors(caps: tuple[int, ...], total: int) -> Iterator[tuple[int, ...]]:
    """Every count vector at most ``caps`` summing to ``total``, in lexicographic order."""
    if not caps:
        if total == 0:
            yield ()
        return
    room = sum(caps[1:])
    for head in range(max(0, total - room), min(caps[0], total) + 1):
        for tail in _vectors(caps[1:], total - head):
            yield (head, *tail)


@cache
def _suffixes(caps: tuple[int, ...]) -> dict[int, Counts]:
    """Every count vector at most ``caps``, grouped by its sum."""
    grouped: dict[int, list[tuple[int, ...]]] = {}
    for vector in product(*(range(c + 1) for c in caps)):
        grouped.setdefault(sum(vector), []).append(vector)
    return {
        total: np.array(rows, dtype=np.int8).reshape(len(rows), len(caps))
        for total, rows in grouped.items()
    }
