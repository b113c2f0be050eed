"""The baseline a user could write in an afternoon: a naive DFS over RLCard's move generator.

    from rlcard_dfs import has_spring   # (benchmarks/ on the path)

RLCard's judger lists every play of a hand; each peasant's plays are indexed
by type (the strongest of each, bombs, the rocket) so that "can a peasant
beat this?" is a lookup, and a memoised depth-first search splits the
landlord's hand, always covering its lowest card, with at most one
answerable play. It plays by RLCard's rules, which our ``rlcard`` profile
reproduces (``models/rlcard.toml``); the benchmark checks that the verdicts
agree with ours under that profile.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from rlcard.games.doudizhu.judger import DoudizhuJudger
from rlcard.games.doudizhu.utils import CARD_TYPE

ORDER = "3456789TJQKA2BR"  # RLCard writes cards with our symbols, sorted low to high


def _strongest(hand: str) -> dict[str, int]:
    """The strongest weight of each type the hand can play."""
    best: dict[str, int] = {}
    for cards in DoudizhuJudger.playable_cards_from_hand(hand):
        for kind, weight in CARD_TYPE[0][cards]:
            best[kind] = max(best.get(kind, -1), int(weight))
    return best


def _answerable(cards: str, peasants: list[dict[str, int]]) -> bool:
    for kind, weight in CARD_TYPE[0][cards]:
        for best in peasants:
            if "rocket" in best and kind != "rocket":
                return True
            if kind != "rocket" and best.get("bomb", -1) > (int(weight) if kind == "bomb" else -1):
                return True
            if best.get(kind, -1) > int(weight):
                return True
    return False


def has_spring(landlord: str, peasant1: str, peasant2: str) -> bool:
    """Whether the landlord can play out every card with at most one answerable play."""
    peasants = [_strongest(peasant1), _strongest(peasant2)]
    plays = DoudizhuJudger.playable_cards_from_hand(landlord)
    safe = {cards: not _answerable(cards, peasants) for cards in plays}

    @cache
    def split(hand: str, budget: int) -> bool:
        if not hand:
            return True
        have = Counter(hand)
        for cards in plays:
            if hand[0] not in cards or not budget and not safe[cards]:
                continue
            need = Counter(cards)
            if all(have[c] >= n for c, n in need.items()):
                rest = "".join(sorted((have - need).elements(), key=ORDER.index))
                if split(rest, budget - (not safe[cards])):
                    return True
        return False

    return split(landlord, 1)
