"""Spring odds from the landlord's own hand: how likely a spring is, over the splits he cannot see.

:func:`exact_odds` counts every equally likely split of the unseen cards
between the peasants (and the face-down cards, for a 17-card hand) exactly;
:func:`estimate_odds` samples them. Both group splits by the peasants' answer
profiles and decide each distinct set of safe options once with the search
engine (see :mod:`cpsolver.odds.exact`).

A landlord holding K and Q, with A, 3 and 4 unseen, one card to each peasant
and the third his: a spring exactly when he gets the ace.

>>> odds = exact_odds(question(Hand.parse("K Q"), Hand.parse("A 3 4"), (1, 1)))
>>> odds.probability, odds.splits
(Fraction(1, 3), 6)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cpsolver.odds.exact import Chunk, Tally, chunks, count_exact
from cpsolver.odds.question import OddsError, OddsQuestion, question
from cpsolver.odds.sampling import sample_tally, wilson_interval
from cpsolver.rules.cards import Hand
from cpsolver.scale.parallel import Runner

__all__ = [
    "Chunk",
    "Odds",
    "OddsError",
    "OddsQuestion",
    "chunks",
    "estimate_odds",
    "exact_odds",
    "question",
]


@dataclass(frozen=True)
class Odds:
    """Spring odds: springs among splits, exactly counted or sampled.

    ``by_fewest`` (when asked for) maps the fewest answerable plays of a
    split (0 and 1 are springs, 2 is one interruption short) to how many
    splits have it. ``profiles`` and ``decisions`` say how much work the
    grouping saved: distinct answer profiles, distinct safe sets decided.
    """

    question: OddsQuestion
    springs: int
    splits: int
    by_fewest: dict[int, int] | None
    profiles: int
    decisions: int
    screened: int = 0  # (sub)questions settled by the screen: no split can be a spring
    certain: int = 0  # (sub)questions settled by the screen: every split is a spring
    samples: int | None = None  # None: the exact count
    seed: int | None = None
    # False when a time limit stopped the work: an exact count then covers only
    # ``splits`` of the question's splits, an estimate only ``splits`` samples.
    complete: bool = True

    @property
    def probability(self) -> Fraction:
        """The share of splits that are springs, in lowest terms."""
        return Fraction(self.springs, self.splits)

    @property
    def bounds(self) -> tuple[Fraction, Fraction]:
        """The least and the most the exact odds can be, from the splits counted so far."""
        total = self.question.splits
        if self.samples is not None or self.complete:
            return self.probability, self.probability
        return Fraction(self.springs, total), Fraction(self.springs + total - self.splits, total)

    @property
    def interval(self) -> tuple[float, float] | None:
        """For an estimate, the 95% (Wilson) interval of the probability."""
        return None if self.samples is None else wilson_interval(self.springs, self.splits)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form printed by ``cpsolver odds --json``."""
        q = self.question
        found: dict[str, Any] = {
            "probability": f"{self.probability.numerator}/{self.probability.denominator}",
            "value": float(self.probability),
            "splits": self.splits,
            "springs": self.springs,
            "method": "exact" if self.samples is None else "monte-carlo",
            "landlord": str(q.landlord),
            "unseen": str(q.unseen),
            "peasant_sizes": list(q.sizes),
            "face_down": q.face_down,
            "profiles": self.profiles,
            "decisions": self.decisions,
            "screened": self.screened,
            "certain": self.certain,
        }
        if self.samples is not None:
            low, high = wilson_interval(self.springs, self.splits)
            found.update(samples=self.splits, seed=self.seed, interval=[low, high])
        if not self.complete:
            found["complete"] = False
            if self.samples is not None:
                found["samples_asked"] = self.samples
            else:
                low_bound, high_bound = self.bounds
                found.update(
                    all_splits=q.splits,
                    bounds=[f"{b.numerator}/{b.denominator}" for b in (low_bound, high_bound)],
                )
        if self.by_fewest is not None:
            found["distribution"] = {str(k): v for k, v in sorted(self.by_fewest.items())}
        return found


def _odds(
    asked: OddsQuestion, tally: Tally, distribution: bool, complete: bool, **sampled: Any
) -> Odds:
    return Odds(
        asked,
        tally.springs,
        tally.splits,
        dict(tally.by_fewest) if distribution else None,
        len(tally.profiles),
        len(tally.decisions),
        tally.screened,
        tally.certain,
        complete=complete,
        **sampled,
    )


def exact_odds(
    asked: OddsQuestion,
    distribution: bool = False,
    runner: Runner | None = None,
    advance: Callable[[int], None] = lambda n: None,
    work: list[Chunk] | None = None,
    deadline: float | None = None,
) -> Odds:
    """The exact spring odds of ``asked``, over every equally likely split.

    ``runner`` spreads the chunks (``work``, by default :func:`chunks`) over
    processes or a Dask cluster; ``advance`` is told of each chunk done.
    Past ``deadline`` (``time.monotonic()``) the count stops between chunks:
    the odds are then not ``complete``, and ``bounds`` say what is known.
    """
    tally = count_exact(asked, distribution, runner, advance, work, deadline)
    complete = tally.splits == asked.splits
    stopped = deadline is not None and time.monotonic() > deadline
    if not complete and not stopped:  # the enumeration must cover every split exactly once
        raise RuntimeError(f"counted {tally.splits} splits, expected {asked.splits}")
    return _odds(asked, tally, distribution, complete)


def estimate_odds(
    asked: OddsQuestion,
    samples: int,
    seed: int = 0,
    distribution: bool = False,
    deadline: float | None = None,
) -> Odds:
    """The spring odds of ``asked`` estimated from ``samples`` seeded random splits.

    Past ``deadline`` (``time.monotonic()``) it stops between chunks of
    samples: the estimate is then from the ``splits`` samples drawn, not ``complete``.
    """
    if samples < 1:
        raise OddsError(f"an estimate needs at least one sample, not {samples}")
    tally = sample_tally(asked, samples, seed, distribution, deadline)
    complete = tally.splits == samples
    return _odds(asked, tally, distribution, complete, samples=samples, seed=seed)


def hand_odds(hand: Hand, samples: int | None = None, seed: int = 0) -> Odds:
    """The odds of a hand with the defaults of ``cpsolver odds`` (exact unless ``samples``)."""
    asked = question(hand)
    return exact_odds(asked) if samples is None else estimate_odds(asked, samples, seed)
