"""Counted nouns agree with their counts in every command's text (issue 27: "1 joker(s)", "1 safe plays")."""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cpsolver.game.engine import Game
from cpsolver.game.table import breakdown, stake_words
from cpsolver.io.words import counted

FSTRING_MIDDLE = getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)  # f-strings' text, 3.12+
PACKAGE = Path(__file__).resolve().parents[1] / "cpsolver"


@given(st.integers(0, 10**6), st.sampled_from(["play", "safe play", "hand", "joker", "card"]))
def test_counted_is_singular_at_one_only(count: int, noun: str) -> None:
    words = counted(count, noun)
    assert words == f"{count} {noun}" if count == 1 else words == f"{count} {noun}s"


def test_no_text_leaves_the_plural_to_the_reader() -> None:
    # "(s)" and one-off plural switches: one helper, cpsolver.io.words.counted, says them all.
    # (rules/cards.py is the rules core's own and stays as it is.)
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "words.py" or path.match("rules/cards.py"):
            continue
        with path.open("rb") as file:
            for token in tokenize.tokenize(file.readline):
                if token.type not in (tokenize.STRING, FSTRING_MIDDLE):
                    continue
                text = re.sub(r"\{[^{}]*\}", "", token.string)  # an f-string's text, not its code
                if re.search(r"[a-z]\(s\)", text) or re.search(
                    r"\{'s' if .* [!=]= 1 else", token.string
                ):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{token.start[0]}")
    assert offenders == []


@pytest.mark.parametrize("bid, bombs", [(b, n) for b in (1, 2, 3) for n in range(4)])
def test_the_stake_in_words(bid: int, bombs: int) -> None:
    words = stake_words(bid, bombs)
    assert "^" not in words and words.startswith(f"bid {bid}, ")
    if bombs == 0:
        assert words == f"bid {bid}, no bombs"
    elif bombs == 1:
        assert words == f"bid {bid}, doubled for 1 bomb or rocket"
    else:
        assert words == f"bid {bid}, doubled {bombs} times for {bombs} bombs or rockets"
    result = {"bid": bid, "bombs": bombs, "spring": False, "anti_spring": False}
    assert breakdown({**result, "stake": bid * 2**bombs}) == f"{words} = {bid * 2**bombs}"


@pytest.mark.parametrize("seed", range(40))
def test_a_bid_hint_counts_its_cards_in_words(seed: int) -> None:
    from cpsolver.game.advice import bid_hint

    game = Game.deal(seed)
    _, why = bid_hint(game, game.turn)
    assert "(s)" not in why
    for count, noun in re.findall(r"\b(\d+) (bomb|joker|two|ace|play)s?\b", why):
        assert why.count(counted(int(count), noun)) >= 1, why


def test_solve_statistics_are_counted() -> None:
    from click.testing import CliRunner

    from cpsolver.cli import cli

    example = PACKAGE.parent / "examples" / "spring.txt"
    done = CliRunner().invoke(cli, ["solve", str(example), "--engine", "cpsat"])
    stats = done.stdout.splitlines()[-1]
    for count, noun in re.findall(r"(\d+) ([a-z ]+?)(?=,|\))", stats):
        assert noun.endswith("s") != (count == "1"), stats
