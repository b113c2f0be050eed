"""Outranked plays (``cpsolver.endgame.kickers``): a higher single, pair, triplet or
chain left out where the same play of a lower rank does all it does.

Held to the brute-force minimax of ``endgame_reference``, which shares no
code with the solver, on small positions of loose cards, with every player to
move (the landlord, either peasant, either player of two), on lead and over a
play, under every bundled rule set.
"""

from __future__ import annotations

import random

import pytest
from endgame_reference import legal_moves, winner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kickers import CORES, RULE_SETS, _decides_as_brute_force, _rules

from cpsolver.endgame import compiled
from cpsolver.endgame.answer import new_search, solve
from cpsolver.endgame.kickers import Kickers
from cpsolver.endgame.packed import pack
from cpsolver.endgame.solver import state_of
from cpsolver.rules.cards import DECK_COUNTS, Hand
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet


def _outranked(rules: RuleSet, position: Position, play: Play) -> bool:
    """Whether the search leaves ``play`` out at ``position`` (its player to move)."""
    hands, turn = position.hands, position.turn
    side = position.side_of(turn)
    others = [p for p in range(position.players) if p != turn]
    opponents = tuple(pack(hands[p]) for p in others if position.side_of(p) != side)
    partner = sum(pack(hands[p]) for p in others if position.side_of(p) == side)
    lowest = 0 if position.table is None else position.table.rank + 1
    pattern = generator(rules).pattern_of(play)
    return Kickers(rules).outranked(
        pack(hands[turn]),
        pack(play.cards),
        pattern,
        play.chain,
        play.rank,
        opponents,
        partner,
        lowest,
    )


def _loose(seed: int, players: int) -> Position:
    """A small position of mostly loose cards, any player to move, on lead or over a single."""
    rng = random.Random(seed)
    deck = [rank for rank, count in enumerate(DECK_COUNTS) for _ in range(count)]
    rng.shuffle(deck)
    hands = tuple(
        Hand.from_ranks([deck.pop() for _ in range(rng.randint(2, 6 if players == 2 else 5))])
        for _ in range(players)
    )
    turn = rng.randrange(players)
    if rng.random() < 0.5:
        return Position(hands, turn)
    by = rng.choice([p for p in range(players) if p != turn])
    # A low single from the cards no hand holds: a rank drawn afresh could be a fifth 9.
    table = Play.parse(str(Hand.from_ranks([rng.choice([r for r in deck if r < 8])])))
    return Position(hands, turn, table, by)


def _chainy(seed: int, players: int) -> Position:
    """A small position whose player to move holds a run of ranks (singles, or pairs) longer
    than the shortest chain, so that chains of one length start at several ranks; any player
    to move, on lead or over a chain of its own length."""
    rng = random.Random(seed)
    deck = [rank for rank, count in enumerate(DECK_COUNTS) for _ in range(count)]
    width = 1 if rng.random() < 0.7 else 2
    length = rng.randint(6, 7) if width == 1 else rng.randint(3, 4)
    start = rng.randrange(0, 12 - length)
    mover = [rank for rank in range(start, start + length) for _ in range(width)]
    chain = 5 if width == 1 else 3
    low = rng.randrange(0, max(1, start))
    table = [r for r in range(low, low + chain) for _ in range(width)]
    on_lead = rng.random() < 0.6
    for rank in mover + ([] if on_lead else table):
        deck.remove(rank)
    rng.shuffle(deck)
    mover += [deck.pop() for _ in range(rng.randint(0, 2))]
    others = [
        [deck.pop() for _ in range(rng.randint(2, 5 if players == 3 else 6))]
        for _ in range(players - 1)
    ]
    turn = rng.randrange(players)
    hands = [Hand.from_ranks(h) for h in others]
    hands.insert(turn, Hand.from_ranks(mover))
    if on_lead:
        return Position(tuple(hands), turn)
    by = rng.choice([p for p in range(players) if p != turn])
    return Position(tuple(hands), turn, Play.parse(str(Hand.from_ranks(table))), by)


def _wins_after(position: Position, play: Play, rules: RuleSet) -> bool:
    """Whether the mover's side wins after ``play`` (brute force)."""
    hands, turn = position.hands, position.turn
    left = hands[turn] - play.cards
    if not left:
        return True
    after = hands[:turn] + (left,) + hands[turn + 1 :]
    found = winner(after, (turn + 1) % len(hands), play, turn, rules)
    return found == position.side_of(turn)


