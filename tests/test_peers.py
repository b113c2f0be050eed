"""The rlcard and douzero profiles against RLCard's and DouZero's own move generators.

``plays(hand)`` under each profile must equal the set of plays the peer
generates for the hand, and ``answers`` the peer's answers to a play, on
thousands of generated hands. DouZero's answers differ from its own generator
in a few places; each is a bug of DouZero's, listed with a minimal example in
DOUZERO_BUGS, and every difference must be one of them. (Under DouZero's
rules some multisets read two ways, e.g. 999TTTJJJQQQ as four triplets or as
three with kickers; DouZero answers with either reading, and so do we.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from douzero.env import move_detector
from douzero.env.game import GameEnv
from douzero.env.move_generator import MovesGener
from rlcard.games.doudizhu.judger import DoudizhuJudger
from rlcard.games.doudizhu.utils import get_gt_cards

from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import DECK_COUNTS, RANK_SYMBOLS, Hand
from cpsolver.rules.movegen import MoveGenerator, generator
from cpsolver.rules.plays import Kind, Play

pytestmark = pytest.mark.peers

RLCARD = generator(load_rules("rlcard"))
DOUZERO = generator(load_rules("douzero"))
DECK = [rank for rank, count in enumerate(DECK_COUNTS) for _ in range(count)]
# DouZero numbers cards 3..14 for 3..A, 17 for 2, 20 and 30 for the jokers.
DZ_CODES = [*range(3, 15), 17, 20, 30]
DZ_RANKS = {code: rank for rank, code in enumerate(DZ_CODES)}


# -- the peers, spoken to in their own terms ------------------------------------


def rlcard_plays(hand: Hand) -> set[Hand]:
    return {Hand.parse(cards) for cards in DoudizhuJudger.playable_cards_from_hand(str(hand))}


class _Card:  # what RLCard's cards2str reads
    def __init__(self, symbol: str) -> None:
        self.rank, self.suit = (
            ("", {"B": "BJ", "R": "RJ"}[symbol]) if symbol in "BR" else (symbol, "S")
        )


class _Player:  # what get_gt_cards reads of a player
    def __init__(self, hand: Hand, played: str = "") -> None:
        self.current_hand = [_Card(symbol) for symbol in str(hand)]
        self.played_cards = played


def rlcard_answers(hand: Hand, target: Play) -> set[Hand]:
    found = get_gt_cards(_Player(hand), _Player(Hand.empty(), str(target)))
    return {Hand.parse(cards) for cards in found if cards != "pass"}


def douzero_cards(hand: Hand) -> list[int]:
    return [DZ_CODES[rank] for rank in hand.ranks()]


def douzero_plays(hand: Hand) -> set[Hand]:
    return {
        Hand.from_ranks(DZ_RANKS[c] for c in move)
        for move in MovesGener(douzero_cards(hand)).gen_moves()
    }


class _Info:
    player_hand_cards: list[int]


class _Env:  # the parts of GameEnv that get_legal_card_play_actions reads
    acting_player_position = "landlord"

    def __init__(self, hand: Hand, target: Play) -> None:
        self.info_sets = {"landlord": _Info()}
        self.info_sets["landlord"].player_hand_cards = douzero_cards(hand)
        self.card_play_action_seq = [douzero_cards(target.cards)]


def douzero_answers(hand: Hand, target: Play) -> set[Hand]:
    moves = GameEnv.get_legal_card_play_actions(_Env(hand, target))  # type: ignore[arg-type]
    return {Hand.from_ranks(DZ_RANKS[c] for c in move) for move in moves if move}


def douzero_reads_wrong(target: Play) -> bool:
    return (
        move_detector.get_move_type(douzero_cards(target.cards))["type"]
        == move_detector.TYPE_15_WRONG
    )


# -- hands that reach the corners: chains, kickers next to them, 2s, jokers -------------


def uniform(rng: random.Random) -> Hand:
    return Hand.from_ranks(rng.sample(DECK, rng.randint(1, 20)))


def window(rng: random.Random) -> Hand:
    low = rng.randint(0, 12)
    pool = [r for r in DECK if low <= r <= low + rng.randint(2, 8)]
    cards = rng.sample(pool, rng.randint(1, min(16, len(pool))))
    rest = [r for r in DECK if r not in set(pool)]
    return Hand.from_ranks(cards + rng.sample(rest, rng.randint(0, 4)))


def chain_edges(rng: random.Random) -> Hand:
    """A triplet chain with its neighbours, 2s and jokers at random counts, at most 20 cards."""
    length = rng.randint(2, 5)
    start = rng.randint(0, 12 - length)
    counts = [0] * 15
    for r in range(start, start + length):
        counts[r] = rng.choice((3, 3, 3, 4))
    for r in (start - 1, start + length, 12):
        if 0 <= r <= 12 and not counts[r]:
            counts[r] = rng.randint(0, 4)
    counts[13], counts[14] = rng.randint(0, 1), rng.randint(0, 1)
    while sum(counts) > 20:
        spare = [r for r in range(15) if counts[r] and not start <= r < start + length]
        counts[rng.choice(spare) if spare else start + length - 1] -= 1
    return Hand(counts)


def hands(seed: int, count: int) -> Iterator[Hand]:
    rng = random.Random(seed)
    makers = (uniform, window, chain_edges)
    for index in range(count):
        yield makers[index % 3](rng)


def any_kind(plays: list[Play], rng: random.Random) -> Play:
    """A play of a kind drawn uniformly from the kinds present, so rare kinds are asked too."""
    kinds = sorted({p.kind for p in plays}, key=list(Kind).index)
    kind = rng.choice(kinds)
    return rng.choice([p for p in plays if p.kind is kind])


def rest_of_deck(hand: Hand, rng: random.Random) -> Hand:
    left = [r for r in range(15) for _ in range(DECK_COUNTS[r] - hand[r])]
    return Hand.from_ranks(rng.sample(left, rng.randint(1, min(20, len(left)))))


# -- plays --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "peer"), [(RLCARD, rlcard_plays), (DOUZERO, douzero_plays)], ids=["rlcard", "douzero"]
)
def test_plays_equal_the_peers_own(moves: MoveGenerator, peer: Callable[[Hand], set[Hand]]) -> None:
    for hand in hands(seed=2026, count=4000):
        ours = {play.cards for play in moves.plays(hand)}
        assert ours == peer(hand), (
            f"{hand}: ours only {ours - peer(hand)}, peer only {peer(hand) - ours}"
        )


# -- answers ------------------------------------------------------------------------


def test_rlcard_answers_equal_rlcards_own() -> None:
    rng = random.Random(7)
    for hand in hands(seed=7, count=4000):
        target = any_kind(RLCARD.plays(hand), rng)
        answerer = rest_of_deck(hand, rng)
        ours = {play.cards for play in RLCARD.answers(answerer, target)}
        assert ours == rlcard_answers(answerer, target), (str(answerer), str(target))


@dataclass(frozen=True)
class Bug:
    """A place where DouZero's answers disagree with its own generator."""

    name: str
    example: tuple[
        str, str, str
    ]  # answerer, the play to answer (as DouZero generates it), reading rank
    applies: Callable[[Play, set[Hand], set[Hand]], bool]  # (target, ours only, DouZero only)


