"""Games and deals in the formats people already use: rlcard-showdown replays and DouZero's evaluation data.

**rlcard-showdown replay JSON** (the replayer of its web page reads it)::

    {"initHands": ["S2 H2 HK ...", ...],            # each seat's cards as dealt, the landlord's 20
     "playerInfo": [{"id": 0, "index": 0, "role": "peasant" | "landlord",
                     "agentInfo": {"name": ...}}, ...],
     "moveHistory": [{"playerIdx": 2, "move": "H3 S3 D3 D5" | "P",
                      "probabilities": [{"move": ..., "probability": 1}]}, ...],
     "publicCards": "S3 H7 RJ"}                      # ours: the face-down cards

Seats are the same numbers (play goes from a seat to the next, the landlord
first). A card is a suit ``S H D C`` and a rank of ours (``S3``, ``HT``), or
``BJ`` / ``RJ`` for the black and red joker; suits are given out as
:mod:`cpsolver.game.cardids` says, and ignored when read. ``P`` is a pass.
A replay carries no auction: it is read as a bid of 1. A replay without
``publicCards`` takes the landlord's three highest cards as
the face-down ones (they matter only to what the peasants saw).

**DouZero evaluation data** is a pickle of a list of deals, each a dict of
lists of card numbers: ``landlord`` (20), ``landlord_down`` (17, plays after
the landlord: our seat 1), ``landlord_up`` (17, our seat 2) and
``three_landlord_cards`` (3, among the landlord's). DouZero numbers 3..A as
3..14, the 2 as 17, the black joker 20, the red joker 30. It is read with an
unpickler that refuses every class and function (:class:`PlainUnpickler`):
only lists, dicts, strings and whole numbers come out of the file.
"""

from __future__ import annotations

import io
import pickle
from collections.abc import Sequence
from typing import Any

from cpsolver.game.cardids import deal_ids, hand_of_ids, id_of_showdown, showdown_card, take
from cpsolver.game.engine import Game
from cpsolver.game.evaluate import EvalDeal
from cpsolver.io.reading import describe_size, limit
from cpsolver.rules.cards import Hand
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.ruleset import RuleSet, standard_rules

DOUZERO_CARDS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)  # by our rank 0..14
_DOUZERO_RANK = {number: rank for rank, number in enumerate(DOUZERO_CARDS)}
PASS = "P"


class RecordError(CpsolverError):
    """A file that is not the record or data it should be."""


# -- rlcard-showdown -----------------------------------------------------------------


def _names(ids: Sequence[int]) -> str:
    return " ".join(showdown_card(card) for card in sorted(ids, reverse=True))


def to_showdown(game: Game, names: Sequence[str] = ("", "", "")) -> dict[str, Any]:
    """A finished (or started) game as an rlcard-showdown replay; ``names`` label the seats' agents."""
    if game.landlord is None or not game.start_of_play:
        raise RecordError("only a hand that reached the play can be replayed")
    ids = deal_ids([*game.original, game.bottom])
    left = [list(ids[seat]) for seat in range(3)]
    left[game.landlord] += ids[3]
    init = [_names(hand) for hand in left]
    moves = []
    for seat, play in game.actions:
        move = PASS if play is None else _names(take(left[seat], play.cards))
        moves.append(
            {"playerIdx": seat, "move": move, "probabilities": [{"move": move, "probability": 1}]}
        )
    return {
        "initHands": init,
        "playerInfo": [
            {
                "id": seat,
                "index": seat,
                "role": "landlord" if seat == game.landlord else "peasant",
                "agentInfo": {"name": names[seat] or f"seat {seat}"},
            }
            for seat in range(3)
        ],
        "moveHistory": moves,
        "publicCards": _names(ids[3]),
    }


def _cards(text: Any, where: str) -> Hand:
    if not isinstance(text, str):
        raise RecordError(f"{where}: cards are a string like 'S3 HT RJ'")
    try:
        return hand_of_ids(id_of_showdown(name) for name in text.split())
    except ValueError as error:
        raise RecordError(f"{where}: {error}") from None


