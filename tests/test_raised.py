"""Losses read with a lone card raised (``Carried.lost_raised``), and wins read with
an opponent's lone card raised (``Carried.won_raised``): nothing is lost.

A player on lead loses where the table holds its loss at the same position
but for one of its lone cards ``a`` raised to a rank ``b`` above it that it
does not hold, the copy of ``cpsolver.endgame.kickers`` holding (the ranks
swappable, no chain through ``a``, no joker) and its partner, if it has one,
holding no card above ``a`` up to ``b``. That lemma is held to the
brute-force minimax of ``endgame_reference`` (which shares no code with the
solver) on generated positions under every bundled rule set, and shown to
fail without the partner's condition; every loss the search claims so is
held to it too, and both cores read the same losses node for node. The
converse read (the mover on lead wins, with the same move, where the table
holds its win against its opponent alone with a lone card raised) is the same
lemma with that opponent not to move, held to brute force the same way, and
every win the search reads so, move included.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator

import pytest
from endgame_reference import winner, winning_moves
from hypothesis import given, settings
from hypothesis import strategies as st
from test_outranked import _loose, _rules

from cpsolver.endgame import compiled
from cpsolver.endgame.answer import new_search, solve
from cpsolver.endgame.kickers import Kickers
from cpsolver.endgame.packed import pack, unpack
from cpsolver.endgame.proof import strategy_proof_text
from cpsolver.endgame.solver import Search, state_of
from cpsolver.endgame.tree import State
from cpsolver.io.positiongen import random_position
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.verify.strategy import check_strategy

RULE_SETS = ("standard", "douzero", "rlcard")


def _raised_outcomes(
    position: Position, rules: RuleSet, player: int, partner: int
) -> Iterator[tuple[int, bool, bool]]:
    """Each raised hand the rules read for ``player`` (``partner``: the hand the partner's
    condition reads, 0: none), whether ``player``'s side loses with it, and whether it then
    loses as it is too (brute force)."""
    hands, turn = position.hands, position.turn
    side = position.side_of(player)
    for raised in Kickers(rules).raised(pack(hands[player]), partner):
        other = hands[:player] + (unpack(raised),) + hands[player + 1 :]
        lost = winner(other, turn, None, None, rules) != side
        yield raised, lost, lost and winner(hands, turn, None, None, rules) != side


def _lemma_holds(position: Position, rules: RuleSet, player: int | None = None) -> tuple[int, int]:
    """Where ``player`` (the player on lead unless given) loses with a lone card raised, it
    loses as it is (brute force); returns the pairs checked and those whose raised position
    was a loss."""
    hands, turn = position.hands, position.turn
    player = turn if player is None else player
    partner = pack(hands[3 - player]) if len(hands) == 3 and player else 0  # the rule's
    outcomes = list(_raised_outcomes(position, rules, player, partner))
    for raised, lost, held in outcomes:
        assert held or not lost, (position, player, unpack(raised))
    return len(outcomes), sum(lost for _, lost, _ in outcomes)


def _on_lead(seed: int, players: int) -> Position:
    """A loose position with any player to lead."""
    position = _loose(seed, players)
    return Position(position.hands, position.turn)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
)
def test_a_player_who_loses_with_a_lone_card_raised_loses_as_it_is(
    seed: int, players: int, rules: str
) -> None:
    _lemma_holds(_on_lead(seed, players), _rules(rules))


def _peasant_on_lead(seed: int) -> Position:
    """A loose three-player position with a peasant to lead."""
    position = _loose(seed, 3)
    return Position(position.hands, 1 + seed % 2)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULE_SETS))
def test_a_peasant_who_loses_with_a_lone_card_raised_loses_as_it_is(seed: int, rules: str) -> None:
    _lemma_holds(_peasant_on_lead(seed), _rules(rules))


def test_without_the_partners_condition_a_peasant_would_be_wrongly_lost() -> None:
    """A partner holding a card above the lone one, up to the raised one, could beat the one
    and not the other: the condition is needed (such a position is found among the first)."""
    broken = 0
    for seed in range(200):
        position = _peasant_on_lead(seed)
        outcomes = _raised_outcomes(position, standard_rules(), position.turn, 0)
        broken += sum(lost and not held for _, lost, held in outcomes)
    assert broken > 0


def _against_one_alone(seed: int, players: int) -> tuple[Position, int]:
    """A loose position on lead whose mover has an opponent alone (a peasant to lead against
    the landlord, or either player of two), and that opponent."""
    if players == 2:
        position = _on_lead(seed, 2)
        return position, 1 - position.turn
    return _peasant_on_lead(seed), 0


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
)
def test_a_player_who_wins_against_a_lone_card_raised_wins_against_it_as_it_is(
    seed: int, players: int, rules: str
) -> None:
    """The converse read (``Carried.won_raised``) is the same lemma with the opponent alone
    not to move: it does no better with the lower card, so the mover's win holds."""
    position, opponent = _against_one_alone(seed, players)
    _lemma_holds(position, _rules(rules), opponent)


def test_the_lemma_is_checked_on_many_losses() -> None:
    """The property above is not vacuous: raised hands that lose are met, on both sizes."""
    checked = lost = 0
    for seed in range(60):
        pairs, losses = _lemma_holds(_on_lead(seed, 2 + seed % 2), standard_rules())
        checked, lost = checked + pairs, lost + losses
    assert checked > 100 and lost > 30
    peasants = [_lemma_holds(_peasant_on_lead(seed), standard_rules()) for seed in range(60)]
    assert sum(pairs for pairs, _ in peasants) > 100 and sum(lost for _, lost in peasants) > 30
    against = []
    for seed in range(60):
        position, opponent = _against_one_alone(seed, 2 + seed % 2)
        against.append(_lemma_holds(position, standard_rules(), opponent))
    assert sum(pairs for pairs, _ in against) > 100 and sum(lost for _, lost in against) > 30