def _highest_triplet_is_not_the_chain_top(target: Play) -> bool:
    triplets = [r for r in range(15) if target.cards[r] == 3]
    return (
        target.kind is Kind.TRIPLET_SEQUENCE_SINGLES
        and bool(triplets)
        and max(triplets) != target.rank
    )


DOUZERO_BUGS = [
    Bug(
        "B2: a 16- or 20-card airplane whose kickers hold 3 or 4 of a rank is generated, but read as "
        "WRONG, so only bombs and the rocket answer it",
        ("888999TTTJJJQQQK", "3334445556667778", "6"),
        lambda target, ours, theirs: douzero_reads_wrong(target),
    ),
    Bug(
        "B3: an airplane is ranked by its highest triplet, kickers included, not by its chain",
        ("6667778889TJ", "333444555KKK", "5"),
        lambda target, ours, theirs: _highest_triplet_is_not_the_chain_top(target),
    ),
]


def douzero_reading(cards: Hand) -> Play:
    """Our reading of a play as DouZero reads it: a plain triplet run before an airplane."""
    readings = [p for p in DOUZERO.plays(cards) if p.cards == cards]
    return min(readings, key=lambda p: (p.kind is Kind.TRIPLET_SEQUENCE_SINGLES, -p.rank))


@pytest.mark.parametrize("bug", DOUZERO_BUGS, ids=lambda bug: bug.name[:2])
def test_each_douzero_bug_still_shows_on_its_example(bug: Bug) -> None:
    answerer, target_cards, rank = bug.example
    readings = [p for p in DOUZERO.plays(Hand.parse(target_cards)) if str(p) == target_cards]
    [target] = [p for p in readings if RANK_SYMBOLS[p.rank] == rank]
    ours = {play.cards for play in DOUZERO.answers(Hand.parse(answerer), target)}
    theirs = douzero_answers(Hand.parse(answerer), target)
    assert ours != theirs
    assert bug.applies(target, ours - theirs, theirs - ours)


def test_douzero_answers_equal_douzeros_own_but_for_its_bugs() -> None:
    rng = random.Random(11)
    differences = 0
    for hand in hands(seed=11, count=2500):
        target = douzero_reading(
            rng.choice(sorted({p.cards for p in DOUZERO.plays(hand)}, key=str))
        )
        answerer = rest_of_deck(hand, rng)
        ours = {play.cards for play in DOUZERO.answers(answerer, target)}
        theirs = douzero_answers(answerer, target)
        if ours != theirs:
            differences += 1
            explained = [
                bug.name
                for bug in DOUZERO_BUGS
                if bug.applies(target, ours - theirs, theirs - ours)
            ]
            assert explained, (
                f"unexplained: {answerer} answering {target} ({target.kind.value}); ours only "
                f"{sorted(map(str, ours - theirs))}, DouZero only {sorted(map(str, theirs - ours))}"
            )
    assert differences < 400  # the bugs are corner cases; most answers agree
