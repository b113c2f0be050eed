"""Open-hand positions as JSON and as text.

The JSON form is the contract other tools speak::

    {"hands": ["CARDS", "CARDS"(, "CARDS")], "turn": 0,
     "table": null | {"cards": "CARDS", "by": 2}}

A deal, ``{"landlord": ..., "peasants": [..., ...]}``, is read as the
three-player position with the landlord to lead. The text form lists one
hand a line and, optionally, whose turn it is and the play on the table::

    # level 50 of an endgame app
    hand0: RAQQJJT999844
    hand1: B22AAT886633
    turn: 0
    table: none            # or: table: 8 by 1

``landlord:``, ``peasant1:`` and ``peasant2:`` may stand for ``hand0:`` to
``hand2:``, so a deal file is a position file too.

>>> position = parse_position('{"hands": ["KK 5", "AA"], "turn": 1, "table": {"cards": "5", "by": 0}}')
>>> position_as_dict(position)
{'hands': ['5KK', 'AA'], 'turn': 1, 'table': {'cards': '5', 'by': 0}}
>>> position_as_text(parse_position("hand0: 33\\nhand1: 44\\ntable: 3 by 0\\nturn: 1"))
'hand0: 33\\nhand1: 44\\nturn: 1\\ntable: 3 by 0\\n'
"""

from __future__ import annotations

from typing import Any

from cpsolver.io.dealformat import deal_from_dict
from cpsolver.io.reading import InputError, loads_json
from cpsolver.rules.cards import Hand, rank_symbol
from cpsolver.rules.errors import CpsolverError, PositionError
from cpsolver.rules.plays import Play, classify, readings
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules

_HAND_KEYS = {
    "hand0": 0,
    "hand1": 1,
    "hand2": 2,
    "landlord": 0,
    "peasant1": 1,
    "peasant2": 2,
}
_JSON_KEYS = ("hands", "turn", "table")
ENTRY_KEYS = ("id", "expected", "puzzle")  # what a corpus line carries besides the position


class PositionFormatError(CpsolverError):
    """A position file that is neither position form; the message says where."""


def parse_position(text: str, rules: RuleSet | None = None) -> Position:
    """A position from either form: JSON (starts with ``{``) or ``key: value`` lines."""
    if text.lstrip()[:1] in ("{", "["):
        try:
            data = loads_json(text, "position")
        except InputError as error:  # the reading layer's limits: digits, depth
            raise PositionFormatError(str(error)) from None
        # A corpus line is a position file too: its id and expected winner are allowed.
        return position_from_dict(data, rules, ENTRY_KEYS)
    return _parse_text(text, rules)


def is_position_text(text: str) -> bool:
    """Whether a file holds a position, not a deal: JSON with ``"hands"``, or text with hand, turn or table lines.

    Text that is neither (or broken JSON) is not a position: a deal's reader says what is wrong.

    >>> is_position_text("hand0: 3\\nhand1: 4"), is_position_text("landlord: 3\\nturn: 0")
    (True, True)
    >>> is_position_text('{"landlord": "3", "peasants": ["4", "5"]}'), is_position_text("landlord: 3")
    (False, False)
    """
    if text.lstrip()[:1] in ("{", "["):
        try:
            data = loads_json(text, "position")
        except InputError:
            return False
        return isinstance(data, dict) and "hands" in data
    keys = {
        line.split("#", 1)[0].partition(":")[0].strip().lower().replace(" ", "").replace("_", "")
        for line in text.splitlines()
    }
    return any(key.startswith("hand") for key in keys) or bool(keys & {"turn", "table"})


def position_from_dict(
    data: Any, rules: RuleSet | None = None, extra: tuple[str, ...] = ()
) -> Position:
    """A position from its JSON form, or from a deal's (the landlord to lead).

    Keys other than the form's own (and the ``extra`` ones a corpus line may
    carry) are refused.
    """
    if isinstance(data, dict) and "landlord" in data:
        return Position.from_deal(deal_from_dict(data, extra))
    if not isinstance(data, dict):
        raise PositionFormatError("a JSON position must be an object with 'hands'")
    unknown = sorted(set(data) - {*_JSON_KEYS, *extra})
    if unknown:
        allowed = ", ".join((*_JSON_KEYS, *extra))
        raise PositionFormatError(
            f"a position line may not carry the key {unknown[0]!r}; it may carry: {allowed}"
        )
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
        raise PositionFormatError("a JSON position needs 'hands': a list of strings of cards")
    turn = data.get("turn", 0)
    if not isinstance(turn, int) or isinstance(turn, bool):
        raise PositionFormatError(f"'turn' must be a hand number, got {turn!r}")
    table = data.get("table")
    if table is None:
        return Position.parse(hands, turn, rules=rules)
    if (
        not isinstance(table, dict)
        or not isinstance(table.get("cards"), str)
        or not isinstance(table.get("by"), int)
        or isinstance(table.get("by"), bool)
        or sorted(set(table) - {"kind", "rank"}) != ["by", "cards"]
    ):
        raise PositionFormatError('\'table\' must be null or {"cards": CARDS, "by": HAND NUMBER}')
    position = Position.parse(hands, turn, rules=rules)
    play = read_play(table["cards"], rules, table.get("kind"), table.get("rank"))
    return Position(position.hands, turn, play, table["by"])


