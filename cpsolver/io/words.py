"""Counted nouns for text meant for people: ``1 play``, ``2 plays``, ``1 joker``.

One helper for every wing that prints (the command line, the pictures, the
game's table), so a count and its noun agree everywhere. It sits in ``io``,
the way out, below every wing that writes text.
"""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun plural unless the count is 1 (``plural`` when not noun + s).

    >>> counted(1, "play"), counted(0, "play"), counted(3, "safe play")
    ('1 play', '0 plays', '3 safe plays')
    >>> counted(2, "match", "matches"), counted(1, "unknown")
    ('2 matches', '1 unknown')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
