"""Needless kickers (``cpsolver.endgame.kickers``): what the search leaves out loses no value.

Held to the brute-force minimax of ``endgame_reference``, which shares no
code with the solver, on positions dealt to hold kicker choices, under every
bundled rule set (their kicker limits differ).
"""

from __future__ import annotations

import random

import pytest
from endgame_reference import legal_moves, winner, winning_moves
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.endgame import compiled
from cpsolver.endgame.answer import new_search, solve
from cpsolver.endgame.kickers import Kickers
from cpsolver.endgame.packed import pack
from cpsolver.endgame.solver import state_of
from cpsolver.rules.cards import BLACK_JOKER, DECK_COUNTS, Hand
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, bundled

RULE_SETS = ("standard", "douzero", "rlcard")
CORES = ["python", *(["compiled"] if compiled.available() else [])]


def _rules(name: str) -> RuleSet:
    found = bundled(name)
    assert found is not None
    return found


def _needless(rules: RuleSet, hand: Hand, play: Play) -> bool:
    pattern = generator(rules).pattern_of(play)
    return Kickers(rules).needless(pack(hand), pack(play.cards), pattern, play.chain, play.rank)


def _decides_as_brute_force(position: Position, ruleset: RuleSet, core: str) -> None:
    """The search's verdict at ``position`` is the brute-force minimax's."""
    search = new_search(position.players, ruleset, core=core)
    mover_wins = search.decide(state_of(search, position))[0]
    truth = winner(position.hands, position.turn, position.table, position.by, ruleset)
    assert mover_wins == (truth == position.side_of(position.turn)), position


def _kicking(seed: int, three: bool, peasant: bool = False) -> Position:
    """A small position whose player to move has a triplet to kick with: with no partner
    (the landlord, either player of two), or with ``peasant``, a peasant."""
    rng = random.Random(seed)
    deck = [rank for rank, count in enumerate(DECK_COUNTS) for _ in range(count)]
    triplet = rng.choice([r for r in range(BLACK_JOKER) if DECK_COUNTS[r] >= 3])
    for _ in range(3):
        deck.remove(triplet)
    rng.shuffle(deck)
    mover = [triplet] * 3 + [deck.pop() for _ in range(rng.randint(2, 5))]
    others = [[deck.pop() for _ in range(rng.randint(1, 4))] for _ in range(2 if three else 1)]
    hands = tuple(Hand.from_ranks(h) for h in (mover, *others))
    if three and peasant:
        turn = rng.choice([1, 2])
        return Position(hands[-turn:] + hands[:-turn], turn)  # the triplet's peasant, on lead
    if three:
        return Position(hands, 0)  # the landlord, on lead
    turn = rng.randrange(2)  # either player of two
    return Position(hands[::-1] if turn else hands, turn)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), three=st.booleans(), rules=st.sampled_from(RULE_SETS))
def test_a_needless_kicker_is_worth_no_more_than_a_kept_one_of_the_same_core(
    seed: int, three: bool, rules: str
) -> None:
    """After a play left out, the mover does no better than after some play kept with its core."""
    ruleset = _rules(rules)
    position = _kicking(seed, three)
    hands, turn = position.hands, position.turn
    mine = 0 if turn == 0 else 1

    def wins_after(play: Play) -> bool:
        left = hands[turn] - play.cards
        if not left:
            return True
        after = hands[:turn] + (left,) + hands[turn + 1 :]
        return winner(after, (turn + 1) % len(hands), play, turn, ruleset) == mine

    plays = [p for p in legal_moves(hands[turn], None, ruleset) if p is not None]
    for play in plays:
        if not _needless(ruleset, hands[turn], play) or not wins_after(play):
            continue
        kept = [
            p
            for p in plays
            if (p.kind, p.rank, p.chain) == (play.kind, play.rank, play.chain)
            and not _needless(ruleset, hands[turn], p)
        ]
        assert any(wins_after(p) for p in kept), (position, str(play), rules)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    three=st.booleans(),
    rules=st.sampled_from(RULE_SETS),
    core=st.sampled_from(CORES),
)
def test_the_search_without_needless_kickers_gives_the_brute_force_verdict(
    seed: int, three: bool, rules: str, core: str
) -> None:
    _decides_as_brute_force(_kicking(seed, three), _rules(rules), core)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULE_SETS), core=st.sampled_from(CORES))
def test_a_peasant_leaving_out_kickers_its_partner_cannot_tell_apart_gets_the_brute_force_verdict(
    seed: int, rules: str, core: str
) -> None:
    _decides_as_brute_force(_kicking(seed, True, peasant=True), _rules(rules), core)


def test_a_peasant_keeps_a_kicker_its_partner_could_answer_only_above_the_lower_one() -> None:
    """Peasant 1 to lead 444 5 7 J wins only by 4447: kicking the 7, where a landlord would
    kick the 5. Its partner's 7 beats the 5 left, not the 7: a peasant keeps the choice."""
    position = Position(tuple(Hand.parse(h) for h in ("TJA", "44457J", "37J2")), 1)
    rules = _rules("standard")
    play, pattern = Play.parse("4447"), generator(rules).pattern_of(Play.parse("4447"))
    args = (pack(position.hands[1]), pack(play.cards), pattern, play.chain, play.rank)
    assert Kickers(rules).needless(*args) and not Kickers(rules).needless(
        *args, pack(position.hands[2])
    )
    assert [str(m) for m in winning_moves(position.hands, 1, None, None, rules)] == ["4447"]
    for core in CORES:
        found = solve(position, rules, all_moves=True, core=core)
        assert (found.winner, [str(m) for m in found.moves]) == (1, ["4447"])


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
@pytest.mark.parametrize("rules", RULE_SETS)
def test_both_cores_leave_out_the_same_kickers(rules: str) -> None:
    """Searched alike, node for node, on positions rich in kicker choices."""
    ruleset = _rules(rules)
    for seed in range(18):
        position = _kicking(seed, seed % 3 != 1, peasant=seed % 3 == 2)
        searches = [new_search(position.players, ruleset, core=c) for c in ("python", "compiled")]
        found = [s.decide(state_of(s, position)) for s in searches]
        assert found[0] == found[1], position
        assert searches[0].nodes == searches[1].nodes, position


@pytest.mark.parametrize(
    ("hand", "play", "needless"),
    [
        ("333 4 K", "333K", True),  # K kicked while a lone 4 stays: 3334 does all it does
        ("333 4 K", "3334", False),
        ("333 45678 K", "333K", False),  # the 4 is in a sequence: it is no mere lone card
        ("333 44 KK", "333KK", True),  # pairs alike
        ("333 44 K", "333K", False),  # a pair of 4s is not what a lone K is
        ("333 4 BR", "333R", False),  # jokers are never swapped
        ("777888 3 4 K A", "777888KA", True),
    ],
)
def test_needless_kickers_by_hand(hand: str, play: str, needless: bool) -> None:
    rules = _rules("standard")
    assert _needless(rules, Hand.parse(hand), Play.parse(play)) is needless
