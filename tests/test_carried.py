"""Refutations carried to higher plays (``cpsolver.endgame.carried``): nothing is lost.

The rule rests on the copy of ``cpsolver.endgame.kickers``: a player alone
holding the ``b`` cards of a lone group where it held the ``a`` ones (a < b,
``Kickers.copies``) does at least as well. That lemma is held to the
brute-force minimax of ``endgame_reference`` (which shares no code with the
solver) on positions after every such pair of plays and every answer that
beats both; the search using it is held to the brute force's verdict and
winning moves, on both cores, which must carry the same plays node for node.
"""

from __future__ import annotations

import random

import pytest
from endgame_reference import legal_moves, winner, winning_moves
from hypothesis import given, settings
from hypothesis import strategies as st
from test_outranked import _loose, _rules

from cpsolver.endgame import compiled
from cpsolver.endgame.answer import new_search, solve
from cpsolver.endgame.kickers import Kickers
from cpsolver.endgame.packed import pack
from cpsolver.endgame.shares import OrderRecord
from cpsolver.endgame.solver import state_of
from cpsolver.endgame.tree import State, Tree
from cpsolver.io.positiongen import random_position
from cpsolver.rules.cards import Hand
from cpsolver.rules.plays import Kind, Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules

RULE_SETS = ("standard", "douzero", "rlcard")
CORES = ["python", *(["compiled"] if compiled.available() else [])]
GROUPS = (Kind.SINGLE, Kind.PAIR, Kind.TRIPLET)


def _lone_groups(hand: Hand, rules: RuleSet) -> list[Play]:
    """The hand's plays of all its cards of one rank and nothing else, no joker."""
    return [
        play
        for play in legal_moves(hand, None, rules)
        if play is not None
        and play.kind in GROUPS
        and play.rank < 13
        and hand.counts[play.rank] == len(play.cards)
    ]


def _copied(rules: RuleSet, hand: Hand, lower: Play, higher: Play) -> bool:
    rest = hand - higher.cards  # what the higher play leaves: the lower cards among it
    return Kickers(rules).copies(pack(rest), lower.rank, higher.rank, len(lower.cards))


def _lemma_holds(position: Position, rules: RuleSet) -> int:
    """After a lone group ``a`` and an answer beating the group ``b`` above it too, the player
    alone does no better having played ``b`` (brute force); returns the cases checked."""
    hands, turn = position.hands, position.turn
    players = len(hands)
    if position.table is not None or (players == 3 and turn != 0):
        return 0
    hand, checked = hands[turn], 0
    groups = _lone_groups(hand, rules)
    for lower in groups:
        for higher in groups:
            if higher.kind is not lower.kind or higher.rank <= lower.rank:
                continue
            if not _copied(rules, hand, lower, higher):
                continue
            after = {
                play: hands[:turn] + (hand - play.cards,) + hands[turn + 1 :]
                for play in (lower, higher)
            }
            if not all(after[p][turn] for p in after):
                continue
            following = (turn + 1) % players
            # No answer (everyone passes: the player leads again), or the next player's
            # answer beating both plays.
            answers = [None, *(a for a in legal_moves(hands[following], higher, rules) if a)]
            for answer in answers:
                results = []
                for play in (lower, higher):
                    held = after[play]
                    if answer is None:
                        results.append(winner(held, turn, None, None, rules))
                        continue
                    left = held[following] - answer.cards
                    if not left:
                        results.append(position.side_of(following))
                        continue
                    held = held[:following] + (left,) + held[following + 1 :]
                    results.append(
                        winner(held, (following + 1) % players, answer, following, rules)
                    )
                checked += 1
                mine = position.side_of(turn)
                # The lower play lost after this answer: so does the higher one.
                assert results[0] == mine or results[1] != mine, (position, lower, higher, answer)
    return checked


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
)
def test_the_higher_group_does_no_better_after_an_answer_that_beats_both(
    seed: int, players: int, rules: str
) -> None:
    position = _loose(seed, players)
    if players == 3:  # the landlord alone, to lead
        position = Position(position.hands, 0)
    elif position.table is not None:
        position = Position(position.hands, position.turn)
    _lemma_holds(position, _rules(rules))


