"""The strategy checker: does this strategy win this position? Shares no code with the solver.

It walks the proof's DAG from its root with the rules core alone. At each
turn of the winning side the move must be legal and lead to the node named;
at each turn of the other side it lists every legal reply itself (with the
move generator, pass included) and demands a child for each, none of them
emptying that side's hand; a ``spring`` node must be on lead and its plays
must empty the hand with none but the last answerable by the other side.
Every path then ends with the winning side out of cards: the game cannot
cycle, as every trick takes at least one card. Each check returns the first
failure as one sentence, or None.

Where it was built, ``verify`` first runs the same walk in C
(:mod:`cpsolver.verify.compiled`), which only ever says "valid": this module
is its reference, and says what is wrong with every proof that is not.
"""

from __future__ import annotations

import json
from operator import le
from typing import Any

from cpsolver.io.positionformat import position_as_dict, position_from_dict, read_play
from cpsolver.io.reading import is_whole
from cpsolver.rules.cards import Hand, rank_symbol
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play, beats
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.verify.documents import ProofFormatError, rules_mismatch, validate
from cpsolver.verify.nodeshape import first_malformed

_Move = Play | None  # None is a pass
# A move as the old checker keyed it: its cards, kind and rank written out.
_Key = tuple[str, str, str]
_PASS: _Key = ("pass", "", "")


def check_strategy(
    document: Any, position: Position | None = None, rules: RuleSet | None = None
) -> str | None:
    """The first reason a strategy proof does not prove its winner, or None if it does.

    ``position``, when given, must be the position the proof embeds; ``rules``
    must be the rule set it was made under (same name and digest).
    """
    return check_strategy_walked(document, position, rules)[0]


def check_strategy_walked(
    document: Any, position: Position | None = None, rules: RuleSet | None = None
) -> tuple[str | None, int]:
    """:func:`check_strategy`, and the number of positions its walk from the root checked.

    That number, not the length of ``nodes``, is the strategy's size: a node
    no move leads to proves nothing and is never read.
    """
    walk = _Walk.of(document, position, rules or standard_rules())
    if isinstance(walk, str):
        return walk, 0
    failure = walk.check(walk.embedded)
    return failure, walk.walked


def read_header(
    document: Any, position: Position | None, rules: RuleSet, nodes: bool = True
) -> Position | str:
    """The position a strategy's header embeds, or the first reason the header does not hold.

    The header is all but the nodes: its schema, the rules it was made under,
    its position (which must be ``position``, when given). With ``nodes`` the
    shape of every node is checked too; the compiled checker reads the nodes
    itself and checks their shape as it does (:mod:`cpsolver.verify.compiled`).
    """
    try:
        validate(document, "strategy-header")
    except ProofFormatError as error:
        return str(error)
    for key in ("winner", "root"):
        # The schema's integers include 1.0 (JSON Schema's rule); a node index may not.
        if not is_whole(document[key]):
            return f"strategy.{key}: {json.dumps(document[key])} is not a whole number"
    fault = first_malformed(document["nodes"]) if nodes else None
    if fault is not None:
        return fault
    mismatch = rules_mismatch(document, rules, "strategy")
    if mismatch is not None:
        return mismatch
    try:
        embedded = position_from_dict(document["position"], rules)
    except CpsolverError as error:
        return f"the strategy's position: {error}"
    if position is not None and position != embedded:
        shown = json.dumps(position_as_dict(embedded, rules))
        return f"the strategy is for another position: {shown}"
    return embedded


