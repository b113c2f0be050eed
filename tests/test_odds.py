"""Spring odds: brute force over every physical split, Monte Carlo, uniform deals."""

from __future__ import annotations

import json
import random
import shlex
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, sqrt
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cli import cli
from cpsolver.io.dealgen import planted_deal, uniform_deal
from cpsolver.io.rulefiles import load_rules
from cpsolver.odds import OddsError, estimate_odds, exact_odds, question
from cpsolver.odds.profiles import ClassTable
from cpsolver.odds.sampling import wilson_interval
from cpsolver.rules.cards import DECK_COUNTS, RANK_COUNT, Hand
from cpsolver.rules.movegen import answers, plays
from cpsolver.rules.ruleset import RuleSet
from cpsolver.spring.result import Verdict
from cpsolver.spring.search import solve

RULE_SETS = ("standard", "rlcard", "douzero")


@cache
def brute_fewest(landlord: Hand, one: Hand, two: Hand, rules: RuleSet) -> int:
    """Fewest answerable plays of any split of the landlord's hand, by exhaustion (no engine)."""

    @cache
    def best(hand: Hand) -> int:
        if not hand:
            return 0
        lowest = next(hand.ranks())
        return min(
            int(bool(answers(one, play, rules) or answers(two, play, rules)))
            + best(hand - play.cards)
            for play in plays(hand, rules)
            if play.cards[lowest]
        )

    return best(landlord)


def brute_odds(
    landlord: Hand, unseen: Hand, sizes: tuple[int, int], rules: RuleSet
) -> tuple[Fraction, Counter[int], int]:
    """Every split of the unseen physical cards (each card its own index), one by one."""
    cards = list(unseen.ranks())
    indices = range(len(cards))
    springs, splits, by_fewest = 0, 0, Counter[int]()
    for first in combinations(indices, sizes[0]):
        rest = [i for i in indices if i not in first]
        for second in combinations(rest, sizes[1]):
            down = [i for i in rest if i not in second]
            hand = landlord + Hand.from_ranks(cards[i] for i in down)
            one = Hand.from_ranks(cards[i] for i in first)
            two = Hand.from_ranks(cards[i] for i in second)
            fewest = brute_fewest(hand, one, two, rules)
            splits += 1
            springs += fewest <= 1
            by_fewest[fewest] += 1
    return Fraction(springs, splits), by_fewest, splits


@st.composite
def small_questions(draw: st.DrawFn) -> tuple[Hand, Hand, tuple[int, int], RuleSet]:
    """A landlord of a few cards and up to 12 unseen, clustered on a few ranks so that
    chains, triplets with kickers, bombs and the rocket all turn up."""
    low = draw(st.integers(0, RANK_COUNT - 6))
    ranks = [*range(low, low + 6), *draw(st.sets(st.integers(0, RANK_COUNT - 1), max_size=3))]
    deck = [r for r in sorted(set(ranks)) for _ in range(DECK_COUNTS[r])]
    order = draw(st.permutations(range(len(deck))))
    landlord_size = draw(st.integers(2, 8))
    unseen_size = draw(
        st.integers(min(6, len(deck) - landlord_size), min(12, len(deck) - landlord_size))
    )
    landlord = Hand.from_ranks(deck[i] for i in order[:landlord_size])
    unseen = Hand.from_ranks(deck[i] for i in order[landlord_size : landlord_size + unseen_size])
    face_down = draw(st.integers(0, min(3, unseen_size - 2)))
    first = draw(st.integers(1, unseen_size - face_down - 1))
    rules = load_rules(draw(st.sampled_from(RULE_SETS)))
    return landlord, unseen, (first, unseen_size - face_down - first), rules


@settings(max_examples=150, deadline=None)
@given(small_questions())
def test_exact_odds_equal_brute_force_over_every_split(
    case: tuple[Hand, Hand, tuple[int, int], RuleSet],
) -> None:
    landlord, unseen, sizes, rules = case
    expected, by_fewest, splits = brute_odds(landlord, unseen, sizes, rules)
    odds = exact_odds(question(landlord, unseen, sizes, rules), distribution=True)
    assert (odds.probability, odds.splits) == (expected, splits)
    assert odds.by_fewest == dict(by_fewest)
    assert exact_odds(question(landlord, unseen, sizes, rules)).probability == expected