def test_the_lemma_is_checked_on_many_answers() -> None:
    """The property above is not vacuous: lone groups, copies and answers are met."""
    checked = 0
    for seed in range(40):
        position = _loose(seed, 2 + seed % 2)
        position = Position(position.hands, 0)
        checked += _lemma_holds(position, standard_rules())
    assert checked > 100


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3]),
    rules=st.sampled_from(RULE_SETS),
    core=st.sampled_from(CORES),
)
def test_the_search_carrying_refutations_gives_the_brute_force_answer(
    seed: int, players: int, rules: str, core: str
) -> None:
    position, ruleset = _loose(seed, players), _rules(rules)
    hands, turn, table, by = position.hands, position.turn, position.table, position.by
    result = solve(position, ruleset, all_moves=True, core=core, strategy=False)
    assert result.winner == winner(hands, turn, table, by, ruleset), position
    expected = winning_moves(hands, turn, table, by, ruleset)
    named = ["pass" if move is None else str(move) for move in expected]
    assert sorted(map(str, result.moves)) == sorted(named), position


@pytest.mark.parametrize("core", CORES)
def test_the_search_carries_refutations_where_a_low_card_is_answered_high(core: str) -> None:
    """The landlord's 6 loses to peasant 1's answer over it (a queen or a king), which beats its
    8 and 9 too: refuted after the 6, those are not tried; its ace is."""
    position = Position.parse(["689A", "QK", "479"])
    result = solve(position, standard_rules(), all_moves=True, core=core, strategy=False)
    assert result.winner == 1 == winner(position.hands, 0, None, None, standard_rules())
    assert result.stats["carried"] == 2


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
@pytest.mark.parametrize("rules", RULE_SETS)
def test_both_cores_carry_the_same_refutations(rules: str) -> None:
    """Node for node, and the same plays carried; on enough positions that some are, under
    rules whose kicker limits let some ranks stand for others (not RLCard's)."""
    ruleset, carried = _rules(rules), 0
    for seed in range(80):
        position = _loose(seed, 2 + seed % 2)
        searches = [new_search(position.players, ruleset, core=c) for c in ("python", "compiled")]
        found = [s.decide(state_of(s, position)) for s in searches]
        assert found[0] == found[1], position
        assert searches[0].nodes == searches[1].nodes, position
        assert searches[0].carried == searches[1].carried, position
        carried += searches[0].carried
    kickers = Kickers(ruleset)
    assert (carried > 0) == any(kickers.swappable(a, b) for a in range(13) for b in range(a))


def _split_deciding(search: Tree, root: State) -> tuple[tuple[bool, int | None], list[str]]:
    """``search.decide(root)``, and the first moves its split left undecided (every other one
    where the mover loses; where it wins, those before the winning one)."""
    decided: list[State] = []
    decide = search._decided

    def recording(state: State, split: bool, second_order: bool, record: OrderRecord) -> object:
        if not split:
            decided.append(state)
        return decide(state, split, second_order, record)

    search._decided = recording  # type: ignore[assignment, method-assign]
    found = search.decide(root)
    assert len(decided) == search.split_moves
    left, met = [], 0
    for move in search.tried_moves(root):
        if met == len(decided) and found[0]:
            break
        if search.successor(root, move) in decided:
            met += 1
        else:
            left.append(str(search.play(move)))
    return found, left