class _Walk:
    """The check of one strategy: its header first (:meth:`of`), then every node reached."""

    def __init__(self, document: dict[str, Any], rules: RuleSet, embedded: Position) -> None:
        self.nodes: list[dict[str, Any]] = document["nodes"]
        self.winner: int = document["winner"]
        self.root: int = document["root"]
        self.rules = rules
        self.embedded = embedded
        self.walked = 0  # the positions checked so far, from the root
        self.moves = generator(rules)
        self.positions: dict[int, Position] = {}
        self._hands: dict[str, Hand] = {}
        # Proofs name the same few plays over and over: each spelling is read
        # once, and each play (the generator's and those read) written out once.
        self._spellings: dict[tuple[str, Any, Any], tuple[Play, _Key]] = {}
        self._keys: dict[Play, _Key] = {}

    @classmethod
    def of(cls, document: Any, position: Position | None, rules: RuleSet) -> _Walk | str:
        """The walk of a strategy whose header and nodes' shape hold, or the first reason they do not."""
        embedded = read_header(document, position, rules, nodes=True)
        if isinstance(embedded, str):
            return embedded
        return cls(document, rules, embedded)

    def hand(self, text: str) -> Hand:
        found = self._hands.get(text)
        if found is None:
            found = self._hands[text] = Hand.parse(text)
        return found

    def play(self, cards: str, kind: Any, rank: Any) -> Play:
        return self.spelled(cards, kind, rank)[0]

    def spelled(self, cards: str, kind: Any, rank: Any) -> tuple[Play, _Key]:
        """The play a proof spells so, and its key; raises what reading it raises."""
        spelling = (cards, kind, rank)
        found = self._spellings.get(spelling)
        if found is None:
            play = read_play(cards, self.rules, kind, rank)
            found = self._spellings[spelling] = (play, self.key(play))
        return found

    def key(self, move: _Move) -> _Key:
        """What tells replies apart, as ever: cards, kind and rank, written out (once a play)."""
        if move is None:
            return _PASS
        found = self._keys.get(move)
        if found is None:
            found = self._keys[move] = (str(move.cards), move.kind.value, rank_symbol(move.rank))
        return found

    def check(self, embedded: Position) -> str | None:
        root = self.position_of(self.root)
        if isinstance(root, str):
            return root
        if root != embedded:
            return f"node {self.root} (the root) is not the strategy's position"
        stack, seen = [self.root], set()
        while stack:
            index = stack.pop()
            if index in seen:
                continue
            seen.add(index)
            self.walked = len(seen)
            failure = self.check_node(index, stack)
            if failure is not None:
                return failure
        return None

    def position_of(self, index: int) -> Position | str:
        """The position node ``index`` holds, or why it holds none."""
        if index in self.positions:
            return self.positions[index]
        if not 0 <= index < len(self.nodes):
            return f"there is no node {index}"
        node = self.nodes[index]
        try:
            hands = tuple(self.hand(h) for h in node["hands"])
            table = node["table"]
            if table is None:
                found = Position(hands, node["turn"])
            else:
                play = self.play(table["cards"], table.get("kind"), table.get("rank"))
                found = Position(hands, node["turn"], play, table["by"])
        except CpsolverError as error:
            return f"node {index}: {error}"
        self.positions[index] = found
        return found

    def check_node(self, index: int, stack: list[int]) -> str | None:
        position = self.positions[index]
        node = self.nodes[index]
        where = f"node {index}"
        mover = position.turn
        if position.side_of(mover) == self.winner:
            if "replies" in node:
                return f"{where}: hand {mover} is of the winning side and must choose one move"
            if "spring" in node:
                return self.check_spring(where, position, node["spring"])
            read = self.read_move(where, node["move"], position)
            if isinstance(read, str):
                return read
            return self.check_edge(where, position, read[0], node["move"]["next"], stack)
        if "replies" not in node:
            return f"{where}: hand {mover} is of the losing side: every reply must be answered"
        listed: dict[_Key, int | None] = {}
        for reply in node["replies"]:
            read = self.read_move(where, reply, position)
            if isinstance(read, str):
                return read
            move, key = read
            if key in listed:
                return f"{where}: the reply {_words(move)} is listed twice"
            listed[key] = reply["next"]
        for move in self.legal(position):
            key = self.key(move)
            if key not in listed:
                return f"{where}: hand {mover} may reply {_words(move)}, and the strategy has no answer to it"
            failure = self.check_edge(where, position, move, listed[key], stack)
            if failure is not None:
                return failure
        return None

    def legal(self, position: Position) -> list[_Move]:
        return self.moves.moves(position.hands[position.turn], position.table)

    def read_move(
        self, where: str, move: dict[str, Any], position: Position
    ) -> tuple[_Move, _Key] | str:
        """The move a proof names and its key, if it is legal here; else why not."""
        if move["cards"] == "pass":
            if position.table is None:
                return f"{where}: hand {position.turn} leads and may not pass"
            return None, _PASS
        try:
            play, key = self.spelled(move["cards"], move.get("kind"), move.get("rank"))
        except CpsolverError as error:
            return f"{where}: {move['cards']}: {error}"
        hand = position.hands[position.turn]
        if not _within(play.cards, hand):
            return f"{where}: hand {position.turn} ({hand}) does not hold {play}"
        if position.table is not None and not beats(play, position.table):
            return f"{where}: {play} does not beat {position.table} on the table"
        return play, key

    def check_edge(
        self, where: str, position: Position, move: _Move, target: int | None, stack: list[int]
    ) -> str | None:
        """The move must lead to node ``target`` (None: the mover goes out, for the winning side)."""
        after = position.after(move)
        if after is None:
            if position.side_of(position.turn) != self.winner:
                return f"{where}: {_words(move)} empties hand {position.turn}: the other side wins"
            if target is not None:
                return f"{where}: {_words(move)} empties the hand, so it leads to no node"
            return None
        if target is None:
            return f"{where}: {_words(move)} leaves {position.hands[position.turn] - _cards(move)} in hand {position.turn}; it must lead to a node"
        if target not in self.positions and self.spells(target, after):
            self.positions[target] = after
        else:
            found = self.position_of(target)
            if isinstance(found, str):
                return f"{where}: {_words(move)}: {found}"
            if found != after:
                return (
                    f"{where}: {_words(move)} leads to node {target}, which holds another position"
                )
        stack.append(target)
        return None

    def spells(self, index: int, position: Position) -> bool:
        """Whether node ``index`` is written as ``position``, one the rules made (so valid).

        Such a node holds that position, as valid, and is neither built nor
        checked again: most of what :meth:`position_of` took. Any other node
        (another position, one the rules refuse, or the same one written
        otherwise) is left to :meth:`position_of`, which says what it holds.
        """
        if not 0 <= index < len(self.nodes):
            return False
        node = self.nodes[index]
        texts, hands, table = node["hands"], position.hands, node["table"]
        if node["turn"] != position.turn or len(texts) != len(hands):
            return False
        try:
            for text, hand in zip(texts, hands):
                if self.hand(text).counts != hand.counts:
                    return False
            if table is None or position.table is None:
                return table is position.table
            play = self.play(table["cards"], table.get("kind"), table.get("rank"))
        except CpsolverError:
            return False
        return table["by"] == position.by and (play is position.table or play == position.table)

    def check_spring(
        self, where: str, position: Position, steps: list[dict[str, Any]]
    ) -> str | None:
        if position.table is not None:
            return (
                f"{where}: a spring plan starts from the lead, and {position.table} is on the table"
            )
        left = position.hands[position.turn]
        opponents = [position.hands[p] for p in position.opponents(position.turn)]
        for number, step in enumerate(steps, 1):
            try:
                play = self.play(step["cards"], step["kind"], step["rank"])
            except CpsolverError as error:
                return f"{where}: spring step {number}: {error}"
            if not _within(play.cards, left):
                return f"{where}: spring step {number} ({play}): the hand holds only {left}"
            left = left - play.cards
            if number < len(steps):
                for opponent in opponents:
                    answers = self.moves.answers(opponent, play)
                    if answers:
                        return f"{where}: spring step {number} ({play}): answered by {answers[0]}"
        if left:
            return f"{where}: the spring plan leaves {left} in hand {position.turn}"
        return None


def _within(cards: Hand, hand: Hand) -> bool:
    """``cards <= hand``, in one C loop: the check asks it of every move."""
    return all(map(le, cards.counts, hand.counts))


def _cards(move: _Move) -> Hand:
    return Hand.empty() if move is None else move.cards


def _words(move: _Move) -> str:
    return "pass" if move is None else str(move)
