"""Hand-picked decisions of the fair bot (the quick one, no endgame solving)."""

from __future__ import annotations

from cpsolver.game.bots import BLOCK_BELOW, Bot
from cpsolver.game.view import DECK, View
from cpsolver.rules.cards import Hand
from cpsolver.rules.plays import Kind, Play
from cpsolver.rules.ruleset import standard_rules


def view_at(
    seat: int, hand: str, hands: dict[int, str], last: tuple[int, str], passed: bool = False
) -> View:
    """Seat ``seat`` holding ``hand`` must answer ``last``; the other hands as given, landlord seat 0.

    The cards played before are lumped into one action of the landlord's: the
    bot reads only the counts, the unseen cards and the play to beat.
    """
    own = Hand.parse(hand)
    others = {s: Hand.parse(h) for s, h in hands.items()}
    by, cards = last
    target = Play.parse(cards)
    earlier = DECK - own - sum(others.values(), Hand.empty()) - target.cards
    actions: list[tuple[int, Play | None]] = [(0, Play(Kind.SINGLE, 0, 1, earlier)), (by, target)]
    if passed:
        actions.append(((by + 1) % 3, None))
    held = {seat: own, **others}
    counts = (len(held[0]), len(held[1]), len(held[2]))
    return View(seat, own, standard_rules(), (), 1, 0, None, tuple(actions), counts)


def test_the_peasant_before_the_landlord_tops_its_partner_when_the_landlord_is_nearly_out() -> None:
    view = view_at(2, "45692", {0: "K", 1: "789T"}, last=(1, "3"))
    assert Bot(2).play(view) == Play.parse("2")


def test_it_lets_its_partner_run_while_the_landlord_holds_many_cards() -> None:
    landlord = "KKQQJJ9"[: BLOCK_BELOW + 1]
    view = view_at(2, "45692", {0: landlord, 1: "789T"}, last=(1, "3"))
    assert Bot(2).play(view) is None


def test_the_peasant_after_the_landlord_never_tops_its_partner() -> None:
    view = view_at(1, "45692", {0: "K", 2: "789T"}, last=(2, "3"), passed=True)
    assert Bot(1).play(view) is None


def test_it_does_not_top_a_play_the_landlord_cannot_beat_anyway() -> None:
    view = view_at(2, "45692", {0: "3", 1: "789T"}, last=(1, "A"))
    assert Bot(2).play(view) is None