@pytest.mark.parametrize("core", CORES)
def test_a_split_leaves_undecided_a_first_move_a_lower_ones_refutation_carries_to(
    core: str,
) -> None:
    """Past width 2 a three-player position is decided first move by first move; the landlord's
    lone queen is not, the refutation of its lone jack carrying to it (the search would not
    try it either). The landlord loses, as brute force says, and the split's verdict stands."""
    position, rules = Position.parse(["34466JQKK", "57779J2", "3589QQA2"]), standard_rules()
    search = new_search(3, rules, core=core)
    root = state_of(search, position)
    found, left = _split_deciding(search, root)
    assert found == (False, 2)
    assert len(search.tried_moves(root)) == 8 and search.split_moves == 7
    assert left == ["Q"]
    assert winner(position.hands, 0, None, None, rules) == 1


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
def test_both_cores_split_alike_carrying_the_same_first_moves() -> None:
    """On positions split move by move, both cores decide the same first moves, node for node,
    to the verdict the plain search (no split) gives; the split carries a first move on some."""
    rng, carried = random.Random("split-carry"), 0
    for _ in range(30):
        position = random_position(rng, ((9, 11), (7, 9), (7, 9)), 0.0)
        runs = []
        for core in ("python", "compiled"):
            search = new_search(3, standard_rules(), core=core)
            root = state_of(search, position)
            found, left = _split_deciding(search, root)
            runs.append((found, search.split_moves, left, search.nodes, search.carried))
        assert runs[0] == runs[1], position
        (mover_wins, _), _, left, _, _ = runs[0]
        plain = new_search(3, standard_rules(), core="compiled")
        assert plain.decide(state_of(plain, position), split=False)[0] == mover_wins, position
        carried += bool(left)
    assert carried >= 2


@pytest.mark.skipif(not compiled.available(), reason="the compiled core was not built")
def test_the_compiled_cores_carried_rule_reads_as_the_python_ones() -> None:
    """The three steps the split asks of a core (lone_group, carried_to, carries), asked of
    both cores after the same search, give the same answers."""
    rules, asked = standard_rules(), 0
    for seed in range(30):
        position = Position(_loose(seed, 3).hands, 0)
        searches = [new_search(3, rules, core=c) for c in ("python", "compiled")]
        roots = [state_of(s, position) for s in searches]
        for search, root in zip(searches, roots):
            search.wins(*root)
        hand = position.hands[0]
        refuted: list[tuple[int, int, int]] = []
        for play in legal_moves(hand, None, rules):
            if play is None or play.cards == hand:
                continue
            answers = []
            for search, root in zip(searches, roots):
                move = search.index(play)
                rank = search.lone_group(root[0][0], move)
                child = search.successor(root, move)
                assert child is not None
                above = (
                    -1
                    if rank < 0
                    else search.carried_to(search.past_forced_passes(child), 0, len(play.cards))
                )
                carries = rank >= 0 and search.carries(root[0][0], refuted, rank, len(play.cards))
                answers.append((rank, above, carries))
            assert answers[0] == answers[1], (position, play)
            rank, above, _ = answers[0]
            if rank >= 0 and above > rank + 1:
                refuted.append((rank, len(play.cards), above))
                asked += 1
    assert asked >= 10


def test_a_lone_group_is_all_the_hand_holds_of_its_rank_and_no_joker() -> None:
    search = new_search(3, standard_rules(), core="python")
    hand = pack(Hand.parse("3 55 999 TTTT K B R"))
    groups = {
        cards: search.lone_group(hand, search.index(Play.parse(cards)))
        for cards in ("3", "55", "999", "5", "99", "TTTT", "K", "B", "BR", "9995")
    }
    assert groups == {
        "3": 0,
        "55": 2,
        "999": 6,
        "5": -1,  # two 5s held
        "99": -1,
        "TTTT": -1,  # a bomb
        "K": 10,
        "B": -1,  # a joker
        "BR": -1,
        "9995": -1,  # a kicker
    }
    kickers = Kickers(standard_rules())
    rest = pack(Hand.parse("3 4 5 6 7 K"))  # the 3 ends a straight: the K cannot stand for it
    assert not kickers.copies(rest, 0, 10, 1)
    assert kickers.copies(pack(Hand.parse("3 7 9 K")), 0, 10, 1)
