"""Two-player positions in the input notation of the public endgame solvers, written and read back.

WZ403809264/doudizhu_solver (``wz``) and YunyanDeng/doudizhu_endgame
(``yunyan``) read two hands on stdin, the hand to move first, each on a line,
high cards first, ``0`` for the ten and ``Y``/``Z`` for the black and red
jokers (``ZY20`` is our ``RB2T``); ``wz`` then asks for the banned kinds,
answered ``0`` (none). Both solve two hands on lead only.

A pack in this notation is a block a position: a ``#`` line naming it
(``# ID turn=N`` and the words after, which a reader skips), then the lines
the solver reads, then a blank line. Feed a block's lines after the ``#``
line to the solver. The ``turn`` says which of the position's hands moves
first, so that :func:`read_blocks` gives back the very position.

>>> block = write_block("p", Position.parse(["RB2T", "33"], turn=1), "wz")
>>> print(block)
# p turn=1
33
ZY20
0
<BLANKLINE>
>>> read_blocks(block, "wz")[0][1] == Position.parse(["RB2T", "33"], turn=1)
True
"""

from __future__ import annotations

from cpsolver.rules.cards import Hand, rank_of, rank_symbol
from cpsolver.rules.errors import PositionError
from cpsolver.rules.position import Position

NOTATIONS = ("wz", "yunyan")
_TO_PEER = {"T": "0", "B": "Y", "R": "Z"}
_FROM_PEER = {peer: ours for ours, peer in _TO_PEER.items()}


class NotationError(PositionError):
    """A position the peers cannot read, or text that is no block of their notation."""


def peer_cards(hand: Hand) -> str:
    """A hand in the peers' notation, high cards first.

    >>> peer_cards(Hand.parse("RB2TT3"))
    'ZY2003'
    """
    symbols = [rank_symbol(rank) for rank in reversed(list(hand.ranks()))]
    return "".join(_TO_PEER.get(symbol, symbol) for symbol in symbols)


def our_hand(text: str) -> Hand:
    """A hand written in the peers' notation (``10`` is read as a ten too)."""
    text = text.strip().replace("10", "0")
    try:
        return Hand.from_ranks([rank_of(_FROM_PEER.get(symbol, symbol)) for symbol in text])
    except ValueError as error:
        raise NotationError(f"not cards in the peers' notation: {text!r} ({error})") from None


def writable(position: Position) -> str | None:
    """Why the peers cannot read ``position`` (None: they can)."""
    if position.players != 2:
        return (
            "the peers' notation (wz, yunyan) is for two hands: they solve two-player endgames only"
        )
    if position.table is not None:
        return "the peers' notation (wz, yunyan) is for positions on lead: they take no play on the table"
    return None


def write_block(name: str, position: Position, notation: str, note: str = "") -> str:
    """One position as a block: the ``#`` line (``note`` after the turn), the solver's input, a blank line."""
    if notation not in NOTATIONS:
        raise NotationError(f"unknown notation {notation!r} (known: {', '.join(NOTATIONS)})")
    why = writable(position)
    if why is not None:
        raise NotationError(why)
    mover = position.hands[position.turn]
    other = position.hands[1 - position.turn]
    lines = [f"# {name} turn={position.turn}{' ' + note if note else ''}"]
    lines += [peer_cards(mover), peer_cards(other)] + (["0"] if notation == "wz" else [])
    return "\n".join(lines) + "\n"


def read_blocks(text: str, notation: str) -> list[tuple[str, Position]]:
    """The named positions of a text of blocks, as :func:`write_block` writes them."""
    found: list[tuple[str, Position]] = []
    for block in text.split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        if not lines:
            continue
        head, *body = lines
        words = head.lstrip("#").split()
        turns = [word for word in words if word.startswith("turn=")]
        if not head.startswith("#") or not words or len(turns) != 1:
            raise NotationError(f"a block starts '# ID turn=N', not {head[:60]!r}")
        expected = 3 if notation == "wz" else 2
        if len(body) != expected or (notation == "wz" and body[2] != "0"):
            raise NotationError(f"{words[0]}: a {notation} block has {expected} lines of input")
        turn = int(turns[0].removeprefix("turn="))
        mover, other = our_hand(body[0]), our_hand(body[1])
        hands = (mover, other) if turn == 0 else (other, mover)
        found.append((words[0], Position(hands, turn)))
    return found


__all__ = [
    "NOTATIONS",
    "NotationError",
    "our_hand",
    "peer_cards",
    "read_blocks",
    "writable",
    "write_block",
]
