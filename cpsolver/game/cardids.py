"""Individual cards for formats that name them: Botzone's ids 0-53 and rlcard-showdown's suits.

Suits play no part in Dou Dizhu, so cpsolver's hands are counts of ranks.
Other programs name each physical card, and this module is the one mapping:

- **Botzone ids.** Card ``id`` 0-51 is rank ``id // 4`` (0-3 are the four 3s,
  ..., 48-51 the four 2s), 52 is the black joker, 53 the red joker; so the
  rank of any id is ``min(id // 4, 13) + (id == 53)``.
- **Suits.** The copy ``id % 4`` of a rank is the suit ``S H D C`` in that
  order (rlcard-showdown writes ``S3``, ``HT``; ``BJ`` and ``RJ`` are the black
  and red joker).

When a hand of counts must become cards, each rank's copies are handed out
lowest id first, in the order the hands are given (:func:`deal_ids`); a seat
that plays ranks gives up its lowest ids of those ranks (:func:`take`).

>>> [rank_symbol(rank_of_id(i)) for i in (0, 3, 4, 51, 52, 53)]
['3', '3', '4', '2', 'B', 'R']
>>> deal_ids([Hand.parse("33B"), Hand.parse("3R")])
[[0, 1, 52], [2, 53]]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cpsolver.rules.cards import BLACK_JOKER, RED_JOKER, Hand, rank_symbol

SUITS = "SHDC"
_SHOWDOWN_JOKERS = {BLACK_JOKER: "BJ", RED_JOKER: "RJ"}


def rank_of_id(card: int) -> int:
    """The rank of a Botzone card id (ValueError outside 0-53)."""
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card <= 53:
        raise ValueError(f"a card id is a whole number 0-53, not {card!r}")
    return RED_JOKER if card == 53 else min(card // 4, BLACK_JOKER)


def _ids_of_rank(rank: int) -> list[int]:
    if rank >= BLACK_JOKER:
        return [52 + rank - BLACK_JOKER]
    return [4 * rank + copy for copy in range(4)]


def hand_of_ids(cards: Iterable[int]) -> Hand:
    """The hand of counts a list of ids makes (ValueError on a bad or repeated id)."""
    seen: set[int] = set()
    ranks = []
    for card in cards:
        rank = rank_of_id(card)
        if card in seen:
            raise ValueError(f"card id {card} appears twice")
        seen.add(card)
        ranks.append(rank)
    return Hand.from_ranks(ranks)


def deal_ids(hands: Sequence[Hand]) -> list[list[int]]:
    """Ids for hands that share one deck: each rank's lowest free ids, in the order given."""
    free = {rank: _ids_of_rank(rank) for rank in range(15)}
    result = []
    for hand in hands:
        ids = []
        for rank in hand.ranks():
            ids.append(free[rank].pop(0))
        result.append(sorted(ids))
    return result


def take(ids: list[int], cards: Hand) -> list[int]:
    """Remove from ``ids`` (in place) the lowest ids of the ranks in ``cards``; returns them."""
    taken = []
    for rank in cards.ranks():
        card = min(i for i in ids if rank_of_id(i) == rank)
        ids.remove(card)
        taken.append(card)
    return sorted(taken)


def showdown_card(card: int) -> str:
    """rlcard-showdown's name of a card id: suit then rank (``S3``), or ``BJ`` / ``RJ``."""
    rank = rank_of_id(card)
    if rank in _SHOWDOWN_JOKERS:
        return _SHOWDOWN_JOKERS[rank]
    return SUITS[card % 4] + rank_symbol(rank)


def id_of_showdown(name: str) -> int:
    """The card id of an rlcard-showdown card name (ValueError if it is none)."""
    for rank, joker in _SHOWDOWN_JOKERS.items():
        if name == joker:
            return _ids_of_rank(rank)[0]
    if len(name) == 2 and name[0] in SUITS and name[1] in "3456789TJQKA2":
        rank = "3456789TJQKA2".index(name[1])
        return 4 * rank + SUITS.index(name[0])
    raise ValueError(f"not an rlcard-showdown card: {name!r}")
