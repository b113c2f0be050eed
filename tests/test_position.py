"""Open-hand positions: validation, and the JSON and text forms with their round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from test_endgame import positions

from cpsolver.io.positionformat import (
    PositionFormatError,
    parse_position,
    position_as_dict,
    position_as_text,
    position_from_dict,
)
from cpsolver.rules.cards import Deal
from cpsolver.rules.errors import CpsolverError, PositionError
from cpsolver.rules.position import Position


@settings(max_examples=200, deadline=None)
@given(positions(most=10))
def test_json_and_text_round_trip(position: Position) -> None:
    assert parse_position(json.dumps(position_as_dict(position))) == position
    assert parse_position(position_as_text(position)) == position


def test_a_deal_is_a_three_player_position_with_the_landlord_to_lead() -> None:
    text = '{"landlord": "333 4", "peasants": ["5", "6"]}'
    assert parse_position(text) == Position.from_deal(Deal.parse("3334", "5", "6"))
    deal_file = "landlord: 3334\npeasant1: 5\npeasant2: 6\n"
    assert parse_position(deal_file) == parse_position(text)


def test_text_form_with_comments_and_table() -> None:
    text = "# a puzzle\nhand0: KK 3  # first\nhand1: QQ 4\nturn: 1\ntable: 3 by 0\n"
    position = parse_position(text)
    assert position.turn == 1 and str(position.table) == "3" and position.by == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"hands": ["3"]}', "a position has two or three hands, not 1"),
        ('{"hands": ["3", "4", "5", "6"]}', "a position has two or three hands, not 4"),
        ('{"hands": ["3", ""]}', "hand 1 is empty: the game would be over"),
        ('{"hands": ["3", "4"], "turn": 2}', "turn 2: there is no hand 2"),
        ('{"hands": ["3", "4"], "turn": true}', "'turn' must be a hand number, got True"),
        ('{"hands": ["33333", "4"]}', "hand 0: five 3s in one hand"),
        ('{"hands": ["333", "33"]}', "five 3s in the position"),
        (
            '{"hands": ["33", "4"], "table": {"cards": "333", "by": 1}}',
            "five 3s in the position",
        ),
        (
            '{"hands": ["3", "4"], "turn": 1, "table": {"cards": "5", "by": 1}}',
            "the table play 5 is hand 1's, and hand 1 is to move: the table would be clear",
        ),
        (
            '{"hands": ["3", "4"], "turn": 1, "table": {"cards": "56", "by": 0}}',
            "56: two cards of different ranks (a pair is one rank; B+R is the rocket)",
        ),
        (
            '{"hands": ["3", "4"], "turn": 1, "table": {"cards": "5", "by": 2}}',
            "the table play is by hand 2, and there is none",
        ),
        ('{"hands": ["3", "4"], "table": "5"}', "'table' must be null or"),
        (
            '{"hands": ["3", "4"], "extra": 1}',
            "a position line may not carry the key 'extra'; it may carry: hands, turn, table, id, expected, puzzle",
        ),
        ("[1, 2]", "a JSON position must be an object with 'hands'"),
        ("{", "broken JSON"),
        ("hand0: 3\n", "no hand1 line in the position"),
        ("hand0: 3\nhand1: 4\nhand1: 5\n", "line 3: hand1 given twice"),
        ("hand0: 3\nhand1: 4\nturn: x\n", "line 3: turn must be a hand number"),
        ("hand0: 3\nhand1: 4\ntable: 5\n", "line 3: table is 'none' or 'CARDS by HAND NUMBER'"),
        ("hand0: 3\nhands: 4\n", "line 2: expected 'hand0:'"),
    ],
)
def test_bad_positions_say_why(text: str, message: str) -> None:
    with pytest.raises(CpsolverError) as caught:
        parse_position(text)
    assert message in str(caught.value)
    assert isinstance(caught.value, (PositionError, PositionFormatError, CpsolverError))


def test_sides_and_opponents() -> None:
    three = Position.parse(["3", "4", "5"])
    assert [three.side_of(p) for p in range(3)] == [0, 1, 1]
    assert three.opponents(0) == [1, 2] and three.opponents(2) == [0]
    two = Position.parse(["3", "4"], turn=1, table="5", by=0)
    assert two.opponents(1) == [0] and not two.on_lead


def test_a_claimed_reading_picks_between_two() -> None:
    """Under DouZero's rules 555666777888 reads three ways; the claimed kind and rank pick one."""
    from cpsolver.io.rulefiles import load_rules
    from cpsolver.rules.cards import rank_symbol

    rules = load_rules("douzero")
    table = {"cards": "555666777888", "by": 0, "kind": "triplet_sequence_singles", "rank": "7"}
    position = position_from_dict({"hands": ["3", "4"], "turn": 1, "table": table}, rules)
    assert position.table is not None
    assert (position.table.kind.value, rank_symbol(position.table.rank)) == (
        "triplet_sequence_singles",
        "7",
    )
    with pytest.raises(CpsolverError, match="no bomb of rank 7"):
        position_from_dict(
            {"hands": ["3", "4"], "turn": 1, "table": {**table, "kind": "bomb"}}, rules
        )