@pytest.mark.parametrize(
    ("landlord", "unseen", "sizes", "probability", "why"),
    [
        ("K Q", "A 3 4", (1, 1), Fraction(1, 3), "a spring only when the ace is face down"),
        ("22 BR", "", (1, 1), None, "no unseen cards to deal"),
        ("33 K", "AAAA", (2, 2), Fraction(0), "both peasants answer the pair and the king"),
        ("33 2", "AAAA 4", (4, 1), Fraction(4, 5), "a spring unless the four aces fall together"),
        ("3", "AAAA", (2, 2), Fraction(1), "one play: the last may be answered"),
        ("34", "BR", (1, 1), Fraction(0), "each joker beats both singles"),
        ("3333 4", "BR 5", (2, 1), Fraction(2, 3), "the rocket answers the bomb, one joker not"),
    ],
)
def test_hand_made_odds(
    landlord: str, unseen: str, sizes: tuple[int, int], probability: Fraction | None, why: str
) -> None:
    if probability is None:
        with pytest.raises(OddsError):
            question(Hand.parse(landlord), Hand.parse(unseen), sizes)
        return
    odds = exact_odds(question(Hand.parse(landlord), Hand.parse(unseen), sizes))
    assert odds.probability == probability, why


def test_profiles_agree_with_can_answer_on_random_hands() -> None:
    """Each profile bit is what the move generator says about that class, hand by hand."""
    rng = random.Random(5)
    for rules_name in RULE_SETS:
        rules = load_rules(rules_name)
        for _ in range(12):
            deal = planted_deal(rng) if rng.random() < 0.5 else uniform_deal(rng)
            table = ClassTable(deal.landlord, rules)
            hands = [
                Hand.from_ranks(rng.sample(list((Hand.deck() - deal.landlord).ranks()), n))
                for n in (1, 3, 5, 8, 12, 17)
                for _ in range(15)
            ]
            counts = np.array([h.counts for h in hands], dtype=np.int8)
            for hand, profile in zip(hands, table.profiles(counts)):
                expected = [str(c) for c in table.classes if answers(hand, c, rules)]
                assert table.answered(profile) == expected, (str(deal.landlord), str(hand))


def test_defaults_and_sizes() -> None:
    full = question(Hand.parse("33445566778899TTJJQQ"))
    assert (len(full.unseen), full.sizes, full.face_down, full.splits) == (
        34,
        (17, 17),
        0,
        comb(34, 17),
    )
    before = question(Hand.parse("33445566778899TTJ"))
    assert (before.sizes, before.face_down, before.splits) == (
        (17, 17),
        3,
        comb(37, 3) * comb(34, 17),
    )
    odd = question(Hand.parse("3"), Hand.parse("456"))
    assert odd.sizes == (2, 1)
    with pytest.raises(OddsError, match="each peasant holds at least one card"):
        question(Hand.parse("3"), Hand.parse("456"), (0, 3))
    with pytest.raises(OddsError, match="only 3 are unseen"):
        question(Hand.parse("3"), Hand.parse("456"), (2, 2))
    with pytest.raises(OddsError, match="hold five 3s together"):
        question(Hand.parse("3333"), Hand.parse("3"))


def full_hand(seed: int) -> Hand:
    return planted_deal(random.Random(seed)).landlord


@pytest.mark.parametrize("seed", [0, 2])
def test_exact_figure_inside_the_monte_carlo_interval(seed: int) -> None:
    asked = question(full_hand(seed))
    exact = exact_odds(asked)
    estimate = estimate_odds(asked, 2000, seed=seed)
    assert estimate.splits == 2000
    low, high = estimate.interval or (0.0, 1.0)
    assert low <= float(exact.probability) <= high
    assert 0 < exact.probability < 1  # planted hands: a figure worth checking


def test_estimate_is_seeded() -> None:
    asked = question(full_hand(1))
    first, again = (estimate_odds(asked, 300, seed=4) for _ in range(2))
    assert first.springs == again.springs
    assert estimate_odds(asked, 300, seed=5).splits == 300


def test_wilson_interval_covers_the_share() -> None:
    for successes, trials in ((0, 10), (3, 10), (10, 10), (500, 1000)):
        low, high = wilson_interval(successes, trials)
        assert 0 <= low <= successes / trials <= high <= 1


def _spring_count_against_mean_odds(deals: int, sizes: tuple[int, int, int], seed: int) -> None:
    """Springs over seeded uniform deals against the sum of their exact odds.

    Given the landlord's hand and the unseen cards, the deal's split is
    uniform, so each deal is a Bernoulli trial with its exact odds as mean.
    """
    rng = random.Random(seed)
    springs, mean, variance = 0, 0.0, 0.0
    for _ in range(deals):
        deal = uniform_deal(rng, sizes)
        springs += solve(deal).verdict is Verdict.SPRING
        unseen = deal.peasant1 + deal.peasant2
        odds = float(exact_odds(question(deal.landlord, unseen, sizes[1:])).probability)
        mean += odds
        variance += odds * (1 - odds)
    assert mean > 5  # enough springs to test anything
    assert abs(springs - mean) <= 4 * sqrt(variance) + 1, (springs, mean, variance)


def test_spring_count_of_uniform_endgames_matches_the_mean_odds() -> None:
    _spring_count_against_mean_odds(300, (4, 3, 3), seed=11)


@pytest.mark.slow
def test_spring_count_of_uniform_full_deals_matches_the_mean_odds() -> None:
    _spring_count_against_mean_odds(300, (20, 17, 17), seed=12)


