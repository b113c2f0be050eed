"""The thirteen combinations: what a play is, how to read one, what beats what.

Every kind but the rocket is a *core* — ``width`` cards of each of ``chain``
consecutive ranks — plus, for some kinds, *kickers*: single cards or pairs
attached to the core. A :class:`~cpsolver.rules.patterns.Pattern` says this for
one kind under one rule set (:mod:`cpsolver.rules.patterns`), and :func:`classify`
reads a multiset of cards against every pattern, directly from the
definitions in docs/RULES.md.

>>> play = classify("777888 T J")
>>> play.kind, rank_symbol(play.rank), play.shape
(<Kind.TRIPLET_SEQUENCE_SINGLES: 'triplet_sequence_singles'>, '8', {'triplets': 2})
>>> beats(classify("999TTT 3 4"), play)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any

from cpsolver.rules.cards import BLACK_JOKER, RANK_COUNT, RED_JOKER, Hand, Rank, rank_symbol
from cpsolver.rules.errors import AmbiguousPlayError, InvalidPlayError
from cpsolver.rules.notebook import Pictured
from cpsolver.rules.patterns import (
    KIND_ORDER,
    SEQUENCE_KINDS,
    TRIPLET_CHAIN_KINDS,
    Kind,
    Pattern,
    kicker_limit,
    kicker_limits,
    patterns,
)
from cpsolver.rules.ruleset import RuleSet, standard_rules

# Kinds, patterns and kicker limits live in cpsolver.rules.patterns; they are named
# here as well, where every caller has always found them.
__all__ = [
    "KIND_ORDER",
    "ROCKET_CARDS",
    "Kind",
    "Pattern",
    "Play",
    "beats",
    "classify",
    "kicker_limit",
    "kicker_limits",
    "lazy_cores",
    "lazy_play",
    "lazy_plays",
    "patterns",
    "readings",
    "rocket",
]


ROCKET_CARDS = Hand.from_ranks((BLACK_JOKER, RED_JOKER))


class Play(Pictured):
    """One combination: its cards, kind, ordering rank and shape.

    A play is one reading of its cards: plays compare equal when kind, rank,
    chain and cards are equal (under the standard rules the cards alone fix
    the rest; looser rule sets can read one multiset two ways). ``family`` is
    what ordinary beating compares: kind, chain length and card count.

    >>> Play.parse("TJQKA")
    Play.parse('TJQKA')
    >>> str(Play.parse("6666 9 8")), Play.parse("6666 9 8").shape
    ('666689', {'kickers': 'singles'})
    """

    __slots__ = ("_hash", "_kickers", "_recipe", "cards", "chain", "family", "kind", "rank")

    kind: Kind
    rank: Rank
    chain: int
    cards: Hand
    family: tuple[Kind, int, int]
    # Set by lazy_play only: the kicker ranks, and (core width, kicker size).
    _kickers: tuple[Rank, ...]
    _recipe: tuple[int, int]

    def __init__(self, kind: Kind, rank: Rank, chain: int, cards: Hand) -> None:
        self.kind = kind
        self.rank = rank
        self.chain = chain
        self.cards = cards
        self.family = (kind, chain, len(cards))
        # Equal cards have equal counts: hashing the tuple skips a method call per play.
        self._hash = hash((kind, rank, cards.counts))

    if not TYPE_CHECKING:  # hidden from mypy, which would let every attribute through

        def __getattr__(self, name: str) -> Any:
            """Complete a :func:`lazy_play` on first use: called only for unset slots."""
            if name not in _LAZY_SLOTS:
                raise AttributeError(name)
            width, kicker_size = self._recipe
            kickers = self._kickers
            chain, rank, kind = self.chain, self.rank, self.kind
            core = _core_counts(width, chain, rank)
            if kickers:
                counts = list(core)
                for kicker in kickers:
                    counts[kicker] += kicker_size
                core = tuple(counts)
            size = chain * width + kicker_size * len(kickers)
            self.cards = Hand.trusted(core, size)
            self.family = (kind, chain, size)
            self._hash = hash((kind, rank, core))
            return (
                self.cards if name == "cards" else self.family if name == "family" else self._hash
            )

    @classmethod
    def parse(cls, text: str, rules: RuleSet | None = None) -> Play:
        """Read card notation as a play (see :func:`classify`)."""
        return classify(Hand.parse(text), rules)

    @property
    def size(self) -> int:
        """The number of cards."""
        return len(self.cards)

    @property
    def shape(self) -> dict[str, Any]:
        """What must match for beating besides the kind, in words.

        ``{"length": n}`` for sequences, ``{"triplets": n}`` for the triplet
        chains, ``{"kickers": "singles" | "pairs"}`` for a quadplex, and
        ``{}`` where the kind alone fixes the shape.
        """
        if self.kind in SEQUENCE_KINDS:
            return {"length": self.chain}
        if self.kind in TRIPLET_CHAIN_KINDS:
            return {"triplets": self.chain}
        if self.kind is Kind.QUADPLEX:
            return {"kickers": "singles" if self.size == 6 else "pairs"}
        return {}

    def sort_key(self) -> tuple[int, int, int, Rank, tuple[Rank, ...]]:
        """Kind order, then shape, then rank, then cards low to high: a stable listing order."""
        return (KIND_ORDER[self.kind], self.chain, self.size, self.rank, tuple(self.cards.ranks()))

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"cards", "kind", "rank", "shape"}``."""
        return {
            "cards": str(self.cards),
            "kind": self.kind.value,
            "rank": rank_symbol(self.rank),
            "shape": self.shape,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return (
            self.kind is other.kind
            and self.rank == other.rank
            and self.chain == other.chain
            and self.cards == other.cards
        )

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return str(self.cards)

    def __repr__(self) -> str:
        return f"Play.parse({str(self.cards)!r})"


_LAZY_SLOTS = frozenset({"cards", "family", "_hash"})
_CORE_COUNTS: dict[tuple[int, int, Rank], tuple[int, ...]] = {}


def _core_counts(width: int, chain: int, top: Rank) -> tuple[int, ...]:
    """The counts of a bare core: ``width`` cards of each of ``chain`` ranks up to ``top``.

    A constant of the deck (a few hundred of them), kept once made.
    """
    key = (width, chain, top)
    counts = _CORE_COUNTS.get(key)
    if counts is None:
        made = [0] * RANK_COUNT
        made[top - chain + 1 : top + 1] = [width] * chain
        counts = _CORE_COUNTS[key] = tuple(made)
    return counts


_new_play = object.__new__


def lazy_play(
    kind: Kind, rank: Rank, chain: int, kickers: tuple[Rank, ...], recipe: tuple[int, int]
) -> Play:
    """A play whose cards are written down only when first asked for.

    ``recipe`` is ``(width, kicker_size)``: the play holds ``width`` cards of
    each of the ``chain`` ranks up to ``rank``, plus ``kicker_size`` cards of
    each rank in ``kickers`` (a rank listed twice gives twice). The move
    generator hands out many plays a caller never looks into (it asks their
    kind and rank, or picks one); writing down each one's cards up front would
    cost more than generating them.

    >>> play = lazy_play(Kind.TRIPLET_SINGLE, 3, 1, (0,), (3, 1))
    >>> str(play), play == Play.parse("3 666"), play.family
    ('3666', True, (<Kind.TRIPLET_SINGLE: 'triplet_single'>, 1, 4))
    """
    play: Play = _new_play(Play)
    play.kind = kind
    play.rank = rank
    play.chain = chain
    play._kickers = kickers
    play._recipe = recipe
    return play


# The loops below repeat themselves on purpose: one loop per shape of input
# is a quarter faster than one loop over zipped, repeated inputs, and these
# loops are most of what a hand seen for the first time costs.


def lazy_plays(
    kind: Kind,
    rank: Rank,
    chain: int,
    kicker_choices: list[tuple[Rank, ...]],
    recipe: tuple[int, int],
) -> list[Play]:
    """:func:`lazy_play` for one core and each choice of kickers, in one tight loop.

    >>> [str(p) for p in lazy_plays(Kind.TRIPLET_SINGLE, 3, 1, [(0,), (1,)], (3, 1))]
    ['3666', '4666']
    """
    built: list[Play] = []
    append = built.append
    new = _new_play
    for kickers in kicker_choices:
        play: Play = new(Play)
        play.kind = kind
        play.rank = rank
        play.chain = chain
        play._kickers = kickers
        play._recipe = recipe
        append(play)
    return built


def lazy_cores(
    kind: Kind, ranks: Sequence[Rank], chains: Sequence[int] | int, recipe: tuple[int, int]
) -> list[Play]:
    """:func:`lazy_play` without kickers for each rank (with its chain, or all one chain).

    >>> [str(p) for p in lazy_cores(Kind.PAIR, [0, 4], 1, (2, 0))]
    ['33', '77']
    """
    built: list[Play] = []
    append = built.append
    new = _new_play
    for rank, chain in zip(ranks, repeat(chains) if isinstance(chains, int) else chains):
        play: Play = new(Play)
        play.kind = kind
        play.rank = rank
        play.chain = chain
        play._kickers = ()
        play._recipe = recipe
        append(play)
    return built


def rocket() -> Play:
    """The rocket, B + R, ranked by the red joker."""
    return Play(Kind.ROCKET, RED_JOKER, 1, ROCKET_CARDS)


def beats(x: Play, y: Play) -> bool:
    """Whether play ``x`` beats play ``y`` (docs/RULES.md, "Beating").

    >>> beats(Play.parse("3333"), Play.parse("AAAA 2 B"))
    True
    >>> beats(Play.parse("34567"), Play.parse("345678"))
    False
    """
    # Rule 1: the rocket beats everything (there is one rocket, so not itself).
    if x.kind is Kind.ROCKET:
        return y.kind is not Kind.ROCKET
    # Rule 2: a bomb beats everything but the rocket and a bomb of equal or
    # higher rank; so a bomb beats every quadplex, whatever its rank.
    if x.kind is Kind.BOMB:
        if y.kind is Kind.BOMB:
            return x.rank > y.rank
        return y.kind is not Kind.ROCKET
    # Rule 3: otherwise only the same kind and shape, ranked higher.
    return x.family == y.family and x.rank > y.rank


def readings(cards: Hand | str, rules: RuleSet | None = None) -> list[Play]:
    """Every way ``cards`` read as a play under ``rules``, in kind order.

    Under the standard rules a multiset has at most one reading; looser rule
    sets may allow two (``333444555666`` as four triplets or as three with
    kickers), which is why this returns a list.
    """
    hand = Hand.parse(cards) if isinstance(cards, str) else cards
    return _read(hand, rules or standard_rules(), None)


def classify(cards: Hand | str, rules: RuleSet | None = None) -> Play:
    """The play that ``cards`` form, or :class:`InvalidPlayError` saying why not.

    >>> classify("777888 3 3")
    Traceback (most recent call last):
    ...
    cpsolver.rules.errors.InvalidPlayError: 33777888: kickers of a triplet sequence must be distinct ranks
    """
    hand = Hand.parse(cards) if isinstance(cards, str) else cards
    rules = rules or standard_rules()
    faults: list[str] = []
    found = _read(hand, rules, faults)
    if len(found) > 1:
        kinds = ", ".join(f"{p.kind.value} (rank {rank_symbol(p.rank)})" for p in found)
        raise AmbiguousPlayError(f"{hand}: reads as {kinds} under the {rules.name} rules")
    if not found:
        if not hand:
            raise InvalidPlayError("no cards")
        reason = faults[0] if faults else _shape_fault(hand, rules)
        raise InvalidPlayError(f"{hand}: {reason}")
    return found[0]


def _read(hand: Hand, rules: RuleSet, faults: list[str] | None) -> list[Play]:
    """The readings of ``hand``: each pattern's core, then the rest as its kickers.

    Appends to ``faults`` why each core that fitted had wrong kickers.
    """
    size = len(hand)
    if not size:
        return []
    counts = hand.counts
    found = [rocket()] if hand == ROCKET_CARDS else []
    for pattern in patterns(rules):
        chain, remainder = divmod(size, pattern.link_size)
        if remainder or not pattern.min_chain <= chain <= pattern.max_chain:
            continue
        width = pattern.width
        for top in pattern.top_ranks(chain, rules.highest_chain_rank):
            core = range(top - chain + 1, top + 1)
            if counts[top] < width or any(counts[r] < width for r in core):
                continue
            rest = list(counts)
            for r in core:
                rest[r] -= pattern.width
            fault = _kicker_fault(rest, core, pattern, rules)
            if fault is None:
                found.append(Play(pattern.kind, top, chain, hand))
            elif faults is not None:
                faults.append(fault)
    return found


def _kicker_fault(rest: list[int], core: range, pattern: Pattern, rules: RuleSet) -> str | None:
    """Why ``rest`` is not a valid set of kickers for ``core``, or None if it is."""
    size = pattern.kicker_size
    if size == 0:  # the card count already said the core is all there is
        return None
    noun = pattern.noun
    for r, count in enumerate(rest):
        if not count:
            continue
        if r in core:
            return (
                f"kickers of a {noun} must differ from its own rank{'s' if len(core) > 1 else ''}"
            )
        if count % size:
            return f"kickers of a {noun} must be all single cards or all pairs"
        limit = kicker_limit(rules, pattern, core.start, core.stop - 1, r)
        if count // size > limit:
            if limit == 1:
                return f"kickers of a {noun} must be distinct ranks"
            return f"a {noun} takes at most {limit} kickers of one rank here, not {count // size}"
    # Rule "never both jokers as kickers": 777888 BR is no play.
    if not rules.both_jokers_as_kickers and rest[BLACK_JOKER] and rest[RED_JOKER]:
        return f"kickers of a {noun} may not be both jokers"
    return None


def _shape_fault(hand: Hand, rules: RuleSet) -> str:
    """A reason for cards that fit no pattern's core at all."""
    if len(hand) == 2:
        return "two cards of different ranks (a pair is one rank; B+R is the rocket)"
    present = [r for r in range(RANK_COUNT) if hand[r]]
    widths = {hand[r] for r in present}
    if len(present) > 1 and len(widths) == 1 and (width := widths.pop()) <= 3:
        name = ("sequence", "pair sequence", "triplet sequence")[width - 1]
        minimum = (rules.single_min_length, rules.pair_min_length, rules.triplet_min_length)
        if present[-1] > rules.highest_chain_rank:
            top = rank_symbol(rules.highest_chain_rank)
            return f"a {name} stays within 3..{top}: no 2s or jokers"
        if present[-1] - present[0] + 1 != len(present):
            return f"ranks {' '.join(rank_symbol(r) for r in present)} are not consecutive"
        if len(present) < minimum[width - 1]:
            return f"a {name} needs at least {minimum[width - 1]} ranks, got {len(present)}"
    if max(hand.counts) >= 3:
        return "a triplet takes one single or one pair per triplet, and a quad two of them"
    return f"{len(hand)} cards that form none of the thirteen combinations"