def _claims(position: Position, rules: RuleSet, rule: str = "lost_raised") -> list[State]:
    """The states the Python search settled by ``rule``, solving ``position``."""
    return [state for state, _ in _settled(position, rules, rule)]


BOTH = ("lost_raised", "won_raised")


def _settled(position: Position, rules: RuleSet, *read: str) -> list[tuple[State, object]]:
    """The states the Python search settled by the rules named in ``read``, solving
    ``position``, each with what its rule read (a loss: True; a win: the winning play)."""
    settled: list[tuple[State, object]] = []
    search = new_search(len(position.hands), rules, core="python")
    assert isinstance(search, Search)

    def recorder(rule: Callable[..., object]) -> Callable[..., object]:
        def recorded(state: State, *partner: int) -> object:
            found = rule(search, state, *partner)
            if found is True:
                settled.append((state, True))
            elif found is not False and found is not None:
                settled.append((state, search.play_of[found]))
            return found

        return recorded

    for name in read:
        setattr(search, name, recorder(getattr(Search, name)))
    search.decide(state_of(search, position))
    return settled


def _mid_game(seed: int, players: int) -> Position:
    """A position of 8/7/7 cards (three players) or 8 or 9 a hand (two), any player to move,
    on lead or not: large enough for the search to keep the losses the rule reads."""
    sizes = ((8, 8), (7, 7), (7, 7)) if players == 3 else ((8, 9), (8, 9))
    return random_position(random.Random(seed), sizes, mid_trick=0.3)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
)
def test_every_loss_the_search_reads_so_is_a_loss(seed: int, players: int, rules: str) -> None:
    ruleset = _rules(rules)
    for hands, turn, _, _ in _claims(_mid_game(seed, players), ruleset):
        held = tuple(unpack(hand) for hand in hands)
        assert winner(held, turn, None, None, ruleset) != Position(held, turn).side_of(turn)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
)
def test_every_win_the_search_reads_so_is_a_win_with_its_move(
    seed: int, players: int, rules: str
) -> None:
    ruleset = _rules(rules)
    for (hands, turn, _, _), play in _settled(_mid_game(seed, players), ruleset, "won_raised"):
        held = tuple(unpack(hand) for hand in hands)
        assert play in winning_moves(held, turn, None, None, ruleset), (held, turn, play)


def test_the_search_reads_such_wins() -> None:
    """The converse settles positions too, a peasant's against the landlord and either
    player's of two (so the property above is not vacuous)."""
    for players in (2, 3):
        won = [
            state
            for seed in range(30)
            for state in _claims(_mid_game(seed, players), standard_rules(), "won_raised")
        ]
        assert len(won) > 10, players


def test_the_search_reads_such_losses() -> None:
    """The rule settles positions, the landlord's and the peasants' (so the property above
    is not vacuous)."""
    claimed = [
        state for seed in range(30) for state in _claims(_mid_game(seed, 3), standard_rules())
    ]
    assert sum(state[1] == 0 for state in claimed) > 10
    assert sum(state[1] != 0 for state in claimed) > 10


CORES = ["python", *(["compiled"] if compiled.available() else [])]


@pytest.mark.parametrize("core", CORES)
def test_a_strategy_read_past_such_losses_and_wins_is_a_proof(core: str) -> None:
    """A position settled by either rule is too cheap to keep: the strategy's read-out
    searches it again (a loss, every move of the loser answered; a win, past its move read),
    and the checker accepts it."""
    proven = 0
    for seed in range(12):
        position = _mid_game(seed, 3)
        if not _settled(position, standard_rules(), *BOTH):
            continue
        # No memory cap: it reads the process's memory, which a long test run can fill.
        result = solve(position, standard_rules(), core=core, strategy=True, memory=None)
        proof = json.loads(strategy_proof_text(result, standard_rules()))
        assert check_strategy(proof, position, standard_rules()) is None, position
        proven += 1
    assert proven > 3


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
@pytest.mark.parametrize("rules", ["standard", "douzero"])
def test_both_cores_read_the_same_losses_and_wins_node_for_node(rules: str) -> None:
    """Positions where the Python search settles nodes by either rule: the compiled core
    searches the very same nodes to the same verdict."""
    ruleset, compared = _rules(rules), 0
    for seed in range(30):
        position = _mid_game(seed, 2 + seed % 2)
        if not _settled(position, ruleset, *BOTH):
            continue
        results = [  # no memory cap: it reads the process's memory, and a long run has more
            solve(position, ruleset, core=core, strategy=False, memory=None)
            for core in ("python", "compiled")
        ]
        assert results[0].winner == results[1].winner, position
        assert results[0].stats["nodes"] == results[1].stats["nodes"], position
        compared += 1
    assert compared > 3


def test_under_rlcards_rules_nothing_is_read_so() -> None:
    """RLCard's kicker limits differ from rank to rank: no two ranks are swappable, and the
    copy, hence the rule, never holds."""
    rules = _rules("rlcard")
    assert not any(_settled(_mid_game(seed, 3), rules, *BOTH) for seed in range(10))