def run_odds(*args: str) -> Result:
    return CliRunner().invoke(cli, ["odds", *args])


def test_cli_json_gives_the_fraction_in_lowest_terms() -> None:
    result = run_odds("K Q", "--unseen", "A 3 4", "--peasant-sizes", "1,1", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert (found["probability"], found["value"], found["splits"]) == ("1/3", 1 / 3, 6)
    assert (found["face_down"], found["peasant_sizes"], found["method"]) == (1, [1, 1], "exact")


def test_cli_distribution_adds_up_to_the_splits() -> None:
    result = run_odds("33 2", "--unseen", "AAAA 4", "--peasant-sizes", "4,1", "--distribution")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "spring odds: 4/5 = 0.800000 (80.00%)"
    found = json.loads(
        run_odds(
            "33 2", "--unseen", "AAAA 4", "--peasant-sizes", "4,1", "--distribution", "--json"
        ).stdout
    )
    assert found["distribution"] == {"1": 4, "2": 1}


def test_cli_exit_code_says_whether_a_spring_is_possible() -> None:
    assert run_odds("34", "--unseen", "BR", "--json").exit_code == 1
    assert run_odds("3", "--unseen", "BR").exit_code == 0


def test_cli_samples_report_an_interval() -> None:
    hand = str(full_hand(0))
    found = json.loads(run_odds(hand, "--samples", "400", "--seed", "3", "--json").stdout)
    assert found["method"] == "monte-carlo" and found["splits"] == found["samples"] == 400
    low, high = found["interval"]
    assert low <= found["value"] <= high


def test_cli_workers_give_the_same_count() -> None:
    args = ("3456 9", "--unseen", "789TJQKA2", "--json")
    alone = json.loads(run_odds(*args).stdout)
    pooled = json.loads(run_odds(*args, "--workers", "2").stdout)
    assert alone["probability"] == pooled["probability"] and alone["splits"] == pooled["splits"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("33Z",), "Error: unknown card symbol 'Z' at position 3"),
        (("3333", "--unseen", "3"), "Error: the unseen cards and the landlord's hand hold five 3s"),
        (("3", "--unseen", "45", "--peasant-sizes", "2,1"), "Error: peasant sizes 2,1 need 3"),
        (("3", "--peasant-sizes", "x"), "is not two card counts N,M"),
        (("3", "--samples", "5", "--workers", "2"), "--samples runs here"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(args: tuple[str, ...], message: str) -> None:
    result = run_odds(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def page_examples(page: str) -> list[tuple[str, list[str]]]:
    """The ``$ command`` lines of a manual page's console blocks, with their output lines."""
    body = (Path(__file__).parent.parent / "docs" / page).read_text(encoding="utf-8")
    examples: list[tuple[str, list[str]]] = []
    for block in body.split("```console\n")[1:]:
        for line in block.split("```", 1)[0].splitlines():
            if line.startswith("$ "):
                examples.append((line[2:], []))
            else:
                examples[-1][1].append(line)
    return examples


def test_the_odds_pages_examples_print_what_the_page_says(monkeypatch: pytest.MonkeyPatch) -> None:
    examples = page_examples("odds.md")
    assert len(examples) == 4
    monkeypatch.chdir(Path(__file__).parent.parent)  # the last reads examples/endgame.txt
    for command, expected in examples:
        args = shlex.split(command)
        assert args[0] == "cpsolver"
        result = CliRunner().invoke(cli, args[1:])
        assert result.exit_code == 0, (command, result.output)
        assert result.stdout.splitlines() == expected, command


def test_the_screens_are_exact_against_the_brute_force() -> None:
    """`odds 'BR 2222'` enumerated every split for 49 s; a hand safe against all unseen cards is settled at once."""
    import random

    from cpsolver.odds.screen import spring_certain, spring_impossible

    rng = random.Random(27)
    rules = load_rules("standard")
    certain = impossible = 0
    for _ in range(300):
        deck = [r for r in range(RANK_COUNT) for _ in range(DECK_COUNTS[r])]
        rng.shuffle(deck)
        high = [r for r in deck if r >= 10][: rng.randint(2, 6)]  # K and up: often safe
        rest = [r for r in deck if r < 10]
        landlord = Hand.from_ranks(high + rest[: rng.randint(0, 2)])
        unseen = Hand.from_ranks(rest[2 : 2 + rng.randint(4, 8)])
        first = rng.randint(1, len(unseen) - 1)
        asked = question(landlord, unseen, (first, len(unseen) - first), rules)
        expected, _, _ = brute_odds(landlord, unseen, asked.sizes, rules)
        if spring_certain(asked):
            certain += 1
            assert expected == 1, (landlord, unseen)
        if spring_impossible(asked):
            impossible += 1
            assert expected == 0, (landlord, unseen)
        assert exact_odds(asked).probability == expected
    assert certain >= 30 and impossible >= 10, (certain, impossible)
