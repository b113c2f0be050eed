"""The run-out shortcut against brute force, on both cores.

A player on lead whose hand splits into plays no opponent can beat, but for
one played last, wins at once: the search keeps the plan and searches no
further. Finding such a split is a search of its own, cut short by counting
cards (the ranks only kickers can take, against the cores that carry them).
These tests hold the shortcut, cut and all, to a brute force that tries every
play of the hand with no cut (``tests/endgame_reference.py``'s readings of
every sub-multiset), and the two cores to each other.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from cpsolver.endgame import compiled
from cpsolver.endgame.answer import new_search
from cpsolver.endgame.packed import pack
from cpsolver.endgame.runouts import RunOuts
from cpsolver.endgame.tree import NO_TABLE
from cpsolver.rules.cards import Hand
from cpsolver.rules.plays import Play, beats
from cpsolver.rules.ruleset import RuleSet
from tests.endgame_reference import _every_play
from tests.test_compiled_core import RULE_SETS

CORES = ["python", "compiled"] if compiled.available() else ["python"]


@cache
def _safe(play: Play, opponents: tuple[Hand, ...], rules: RuleSet) -> bool:
    return not any(beats(q, play) for o in opponents for q in _every_play(o, rules))


@cache
def _runs_out(hand: Hand, opponents: tuple[Hand, ...], rules: RuleSet) -> bool:
    """Whether ``hand`` empties from the lead with every play but the last unbeatable."""
    for play in _every_play(hand, rules):
        rest = hand - play.cards
        if not rest or (_safe(play, opponents, rules) and _runs_out(rest, opponents, rules)):
            return True
    return False


def _hands(rng: random.Random) -> tuple[Hand, tuple[Hand, ...], Hand]:
    """A hand, its opponents' (one or two) and, against one, a partner's (or no cards):
    half of the hands a few trios or fours of high ranks over low cards that only kickers
    can take, the hands the count cuts."""
    deck = list(Hand.deck().ranks())
    rng.shuffle(deck)
    if rng.random() < 0.5:
        hand = deck[: rng.randint(4, 11)]
    else:
        carriers = rng.sample(range(7, 13), rng.randint(1, 3))
        hand = [r for r in deck if r in carriers and rng.random() < 0.9]
        hand += [r for r in deck if r < 7][: rng.randint(1, 6)]
    left = list((Hand.deck() - Hand.from_ranks(hand)).ranks())
    rng.shuffle(left)
    sizes = [rng.randint(1, 6) for _ in range(rng.choice((1, 2)))]
    opponents = tuple(
        Hand.from_ranks(left[sum(sizes[:k]) : sum(sizes[: k + 1])]) for k in range(len(sizes))
    )
    partner = left[sum(sizes) : sum(sizes) + rng.randint(1, 5)] if len(sizes) == 1 else []
    return Hand.from_ranks(hand), opponents, Hand.from_ranks(partner)


def _cases(rules: RuleSet, count: int) -> list[tuple[Hand, tuple[Hand, ...], Hand]]:
    rng = random.Random(f"run-outs {rules.name}")
    return [_hands(rng) for _ in range(count)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_the_python_run_out_is_found_exactly_where_brute_force_finds_one(rules: RuleSet) -> None:
    """Against one opponent or two; every plan found plays out the hand, all but its last
    play unbeatable."""
    packed = RunOuts(rules)
    found = 0
    for hand, opponents, _ in _cases(rules, 150):
        plan = packed.runs_out(pack(hand), tuple(pack(o) for o in opponents))
        expected = _runs_out(hand, opponents, rules)
        assert (plan is not None) == expected, (str(hand), [str(o) for o in opponents])
        if plan is not None:
            found += 1
            plays = [packed.play_of[m] for m in plan]
            assert sum((p.cards for p in plays), Hand.empty()) == hand
            assert all(_safe(p, opponents, rules) for p in plays[:-1])
    assert 20 <= found <= 130  # both answers are common among the cases


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@pytest.mark.parametrize("core", CORES)
def test_the_search_wins_by_the_run_out_exactly_where_brute_force_finds_one(
    rules: RuleSet, core: str
) -> None:
    """The player on lead (the landlord against two peasants, a peasant against the landlord,
    or one of two players) wins at once by a kept plan exactly where its hand runs out; the
    plans of both cores are the reference's."""
    for hand, opponents, partner in _cases(rules, 150):
        if any(p.cards == hand for p in _every_play(hand, rules)):
            continue  # one play: out at once, not a plan
        if partner:  # peasant 1 on lead, its partner after it
            hands, turn = (opponents[0], hand, partner), 1
        else:
            hands, turn = (hand, *opponents), 0
        search = new_search(len(hands), rules, core=core)
        state = (tuple(pack(h) for h in hands), turn, NO_TABLE, -1)
        search.wins(*state)
        entry = search.lookup(state)
        assert isinstance(entry, tuple) == _runs_out(hand, opponents, rules)
        if isinstance(entry, tuple):
            plays = [search.play(m) for m in entry]
            assert sum((p.cards for p in plays), Hand.empty()) == hand
            assert all(_safe(p, opponents, rules) for p in plays[:-1])
            reference = RunOuts(rules)
            plan = reference.runs_out(pack(hand), tuple(pack(o) for o in opponents))
            assert plan is not None and [reference.play_of[m] for m in plan] == plays


def test_the_count_cuts_a_hand_of_low_singles_too_many_for_its_trios_to_carry() -> None:
    """One of the hands that cost most to refute on a full deal: a plane of queens to aces, a
    2 and five low singles, against a landlord holding 6 T A 22. Three trios carry three
    kickers and the last play takes one more card, where the five singles need five."""
    packed = RunOuts()
    hand, landlord = pack(Hand.parse("3678TQQQKKKAAA2")), pack(Hand.parse("6TA22"))
    safe = [p for p in packed.plays(hand) if not packed.can_answer(landlord, p)]
    could_cover = packed._card_count(hand, safe).could_cover
    assert not could_cover(hand - pack(Hand.parse("2")))
    assert packed.runs_out(hand, (landlord,)) is None
    assert could_cover(pack(Hand.parse("678QQQKKKAAA")))  # three singles, three trios


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_the_count_never_cuts_a_split_that_exists(rules: RuleSet) -> None:
    """Every part of a hand that splits into unbeatable plays passes the count (the cut is
    sound: it only ever refuses splits that brute force refutes too)."""
    packed = RunOuts(rules)
    checked = 0
    for hand, opponents, _ in _cases(rules, 50):
        opponents_packed = tuple(pack(o) for o in opponents)
        safe = [
            p
            for p in packed.plays(pack(hand))
            if not any(packed.can_answer(o, p) for o in opponents_packed)
        ]
        could_cover = packed._card_count(pack(hand), safe).could_cover
        plays = _every_play(hand, rules)
        for play in random.Random(str(hand)).sample(plays, min(len(plays), 15)):  # less a play
            left = hand - play.cards
            if left and _splits_safely(left, opponents, rules):
                checked += 1
                assert could_cover(pack(left)), (str(hand), str(left))
    assert checked >= 50


@cache
def _splits_safely(hand: Hand, opponents: tuple[Hand, ...], rules: RuleSet) -> bool:
    return not hand or any(
        _safe(p, opponents, rules) and _splits_safely(hand - p.cards, opponents, rules)
        for p in _every_play(hand, rules)
    )
