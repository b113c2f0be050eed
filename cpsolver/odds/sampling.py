"""Spring odds by seeded Monte Carlo: random splits of the unseen cards, decided as the exact count does.

Each sample shuffles the unseen physical cards and deals the peasants' hands
(and the face-down cards) off the top, so every split is equally likely, as
in the exact count. Samples are grouped by the face-down cards and by the
union of the peasants' answer profiles, and each distinct union is decided
once, so ten thousand samples need only a few hundred decisions.
"""

from __future__ import annotations

import time
from math import sqrt

import numpy as np

from cpsolver.odds.exact import Tally, taking_face_down, tally_vectors
from cpsolver.odds.question import OddsQuestion
from cpsolver.rules.cards import RANK_COUNT, Hand

CHUNK = 20_000  # samples drawn and tallied at once: about 5 MB of arrays
Z_95 = 1.959963984540054  # the standard normal quantile of a two-sided 95% interval


def sample_tally(
    question: OddsQuestion,
    samples: int,
    seed: int = 0,
    distribution: bool = False,
    deadline: float | None = None,
) -> Tally:
    """The tally of ``samples`` uniformly random splits drawn from the seeded generator.

    Past ``deadline`` (``time.monotonic()``), read between chunks of
    :data:`CHUNK` samples, it stops with the samples drawn so far.

    >>> from cpsolver.odds.question import question
    >>> tally = sample_tally(question(Hand.parse("22 BR"), Hand.parse("33 4"), (1, 2)), 50, seed=1)
    >>> tally.splits, tally.springs
    (50, 50)
    """
    rng = np.random.default_rng(seed)
    tally = Tally()
    # In chunks, so memory stays flat however many samples are asked for. Rows are
    # shuffled one after another from one generator, so the draws, and the tally,
    # are the same as in one piece.
    for start in range(0, samples, CHUNK):
        tally.merge(_chunk_tally(question, rng, min(CHUNK, samples - start), distribution))
        if deadline is not None and time.monotonic() > deadline:
            break
    return tally


def _chunk_tally(
    question: OddsQuestion, rng: np.random.Generator, samples: int, distribution: bool
) -> Tally:
    """The tally of the next ``samples`` random splits of ``rng``."""
    cards = np.repeat(np.arange(RANK_COUNT, dtype=np.int8), question.unseen.counts)
    shuffled = rng.permuted(np.tile(cards, (samples, 1)), axis=1)
    first_size, second_size = question.sizes
    ranks = np.arange(RANK_COUNT, dtype=np.int8)
    first = (shuffled[:, :first_size, None] == ranks).sum(axis=1, dtype=np.int8)
    taken = (shuffled[:, first_size + second_size :, None] == ranks).sum(axis=1, dtype=np.int8)
    tally = Tally()
    groups, which = np.unique(taken, axis=0, return_inverse=True)
    for index, counts in enumerate(groups):
        sub = taking_face_down(question, Hand(int(c) for c in counts))
        rows = which.ravel() == index
        ones = np.ones(int(rows.sum()), dtype=np.int64)
        tally.merge(tally_vectors(sub, first[rows], distribution, weights=ones))
    return tally


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is not empty
    at zero successes, the common case for springs.

    >>> low, high = wilson_interval(0, 10_000)
    >>> low, round(high, 6)
    (0.0, 0.000384)
    """
    if trials <= 0:
        raise ValueError("an interval needs at least one trial")
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    spread = z * sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exactly the share; rounding must not move it.
    low = 0.0 if successes == 0 else max(0.0, centre - spread)
    high = 1.0 if successes == trials else min(1.0, centre + spread)
    return low, high
