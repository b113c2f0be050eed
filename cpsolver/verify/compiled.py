"""The compiled strategy checker (``cpsolver.verify._strategy``), where it was built: verify's fast path.

A strategy proof of a full deal runs to hundreds of thousands of nodes, and
reading them with ``json.loads`` alone took longer than the solve that wrote
them. The C checker reads the proof's text itself and walks it as
:mod:`cpsolver.verify.strategy` does, with a move generator of its own over
the rules core's tables (:func:`cpsolver.rules.patterns.pattern_tables`); it
shares nothing with the solvers.

It only ever says "valid". The text's header (all but the nodes) is read
here, through the reading layer and the schema as before
(:func:`~cpsolver.verify.strategy.read_header`, which validates it as
``read_proof`` would). A proof it cannot read (not
written as proofs are written), or does not find valid, goes to the Python
checker, which gives the verdict and the first failure in words: so every
failure message is the Python checker's, and both checkers must agree on
every proof the C one reads (tests/test_compiled_checker.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from cpsolver.io.positionformat import parse_position
from cpsolver.io.reading import InputError, loads_json
from cpsolver.rules.cards import RED_JOKER, Hand
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.patterns import KIND_ORDER, Kind, pattern_tables, patterns
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet
from cpsolver.verify.strategy import read_header

_strategy: ModuleType | None
try:
    from cpsolver.verify import _strategy  # type: ignore[attr-defined, no-redef]
except ImportError:  # built without a C compiler: the Python checker does the work
    _strategy = None

# A table play as the C checker reads it: cards, pattern, top, chain, kind, by.
_Table = tuple[int, int, int, int, int, int]


def available() -> bool:
    """Whether the compiled checker was built and loads."""
    return _strategy is not None


def check_quickly(
    text: str, subject: str | None, rules: RuleSet
) -> tuple[dict[str, Any], int] | None:
    """A strategy proof's header and the positions its walk checked, if the C checker finds it valid.

    None when it does not (no compiled checker, text it does not read, any
    failure): the caller then checks the text the Python way.
    """
    if _strategy is None:
        return None
    found = _strategy.read(text)
    if found is None:
        return None
    header_text, nodes = found
    return _walked(header_text, nodes, subject, rules)


def check_pieces_quickly(
    pieces: Iterable[bytes], subject: str | None, rules: RuleSet
) -> tuple[dict[str, Any], int] | None:
    """As :func:`check_quickly`, the text given in pieces and never held whole.

    Only a proof laid out as ``endgame --proof`` writes it (one node a line)
    is read so: None for any other, as for a proof not found valid, and the
    caller then reads the whole text. It stops taking pieces at the first
    line it cannot read.
    """
    if _strategy is None:
        return None
    nodes = _strategy.reader()
    for piece in pieces:
        if not nodes.feed(piece):
            return None
    header_text = nodes.finish()
    if header_text is None:
        return None
    return _walked(header_text, nodes, subject, rules)


def _walked(
    header_text: str, nodes: Any, subject: str | None, rules: RuleSet
) -> tuple[dict[str, Any], int] | None:
    """The header read and checked as ``read_proof`` checks it, then the C walk of ``nodes``."""
    try:
        header = loads_json(header_text, "proof")
        if not isinstance(header, dict) or header.get("format") != "cpsolver-strategy":
            return None
        position = parse_position(subject, rules) if subject is not None else None
    except (InputError, CpsolverError):
        return None
    embedded = read_header(header, position, rules, nodes=False)  # the schema, as read_proof's
    if isinstance(embedded, str):
        return None
    root, winner = header["root"], header["winner"]
    if not 0 <= root < nodes.count or winner not in (0, 1):
        return None
    walked: int = nodes.walk(
        *_rules(rules),
        root,
        winner,
        [packed(hand) for hand in embedded.hands],
        embedded.turn,
        _table(embedded, rules),
    )
    if not walked:
        return None
    del header["nodes"]  # the spliced-in stand-in: the nodes are the C checker's
    return header, walked


def checker_moves(
    hand: Hand, table: Play | None, rules: RuleSet
) -> list[tuple[int, int, int, int]]:
    """The C checker's legal plays of ``hand`` (a pass left out), as (cards packed, kind number, rank, chain).

    Its own move generator, for the tests that hold it to the rules core's.
    """
    assert _strategy is not None, "the compiled checker was not built"
    on_table = None if table is None else _play(table, rules) + (0,)
    found: list[tuple[int, int, int, int]] = _strategy.moves(*_rules(rules), packed(hand), on_table)
    return found


def _rules(rules: RuleSet) -> tuple[Any, ...]:
    """A rule set as the C checker reads it."""
    return (
        pattern_tables(rules),
        rules.highest_chain_rank,
        rules.both_jokers_as_kickers,
        KIND_ORDER[Kind.ROCKET],
        RED_JOKER,
    )


def packed(hand: Hand) -> int:
    """A hand as the C checker reads it: four bits a rank, three lowest."""
    return sum(count << (4 * rank) for rank, count in enumerate(hand.counts))


def _table(position: Position, rules: RuleSet) -> _Table | None:
    play, by = position.table, position.by
    if play is None or by is None:
        return None
    return (*_play(play, rules), by)


def _play(play: Play, rules: RuleSet) -> tuple[int, int, int, int, int]:
    """A play as the C checker reads it: cards, pattern, top, chain, kind."""
    return (
        packed(play.cards),
        _pattern_of(play, rules),
        play.rank,
        play.chain,
        KIND_ORDER[play.kind],
    )


def _pattern_of(play: Play, rules: RuleSet) -> int:
    """The index of a play's pattern among the rule set's (-1: the rocket, which has none)."""
    for index, pattern in enumerate(patterns(rules)):
        if pattern.kind is play.kind and pattern.link_size * play.chain == play.size:
            return index
    return -1