def from_showdown(replay: Any, rules: RuleSet | None = None) -> Game:
    """Re-play an rlcard-showdown replay move by move; RecordError if a move is not legal."""
    rules = rules or standard_rules()
    if not isinstance(replay, dict):
        raise RecordError("an rlcard-showdown replay is a JSON object")
    try:
        hands = [
            _cards(text, f"initHands[{seat}]") for seat, text in enumerate(replay["initHands"])
        ]
        roles = [info["role"] for info in replay["playerInfo"]]
        moves = [(move["playerIdx"], move["move"]) for move in replay["moveHistory"]]
    except (KeyError, TypeError) as error:
        raise RecordError(f"not an rlcard-showdown replay: missing or wrong {error}") from None
    if len(hands) != 3 or roles.count("landlord") != 1:
        raise RecordError("a replay has three hands and one landlord")
    landlord = roles.index("landlord")
    if sorted(len(hand) for hand in hands) != [17, 17, 20] or len(hands[landlord]) != 20:
        raise RecordError("the landlord holds 20 cards, each peasant 17")
    if hands[0] + hands[1] + hands[2] != Hand.deck():
        raise RecordError("the three hands are not one deck")
    if "publicCards" in replay:
        bottom = _cards(replay["publicCards"], "publicCards")
    else:
        bottom = Hand.from_ranks(sorted(hands[landlord].ranks())[-3:])
    if len(bottom) != 3 or not bottom <= hands[landlord]:
        raise RecordError("publicCards are three of the landlord's cards")
    dealt = list(hands)
    dealt[landlord] = hands[landlord] - bottom
    game = Game(0, landlord, list(dealt), bottom, rules)
    game.original = list(dealt)
    game.turn = landlord
    for step in range(3):
        game.make_bid((landlord + step) % 3, 0 if step else 1)
    for number, (seat, move) in enumerate(moves, 1):
        try:
            game.play(seat, None if move == PASS else _cards(move, f"move {number}"))
        except CpsolverError as error:
            raise RecordError(f"move {number} (seat {seat}: {move}): {error}") from None
    return game


# -- DouZero evaluation data -----------------------------------------------------------


class PlainUnpickler(pickle.Unpickler):
    """An unpickler that builds no objects but plain containers: every class or function is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise RecordError(
            f"the pickle asks for {module}.{name}; only plain lists and numbers are read"
        )


def _douzero_hand(cards: Any, size: int, where: str) -> Hand:
    if not isinstance(cards, list) or len(cards) != size:
        raise RecordError(f"{where}: a list of {size} card numbers")
    ranks = []
    for card in cards:
        # An int first: a list, dict or set cannot even be looked up (unhashable).
        if isinstance(card, bool) or not isinstance(card, int) or card not in _DOUZERO_RANK:
            raise RecordError(f"{where}: {card!r} is no DouZero card number")
        ranks.append(_DOUZERO_RANK[card])
    return Hand.from_ranks(ranks)


def douzero_deals(data: Any) -> list[EvalDeal]:
    """DouZero's evaluation data (a list of dicts of card numbers) as deals."""
    if not isinstance(data, list):
        raise RecordError("DouZero evaluation data is a list of deals")
    if not data:
        raise RecordError("DouZero evaluation data holds no deal")
    deals = []
    for number, item in enumerate(data, 1):
        if not isinstance(item, dict):
            raise RecordError(f"deal {number} is not a dict")
        where = f"deal {number}"
        try:
            deals.append(
                EvalDeal(
                    landlord=_douzero_hand(item.get("landlord"), 20, f"{where} landlord"),
                    down=_douzero_hand(item.get("landlord_down"), 17, f"{where} landlord_down"),
                    up=_douzero_hand(item.get("landlord_up"), 17, f"{where} landlord_up"),
                    bottom=_douzero_hand(
                        item.get("three_landlord_cards"), 3, f"{where} three_landlord_cards"
                    ),
                )
            )
        except RecordError:
            raise
        except CpsolverError as error:
            raise RecordError(f"{where}: {error}") from None
    return deals


def read_douzero_deals(path: str) -> list[EvalDeal]:
    """Deals from a DouZero evaluation-data pickle, read without running anything in it."""
    cap = limit("record")
    try:
        with open(path, "rb") as file:
            raw = file.read(cap + 1)  # bounded, like every other input (reading.LIMITS)
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    if len(raw) > cap:
        raise RecordError(f"{path}: larger than {describe_size(cap)} (CPSOLVER_LIMIT_RECORD)")
    try:
        data = PlainUnpickler(io.BytesIO(raw)).load()
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
    except (  # a damaged pickle fails in many ways; each is one message
        pickle.UnpicklingError,
        EOFError,
        ValueError,
        TypeError,
        IndexError,
        KeyError,
        AttributeError,
        MemoryError,
        OverflowError,
        RecursionError,
    ) as error:
        raise RecordError(f"{path}: not a pickle ({type(error).__name__})") from None
    try:
        return douzero_deals(data)
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None


def douzero_data(deals: Sequence[EvalDeal]) -> list[dict[str, list[int]]]:
    """Deals as DouZero's evaluation data: plain dicts of sorted card numbers."""

    def numbers(hand: Hand) -> list[int]:
        return [DOUZERO_CARDS[rank] for rank in hand.ranks()]

    return [
        {
            "landlord": numbers(deal.landlord),
            "landlord_up": numbers(deal.up),
            "landlord_down": numbers(deal.down),
            "three_landlord_cards": numbers(deal.bottom),
        }
        for deal in deals
    ]


def write_douzero_deals(path: str, deals: Sequence[EvalDeal]) -> None:
    """Write deals as a DouZero evaluation-data pickle."""
    try:
        with open(path, "wb") as file:
            pickle.dump(douzero_data(deals), file, protocol=4)
    except OSError as error:
        raise RecordError(f"cannot write {path}: {error.strerror}") from None
