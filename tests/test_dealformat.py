"""Deal files, JSON deals, corpora, and the deal generators."""

from __future__ import annotations

import random

import pytest

from cpsolver.io.dealformat import (
    CorpusEntry,
    DealFormatError,
    deal_as_dict,
    deal_as_text,
    parse_deal,
    read_corpus,
)
from cpsolver.io.dealgen import planted_deal, uniform_deal
from cpsolver.rules.cards import Deal

DEAL = Deal.parse("333444 5 7", "99 J", "KK A")


def test_text_and_json_forms_round_trip() -> None:
    assert parse_deal(deal_as_text(DEAL)) == DEAL
    assert parse_deal(str(deal_as_dict(DEAL)).replace("'", '"')) == DEAL


def test_text_form_allows_comments_blank_lines_spacing_and_any_order() -> None:
    text = "# a deal\n\n  Peasant 2 : KK A   # the second\npeasant1: 99 J\nLANDLORD: 333444 5 7\n"
    assert parse_deal(text) == DEAL


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("landlord: 3\npeasant1: 4\n", "no peasant2 line in the deal"),
        ("", "no landlord and no peasant1 and no peasant2 line in the deal"),
        ("landlord: 3\nlandlord: 4\n", "line 2: landlord given twice"),
        (
            "333 444\n",
            "line 1: expected 'landlord:', 'peasant1:' or 'peasant2:' and cards, got '333 444'",
        ),
        (
            '{"landlord": 3, "peasants": ["4", "5"]}',
            "a JSON deal needs 'landlord': a string of cards",
        ),
        ('["3", "4", "5"]', "a JSON deal must be an object with 'landlord' and 'peasants'"),
    ],
)
def test_bad_deal_files_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(DealFormatError) as caught:
        parse_deal(text)
    assert str(caught.value) == message


def test_a_corpus_reads_ids_expected_verdicts_and_reports_bad_lines() -> None:
    lines = [
        '{"id": "a", "landlord": "333", "peasants": ["4", "5"], "expected": "spring"}\n',
        "\n",
        '{"landlord": "3", "peasants": ["4", "5"]}\n',
        "{broken\n",
        '{"landlord": "33333", "peasants": ["4", "5"]}\n',
        '{"landlord": "3", "peasants": ["4", "5"], "expected": "maybe"}\n',
    ]
    read = list(read_corpus(lines))
    assert read[0] == CorpusEntry(1, "a", Deal.parse("333", "4", "5"), "spring")
    assert read[1] == CorpusEntry(3, "3", Deal.parse("3", "4", "5"), None)
    assert [str(e) for e in read[2:]] == [
        "line 4: broken JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        "line 5: landlord: five 3s in one hand",
        "line 6: 'expected' must be one of spring, no_spring, unknown, got 'maybe'",
    ]


@pytest.mark.parametrize("make", [uniform_deal, planted_deal])
def test_generated_deals_are_full_valid_and_reproducible(make: object) -> None:
    for seed in range(50):
        deal = make(random.Random(seed))  # type: ignore[operator]
        assert [len(hand) for hand in deal.hands] == [20, 17, 17]
        assert deal == make(random.Random(seed))  # type: ignore[operator]


def test_endgame_sizes() -> None:
    deal = uniform_deal(random.Random(3), (5, 4, 3))
    assert [len(hand) for hand in deal.hands] == [5, 4, 3]
