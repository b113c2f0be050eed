"""The move generator's tables: one per pattern, the plays it has handed out, interned.

A table builds a play once per generator, lazily (:func:`cpsolver.rules.plays.lazy_play`),
and hands out the same object again by lookup. A fresh table builds a core's
plays in one loop and keeps them as the first hand's lists; only when another
hand needs other kickers for that core does it turn them into a dictionary.
"""

from __future__ import annotations

from functools import cache

from cpsolver.rules.cards import Rank
from cpsolver.rules.plays import Pattern, Play, kicker_limits, lazy_cores, lazy_play, lazy_plays
from cpsolver.rules.ruleset import RuleSet

Kickers = tuple[Rank, ...]
Core = tuple[int, Rank]  # (chain, top)
# One core's plays with kickers: the first hand's (choices, plays), then a dictionary.
Interned = tuple[list[Kickers], list[Play]] | dict[Kickers, Play]
Limits = dict[tuple[Rank, Rank], tuple[int, ...]]


class PlayTable:
    """One pattern compiled for generation: its interned plays, filled on demand.

    Single-rank patterns (a pair, a bomb, a triplet with kickers) key their
    cores by rank, chains by ``(chain, top)``. On demand, so that a fresh
    process builds only what its first hands need.
    """

    __slots__ = (
        "cores",
        "distinct",
        "kicked",
        "kicker_size",
        "kind",
        "limits",
        "max_chain",
        "min_chain",
        "pattern",
        "recipe",
        "wanted",
        "width",
    )

    def __init__(
        self, pattern: Pattern, rules: RuleSet, limits: dict[Pattern, Limits] | None
    ) -> None:
        self.pattern = pattern
        self.kind = pattern.kind
        # Whether no rank may ever give this pattern two kickers (the fast path).
        most = (
            rules.most_singles_of_a_rank if pattern.kicker_size == 1 else 2 - rules.pairs_distinct
        )
        self.distinct = most <= 1
        self.width = pattern.width
        self.kicker_size = pattern.kicker_size
        self.recipe = (pattern.width, pattern.kicker_size)  # shared by every lazy play
        self.wanted = pattern.kickers_per_link  # kickers per core rank
        self.min_chain = pattern.min_chain
        self.max_chain = pattern.max_chain
        # kicker_limits by the core's (low, top), shared by the generators of one rule set.
        self.limits: Limits = {}
        if limits is not None and pattern.kicker_size and not self.distinct:
            self.limits = limits.setdefault(pattern, {})
        self.cores: dict[Rank | Core, Play] = {}
        self.kicked: dict[Core, Interned] = {}

    def core(self, chain: int, top: Rank) -> Play:
        """The interned play of the bare core ``chain`` ranks ending at ``top``."""
        key = top if self.max_chain == 1 else (chain, top)
        play = self.cores.get(key)
        if play is None:
            play = self.cores[key] = lazy_play(self.kind, top, chain, (), self.recipe)
        return play

    def rank_plays(self, ranks: list[Rank]) -> list[Play]:
        """The interned plays of single-rank bare cores (a pair, a bomb) at these ranks."""
        known = self.cores
        if not known:  # a fresh generator: every play is new, built in one go
            built = lazy_cores(self.kind, ranks, 1, self.recipe)
            known.update(zip(ranks, built))
            return built
        found = list(map(known.get, ranks))
        if all(found):  # a play is never falsy
            return found  # type: ignore[return-value]
        missing = [rank for rank, play in zip(ranks, found) if play is None]
        known.update(zip(missing, lazy_cores(self.kind, missing, 1, self.recipe)))
        return [known[rank] for rank in ranks]

    def chain_plays(self, cores: list[Core]) -> list[Play]:
        """The interned plays of these bare chains."""
        known = self.cores
        if not known:  # a fresh generator: every play is new, built in one go
            chains, tops = zip(*cores)
            built = lazy_cores(self.kind, tops, chains, self.recipe)
            known.update(zip(cores, built))
            return built
        found = list(map(known.get, cores))
        if all(found):
            return found  # type: ignore[return-value]
        missing = [core for core, play in zip(cores, found) if play is None]
        chains, tops = zip(*missing)
        known.update(zip(missing, lazy_cores(self.kind, tops, chains, self.recipe)))
        return [known[core] for core in cores]

    def kicked_plays(self, core: Core, choices: list[Kickers]) -> list[Play]:
        """The interned plays of one core, ``(chain, top)``, one per choice of kickers."""
        known = self.kicked.get(core)
        chain, top = core
        if known is None:  # a core never seen: every play is new, built in one go
            built = lazy_plays(self.kind, top, chain, choices, self.recipe)
            # Kept as the two lists until another choice of kickers comes: a
            # dictionary for one hand's plays would cost more than it saves.
            self.kicked[core] = (choices, built)
            return built
        if isinstance(known, tuple):
            if known[0] == choices:  # the same hand (or kickers) again
                return known[1].copy()
            known = self.kicked[core] = dict(zip(*known))
        found = []
        get = known.get
        for kickers in choices:
            play = get(kickers)
            if play is None:
                play = known[kickers] = lazy_play(self.kind, top, chain, kickers, self.recipe)
            found.append(play)
        return found

    def multiplicities(
        self, rules: RuleSet, counts: tuple[int, ...], low: Rank, top: Rank
    ) -> list[int]:
        """How many kickers each rank may give the core ``low..top``, for rules that allow repeats."""
        limits = self.limits.get((low, top))
        if limits is None:
            limits = self.limits[(low, top)] = kicker_limits(rules, self.pattern, low, top)
        if self.kicker_size == 1:
            return list(map(min, limits, counts))
        size = self.kicker_size
        return [min(limit, count // size) for limit, count in zip(limits, counts)]


@cache
def shared_limits(rules: RuleSet) -> dict[Pattern, Limits]:
    """The kicker limits of one rule set, filled as generators meet cores: rules, not hands."""
    return {}