def read_play(cards: str, rules: RuleSet | None = None, kind: Any = None, rank: Any = None) -> Play:
    """The play ``cards`` form; a claimed kind and rank pick the reading where two exist."""
    rules = rules or standard_rules()
    hand = Hand.parse(cards)
    if kind is None and rank is None:
        return classify(hand, rules)
    found = readings(hand, rules)
    if not found:
        classify(hand, rules)  # says why the cards are no play at all
    for play in found:
        matches_kind = kind is None or play.kind.value == kind
        if matches_kind and (rank is None or rank_symbol(play.rank) == rank):
            return play
    raise PositionError(f"{hand} is no {kind} of rank {rank} under the {rules.name} rules")


def position_as_dict(position: Position, rules: RuleSet | None = None) -> dict[str, Any]:
    """The JSON form of a position.

    A table play whose cards read more than one way under ``rules`` carries
    its kind and rank too, so that the position reads back as it was (under
    DouZero's rules ``333444555666`` is a triplet sequence, or one of two
    with kickers).
    """
    table = position.table
    found: dict[str, Any] = {"hands": [str(h) for h in position.hands], "turn": position.turn}
    if table is None:
        found["table"] = None
    elif rules is not None and len(readings(table.cards, rules)) > 1:
        found["table"] = {
            "cards": str(table),
            "kind": table.kind.value,
            "rank": rank_symbol(table.rank),
            "by": position.by,
        }
    else:
        found["table"] = {"cards": str(table), "by": position.by}
    return found


def position_as_text(position: Position) -> str:
    """The text form of a position: one ``handN:`` line a hand, the turn and the table."""
    lines = [f"hand{number}: {hand}" for number, hand in enumerate(position.hands)]
    lines.append(f"turn: {position.turn}")
    table = "none" if position.table is None else f"{position.table} by {position.by}"
    lines.append(f"table: {table}")
    return "\n".join(lines) + "\n"


def _parse_text(text: str, rules: RuleSet | None) -> Position:
    hands: dict[int, str] = {}
    turn: int | None = None
    table: tuple[str, int] | None = None
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        key, colon, value = content.partition(":")
        key = key.strip().lower().replace(" ", "").replace("_", "")
        value = value.strip()
        if not colon or (key not in _HAND_KEYS and key not in ("turn", "table")):
            raise PositionFormatError(
                f"line {number}: expected 'hand0:', 'hand1:', 'hand2:', 'turn:' or 'table:' "
                f"and a value, got {content!r}"
            )
        if key in seen:
            raise PositionFormatError(f"line {number}: {key} given twice")
        seen.add(key)
        if key == "turn":
            if not _hand_number(value):
                raise PositionFormatError(
                    f"line {number}: turn must be a hand number, got {value[:40]!r}"
                )
            turn = int(value)
        elif key == "table":
            if value.lower() not in ("", "none", "-"):
                cards, separator, by = value.rpartition(" by ")
                if not separator or not cards.strip() or not _hand_number(by.strip()):
                    raise PositionFormatError(
                        f"line {number}: table is 'none' or 'CARDS by HAND NUMBER', "
                        f"got {value[:60]!r}"
                    )
                table = (cards, int(by))
        else:
            index = _HAND_KEYS[key]
            if index in hands:
                raise PositionFormatError(f"line {number}: hand {index} given twice")
            hands[index] = value
    if sorted(hands) not in ([0, 1], [0, 1, 2]):
        missing = [f"hand{i}" for i in range(3 if 2 in hands else 2) if i not in hands]
        raise PositionFormatError(f"no {' and no '.join(missing) or 'hands'} line in the position")
    cards_of = [hands[i] for i in sorted(hands)]
    if table is None:
        return Position.parse(cards_of, turn or 0, rules=rules)
    return Position.parse(cards_of, turn or 0, table[0], table[1], rules)


def _hand_number(text: str) -> bool:
    """Whether ``text`` is a hand number as a person writes one: ASCII digits, a few.

    ``str.isdigit`` also takes ``²`` (which ``int`` refuses) and ``١`` (read as 1):
    neither is a digit here, nor a number too long to convert.
    """
    return 0 < len(text) <= 3 and text.isascii() and text.isdigit()