def _no_outranked_play_does_better(position: Position, ruleset: RuleSet) -> None:
    """After each play left out that wins, a lower play of its kind kept wins too (brute force)."""
    moves = [p for p in legal_moves(position.hands[position.turn], position.table, ruleset) if p]
    for play in moves:
        if not _outranked(ruleset, position, play) or not _wins_after(position, play, ruleset):
            continue
        kept = [
            p
            for p in moves
            if (p.kind, p.chain, len(p.cards)) == (play.kind, play.chain, len(play.cards))
            and p.rank < play.rank
            and not _outranked(ruleset, position, p)
        ]
        assert any(_wins_after(position, p, ruleset) for p in kept), (position, str(play))


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
)
def test_an_outranked_play_is_worth_no_more_than_one_kept_of_the_same_kind(
    seed: int, players: int, rules: str
) -> None:
    """After a play left out, the mover's side does no better than after some play kept."""
    _no_outranked_play_does_better(_loose(seed, players), _rules(rules))


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
    core=st.sampled_from(CORES),
)
def test_the_search_without_outranked_plays_gives_the_brute_force_verdict(
    seed: int, players: int, rules: str, core: str
) -> None:
    _decides_as_brute_force(_loose(seed, players), _rules(rules), core)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
)
def test_an_outranked_chain_is_worth_no_more_than_a_lower_chain_kept(
    seed: int, players: int, rules: str
) -> None:
    _no_outranked_play_does_better(_chainy(seed, players), _rules(rules))


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
    core=st.sampled_from(CORES),
)
def test_the_search_without_outranked_chains_gives_the_brute_force_verdict(
    seed: int, players: int, rules: str, core: str
) -> None:
    _decides_as_brute_force(_chainy(seed, players), _rules(rules), core)


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
@pytest.mark.parametrize("rules", RULE_SETS)
def test_both_cores_leave_out_the_same_plays(rules: str) -> None:
    """Searched alike, node for node, and the same moves tried at the root."""
    ruleset = _rules(rules)
    for seed in range(60):
        position = (_loose if seed % 3 else _chainy)(seed, 2 + seed % 2)
        searches = [new_search(position.players, ruleset, core=c) for c in ("python", "compiled")]
        roots = [state_of(s, position) for s in searches]
        tried = [
            [str(s.play(m)) if m >= 0 else "pass" for m in s.tried_moves(root)]
            for s, root in zip(searches, roots)
        ]
        assert tried[0] == tried[1], position
        found = [s.decide(root) for s, root in zip(searches, roots)]
        assert found[0] == found[1], position
        assert searches[0].nodes == searches[1].nodes, position


def test_a_peasant_keeps_a_higher_single_its_partner_could_answer_only_below() -> None:
    """Peasant 2 to lead 4 5 9 T Q; the T is left out for the 9 (nobody holds a T), the 5
    not for the 4: its partner holds a 5, which answers a 4 but not a 5. Leaving the 5 out
    too (opponents alone consulted, as for the landlord) turns this lost position into a
    landlord's win deeper in the tree."""
    position = Position(tuple(Hand.parse(h) for h in ("7QK", "35722", "459TQ")), 2)
    rules = _rules("standard")
    assert _outranked(rules, position, Play.parse("T"))
    assert not _outranked(rules, position, Play.parse("5"))
    assert winner(position.hands, 2, None, None, rules) == 1
    for core in CORES:
        found = solve(position, rules, all_moves=True, core=core)
        assert (found.winner, sorted(map(str, found.moves))) == (1, ["9", "Q", "T"])


@pytest.mark.parametrize(
    ("hands", "turn", "table", "play", "outranked"),
    [
        (("4 9 K", "T J", "3 A"), 0, None, "9", True),  # nobody holds 5-9: the 4 does as much
        (("4 9 K", "T J", "3 6"), 0, None, "9", False),  # a 6 answers the 4, not the 9
        (("44 99 K", "6 T", "3 7"), 0, None, "99", True),  # a lone 6 or 7 answers no pair
        (("44 99 K", "66 T", "3"), 0, None, "99", False),  # a pair of 6s answers 44
        (("4 9 K", "T J", "3 5"), 0, "5", "9", False),  # the 4 does not beat the 5
        (("4 9 K", "T J", "3 A"), 0, "3", "9", True),
        (("4 56789 K", "T J", "3"), 0, None, "K", False),  # the 4 is in a sequence
        (("44 9 K", "T J", "3"), 0, None, "9", False),  # a pair of 4s is not what a 9 is
        (("4 9 R", "T J", "3"), 0, None, "R", False),  # jokers are never swapped
        (("K", "4 9 A", "3 Q"), 1, None, "9", True),  # a peasant, its partner holding no 5-9
        (("K", "4 9 A", "3 6"), 1, None, "9", False),  # the partner's 6 answers the 4 only
        (("345678 K", "T J", "3 A"), 0, None, "45678", True),  # the 3 kept does what the 8 would
        (("345678 K", "T J", "45678"), 0, None, "45678", False),  # it answers 34567 only
        (("345678 K", "T J", "9TJQK"), 0, None, "45678", True),  # above both: answers both
        (("3456789 K", "T J", "A"), 0, None, "56789", True),  # 45678 keeps the 9 for the 4
        (("3456789 K", "T J", "A"), 0, None, "45678", True),  # 34567 keeps the 8 for the 3
        (("3 44 55 66 77 8", "T J", "A"), 0, None, "45678", False),  # 3 left in 34567
        (("3345678 K", "T J", "A"), 0, None, "45678", False),  # two 3s left, one 8
        (("345678 8", "T J", "A"), 0, None, "45678", False),  # an 8 stays either way
        (("334455 66 K", "T J", "A"), 0, None, "445566", True),  # pairs: 33 kept does as 66
        (("334455 66 K", "77 J", "A"), 0, "334455", "445566", False),  # 334455 is beaten
        (("K", "345678", "A"), 1, None, "45678", True),  # a peasant, its partner holding A
        (("K", "345678", "6"), 1, None, "45678", False),  # the partner's 6 is between
    ],
)
def test_outranked_plays_by_hand(
    hands: tuple[str, ...], turn: int, table: str | None, play: str, outranked: bool
) -> None:
    parsed = tuple(Hand.parse(h) for h in hands)
    by = None if table is None else (turn + 2) % 3
    position = Position(parsed, turn, None if table is None else Play.parse(table), by)
    assert _outranked(_rules("standard"), position, Play.parse(play)) is outranked
