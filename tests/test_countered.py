"""The countered shortcut against brute force, on both cores.

A player with no partner on lead (the landlord, or either player of two)
whose hand does not run out loses at once where every play of it that the
other side can beat, an opponent beats with a play it cannot beat (or one
that empties the opponent's hand) and then runs out against it alone. These
tests hold the rule to a reference written from that sentence over
``tests/endgame_reference.py``'s readings of every sub-multiset, hold the
loss it claims to a brute-force minimax, and hold the two cores to each
other on the positions it settles. They also show why a peasant is never
asked: its partner's plays escape the argument.
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
from cpsolver.rules.plays import beats
from cpsolver.rules.ruleset import RuleSet
from tests.endgame_reference import _every_play, winner
from tests.test_compiled_core import RULE_SETS
from tests.test_run_outs import _runs_out, _safe

CORES = ["python", "compiled"] if compiled.available() else ["python"]


@cache
def _countered(hand: Hand, opponents: tuple[Hand, ...], rules: RuleSet) -> bool:
    """The rule, as the module docstring says it, over every sub-multiset's readings."""
    for play in _every_play(hand, rules):
        beatable = False
        answered = False
        for opponent in opponents:
            for answer in _every_play(opponent, rules):
                if not beats(answer, play):
                    continue
                beatable = True
                rest = opponent - answer.cards
                if not rest or (_safe(answer, (hand,), rules) and _runs_out(rest, (hand,), rules)):
                    answered = True
        if beatable and not answered:
            return False
    return True


def _deal(rng: random.Random, players: int) -> tuple[Hand, ...]:
    """Small hands, the player to move's first: half of them low cards against high ones,
    the positions where the rule holds."""
    deck = list(Hand.deck().ranks())
    rng.shuffle(deck)
    if rng.random() < 0.5:
        low = [r for r in deck if r < 8][: rng.randint(2, 5)]
        high = [r for r in deck if r >= 6 and r not in low]
        rng.shuffle(high)
        mover, rest = low, high
    else:
        mover, rest = deck[: rng.randint(2, 5)], deck[5:]
    sizes = [rng.randint(1, 4) for _ in range(players - 1)]
    others = [rest[sum(sizes[:k]) : sum(sizes[: k + 1])] for k in range(players - 1)]
    return tuple(Hand.from_ranks(h) for h in (mover, *others))


def _cases(rules: RuleSet, players: int, count: int) -> list[tuple[Hand, ...]]:
    rng = random.Random(f"countered {rules.name} {players}")
    return [_deal(rng, players) for _ in range(count)]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_a_countered_player_is_found_exactly_as_the_reference_says_and_loses(
    rules: RuleSet, players: int
) -> None:
    """RunOuts.countered is the reference's rule on every case; and wherever it holds (the
    hand no one play, not running out), brute force finds the player to move losing."""
    packed = RunOuts(rules)
    held = 0
    for hands in _cases(rules, players, 120):
        mover, opponents = hands[0], hands[1:]
        packed_opponents = tuple(pack(o) for o in opponents)
        found = packed.countered(pack(mover), packed_opponents)
        assert found == _countered(mover, opponents, rules), [str(h) for h in hands]
        if not found or _runs_out(mover, opponents, rules):
            continue
        held += 1
        assert winner(hands, 0, None, None, rules) != 0, [str(h) for h in hands]
    assert held >= 15  # the rule holds often enough among the cases to be tested


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@pytest.mark.parametrize("core", CORES)
def test_the_search_settles_a_countered_position_in_one_node(rules: RuleSet, core: str) -> None:
    """Both cores lose at once, in one node and storing nothing, where the rule holds, and
    search further where it does not (tests/test_compiled_core.py holds the cores' nodes equal)."""
    for hands in _cases(rules, 3, 60):
        mover, opponents = hands[0], hands[1:]
        if any(p.cards == mover for p in _every_play(mover, rules)):
            continue  # out at once
        if _runs_out(mover, opponents, rules):
            continue
        search = new_search(3, rules, core=core)
        state = (tuple(pack(h) for h in hands), 0, NO_TABLE, -1)
        won = search.wins(*state)
        if _countered(mover, opponents, rules):
            assert not won and search.nodes == 1, [str(h) for h in hands]
        else:
            assert search.nodes > 1


def test_a_peasant_on_lead_is_not_asked_its_partner_escapes_the_argument() -> None:
    """Peasant 1 leads; the landlord beats every play of peasant 1's that it can beat and then
    runs out. Yet the peasants win: peasant 1 leads its 3 and its partner covers it with the
    2, which the landlord cannot beat, and goes out. So only a player alone is asked."""
    landlord, first, second = Hand.parse("K 55"), Hand.parse("3 4"), Hand.parse("2")
    packed = RunOuts()
    assert packed.countered(pack(first), (pack(landlord),))  # the rule, asked of peasant 1
    assert winner((landlord, first, second), 1, None, None) == 1  # the peasants win
    search = new_search(3, core="python")
    state = (tuple(pack(h) for h in (landlord, first, second)), 1, NO_TABLE, -1)
    assert search.wins(*state)


def test_the_landlord_with_two_low_singles_against_an_ace_and_a_four_loses_at_once() -> None:
    """The open-hands page's example: the landlord's 3 and 5 are each beaten by peasant 1's
    ace, which the landlord cannot beat, and peasant 1 then goes out with its 4."""
    hands = (Hand.parse("3 5"), Hand.parse("4 A"), Hand.parse("K"))
    for core in CORES:
        search = new_search(3, core=core)
        assert not search.wins(tuple(pack(h) for h in hands), 0, NO_TABLE, -1)
        assert search.nodes == 1
    assert winner(hands, 0, None, None) == 1
