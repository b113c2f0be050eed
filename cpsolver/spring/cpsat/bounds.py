"""Cheap bounds on the CP-SAT engine's objectives: a greedy split above, counting arguments below.

The objectives (fewest plays, fewest answerable plays) are proven by CP-SAT;
on small hands its fixed cost is most of the time. A greedy split is a
solution, so its value bounds the optimum from above; the bounds below are proofs, so when the two meet the optimum is
known without solving. Everything here works on the model's options
(:func:`cpsolver.spring.cpsat.model.options_of`), never on another engine's code.

Lower bounds, each valid for any split of the hand:

- *size*: every play holds at most as many cards as the largest option, and
  the hand is one play only if some option is exactly its size;
- *ranks*: a play holds at most ``cap[o][r]`` cards of rank ``r`` (its core
  there, plus its kicker room), so rank ``r`` needs ``ceil(count / best cap)``
  plays; two ranks that no option can hold together need different plays, so
  these needs add up over a set of pairwise incompatible ranks.

For answerable plays, the same counting runs over the cards that no safe
option can hold (they can only go in answerable plays), with the answerable
options alone. One answerable play suffices only if some answerable option
can hold all those cards at once; if none can, the landlord has no spring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cpsolver.rules.cards import BLACK_JOKER, RANK_COUNT, RED_JOKER, Hand, Rank
from cpsolver.spring.cpsat.model import Option

Kickers = dict[Rank, int]  # kickers of each rank (singles or pairs, by the option)


@dataclass(frozen=True)
class Use:
    """One play of a split: an option and the kickers it carries."""

    option: int
    kickers: tuple[tuple[Rank, int], ...] = ()


def capacities(options: Sequence[Option], rooms: Sequence[Kickers]) -> list[list[int]]:
    """The most cards of each rank one play of each option can hold: core plus kicker room."""
    found = []
    for option, room in zip(options, rooms):
        cap = list(option.core)
        for r, most in room.items():
            cap[r] += option.kicker_size * most
        found.append(cap)
    return found


def greedy_split(
    hand: Hand,
    options: Sequence[Option],
    rooms: Sequence[Kickers],
    order: Sequence[int],
    both_jokers_as_kickers: bool,
) -> list[Use]:
    """A split of ``hand``: in each round the first option of ``order`` that still fits.

    Kickers are the cards left alone first (a rank holding exactly one kicker's
    worth), low ranks before high. Every option of ``order`` that no longer
    fits never fits again (the hand only shrinks), so it is dropped for good.
    ``order`` must hold every single of the hand, so that a split always exists.
    """
    left = list(hand.counts)
    alive = list(order)
    split: list[Use] = []
    remaining = len(hand)
    while remaining:
        chosen = None
        keep = []
        for at, o in enumerate(alive):
            option = options[o]
            if any(left[r] < width for r, width in option.cells):
                continue  # gone for good
            keep.append(o)
            kickers = _kickers(option, rooms[o], left, both_jokers_as_kickers)
            if kickers is not None:
                chosen = Use(o, kickers)
                keep += alive[at + 1 :]
                break
        if chosen is None:
            raise ValueError("the order lacks an option for some card")  # a caller's bug
        alive = keep
        option = options[chosen.option]
        for r, width in option.cells:
            left[r] -= width
        for r, count in chosen.kickers:
            left[r] -= option.kicker_size * count
        remaining -= option.size
        split.append(chosen)
    return split


def _kickers(
    option: Option, room: Kickers, left: list[int], both_jokers: bool
) -> tuple[tuple[Rank, int], ...] | None:
    """Kickers for one play of ``option`` from the cards ``left``, or None if too few."""
    if not option.kicker_count:
        return ()
    size = option.kicker_size
    free = [
        (left[r] - option.core[r] != size, left[r], r)
        for r, most in room.items()
        if (left[r] - option.core[r]) >= size
    ]
    free.sort()
    wanted = option.kicker_count
    chosen: list[tuple[Rank, int]] = []
    jokers = 0
    for _, count, r in free:
        if r in (BLACK_JOKER, RED_JOKER) and size == 1 and not both_jokers:
            if jokers:
                continue  # never both jokers as kickers
            jokers += 1
        take = min(room[r], (count - option.core[r]) // size, wanted)
        chosen.append((r, take))
        wanted -= take
        if not wanted:
            return tuple(chosen)
    return None


def fewest_plays_bound(
    hand: Hand, options: Sequence[Option], caps: Sequence[Sequence[int]], enough: int = 0
) -> int:
    """A lower bound on the plays of any split of ``hand``: cheap ones first, until ``enough``."""
    total = len(hand)
    if not total:
        return 0
    sizes = [option.size for option in options]
    bound = -(-total // max(sizes))
    if total not in sizes:
        bound = max(bound, 2)
    if bound >= enough > 0:
        return bound
    return max(bound, _rank_bound(hand.counts, range(len(options)), caps))


def answerable_bound(
    hand: Hand,
    options: Sequence[Option],
    caps: Sequence[Sequence[int]],
    unsafe: set[int],
) -> int:
    """A lower bound on the answerable plays of any split of ``hand``; above 1 means no spring.

    Beside the counting over stuck cards: safe cores take at most ``cored[r]``
    cards of rank ``r`` (each safe option's core there, times its most uses);
    the rest ("loose") can go in a safe play only as kickers, and the safe
    plays carry at most ``kicked[r]`` kicker cards for the cores at each rank
    ``r``; the loose cards beyond that must go in answerable plays.
    """
    counts = hand.counts
    coverable = [False] * RANK_COUNT
    cored = [0] * RANK_COUNT  # the most cards of each rank safe cores can take
    kicked = [0] * RANK_COUNT
    for o, option in enumerate(options):
        if o in unsafe:
            continue
        for r, most in enumerate(caps[o]):
            if most:
                coverable[r] = True
        per_link = option.kicker_size * option.kicker_count // len(option.cells)
        for r, width in option.cells:
            cored[r] += width * option.most_uses
            kicked[r] = max(kicked[r], counts[r] // width * per_link)
    stuck = [0 if coverable[r] else count for r, count in enumerate(counts)]
    answerable = sorted(unsafe)
    bound = _rank_bound(stuck, answerable, caps) if any(stuck) else 0
    loose = [max(count - cored[r], 0) for r, count in enumerate(counts)]
    spare = sum(loose) - sum(kicked)  # loose cards that no safe play can carry
    if spare > 0:
        # Each answerable play holds at most ``held[o]`` loose cards.
        held = [min(options[o].size, sum(map(min, caps[o], loose))) for o in answerable]
        bound = max(bound, -(-spare // max(held)))
    if bound == 1 and not any(
        all(caps[o][r] >= count for r, count in enumerate(stuck) if count)
        and options[o].size >= sum(stuck)
        and min(options[o].size, sum(map(min, caps[o], loose))) >= spare
        for o in answerable
    ):
        bound = 2  # no answerable play can take every stuck card and the spare loose ones
    return bound


def _rank_bound(counts: Sequence[int], among: Sequence[int], caps: Sequence[Sequence[int]]) -> int:
    """Plays needed for ``counts`` from the options ``among``, by ranks no play can share.

    Rank r needs ``ceil(counts[r] / most)`` plays, ``most`` the largest cap of
    an option at r; ranks that no option holds together need disjoint plays.
    """
    held = [r for r, count in enumerate(counts) if count]
    most = dict.fromkeys(held, 0)
    together = dict.fromkeys(held, 0)  # bit s set: some option holds r and s
    for o in among:
        cap = caps[o]
        ranks = [r for r in held if cap[r]]
        mask = sum(1 << r for r in ranks)
        for r in ranks:
            together[r] |= mask
            most[r] = max(most[r], cap[r])
    if any(not most[r] for r in held):
        raise ValueError("no option holds some card")  # a caller's bug
    need = {r: -(-counts[r] // most[r]) for r in held}
    # A heavy set of pairwise incompatible ranks, greedily: any such set is a bound.
    bound = 0
    taken = 0
    for r in sorted(held, key=lambda r: (-need[r], together[r].bit_count())):
        if not together[r] & taken:
            taken |= 1 << r
            bound += need[r]
    return bound
