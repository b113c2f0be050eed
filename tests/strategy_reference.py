"""The strategy checker as it stood before it was made faster (commit ac3e2e0), the previous implementation.

Kept as the reference for tests/test_strategy_differential.py: the fast
checker must give the same verdict, with the same message, on every proof,
valid or mutated. The code is as it was, but for its names (``check_strategy``
is ``previous_check_strategy``) and its header check, which runs the whole
``strategy-header`` schema through :func:`first_error` as ``validate`` did
then, so that the reference does not lean on the faster ``validate``.
"""

from __future__ import annotations

import json
from typing import Any

from cpsolver.io.positionformat import position_as_dict, position_from_dict, read_play
from cpsolver.io.reading import is_whole
from cpsolver.rules.cards import Hand, rank_symbol
from cpsolver.rules.errors import CpsolverError
from cpsolver.rules.movegen import generator
from cpsolver.rules.plays import Play, beats
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.verify.documents import ProofFormatError, rules_mismatch, schema
from cpsolver.verify.schema import first_error

_Move = Play | None  # None is a pass


def validate(document: Any, name: str) -> None:
    """``cpsolver.verify.documents.validate`` as it was: the whole schema, every node."""
    error = first_error(document, schema(name))
    if error is not None:
        path, message = error
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        raise ProofFormatError(f"{name}{where}: {message}")


def previous_check_strategy(
    document: Any, position: Position | None = None, rules: RuleSet | None = None
) -> str | None:
    """The first reason a strategy proof does not prove its winner, or None if it does.

    ``position``, when given, must be the position the proof embeds; ``rules``
    must be the rule set it was made under (same name and digest).
    """
    return previous_check_strategy_walked(document, position, rules)[0]


def previous_check_strategy_walked(
    document: Any, position: Position | None = None, rules: RuleSet | None = None
) -> tuple[str | None, int]:
    """:func:`previous_check_strategy`, and the number of positions its walk from the root checked.

    That number, not the length of ``nodes``, is the strategy's size: a node
    no move leads to proves nothing and is never read.
    """
    walk = _Walk.of(document, position, rules or standard_rules())
    if isinstance(walk, str):
        return walk, 0
    failure = walk.check(walk.embedded)
    return failure, walk.walked


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
        self._plays: dict[tuple[str, Any, Any], Play] = {}

    @classmethod
    def of(cls, document: Any, position: Position | None, rules: RuleSet) -> _Walk | str:
        """The walk of a strategy whose header holds, or the first reason it does not."""
        try:
            validate(document, "strategy-header")
        except ProofFormatError as error:
            return str(error)
        for key in ("winner", "root"):
            # The schema's integers include 1.0 (JSON Schema's rule); a node index may not.
            if not is_whole(document[key]):
                return f"strategy.{key}: {json.dumps(document[key])} is not a whole number"
        for index, node in enumerate(document["nodes"]):
            fault = _malformed(node)
            if fault is not None:
                return f"strategy.nodes[{index}]: {fault}"
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
        return cls(document, rules, embedded)

    def hand(self, text: str) -> Hand:
        found = self._hands.get(text)
        if found is None:
            found = self._hands[text] = Hand.parse(text)
        return found

    def play(self, cards: str, kind: Any, rank: Any) -> Play:
        key = (cards, kind, rank)
        found = self._plays.get(key)
        if found is None:
            found = self._plays[key] = read_play(cards, self.rules, kind, rank)
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
            move = self.read_move(where, node["move"], position)
            if isinstance(move, str):
                return move
            return self.check_edge(where, position, move, node["move"]["next"], stack)
        if "replies" not in node:
            return f"{where}: hand {mover} is of the losing side: every reply must be answered"
        listed: dict[tuple[str, str, str], int | None] = {}
        for reply in node["replies"]:
            move = self.read_move(where, reply, position)
            if isinstance(move, str):
                return move
            key = _key(move)
            if key in listed:
                return f"{where}: the reply {_words(move)} is listed twice"
            listed[key] = reply["next"]
        for move in self.legal(position):
            key = _key(move)
            if key not in listed:
                return f"{where}: hand {mover} may reply {_words(move)}, and the strategy has no answer to it"
            failure = self.check_edge(where, position, move, listed[key], stack)
            if failure is not None:
                return failure
        return None

    def legal(self, position: Position) -> list[_Move]:
        return self.moves.moves(position.hands[position.turn], position.table)

    def read_move(self, where: str, move: dict[str, Any], position: Position) -> _Move | str:
        """The move a proof names, if it is legal here; else why not."""
        if move["cards"] == "pass":
            if position.table is None:
                return f"{where}: hand {position.turn} leads and may not pass"
            return None
        try:
            play = self.play(move["cards"], move.get("kind"), move.get("rank"))
        except CpsolverError as error:
            return f"{where}: {move['cards']}: {error}"
        hand = position.hands[position.turn]
        if not play.cards <= hand:
            return f"{where}: hand {position.turn} ({hand}) does not hold {play}"
        if position.table is not None and not beats(play, position.table):
            return f"{where}: {play} does not beat {position.table} on the table"
        return play

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
        found = self.position_of(target)
        if isinstance(found, str):
            return f"{where}: {_words(move)}: {found}"
        if found != after:
            return f"{where}: {_words(move)} leads to node {target}, which holds another position"
        stack.append(target)
        return None

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
            if not play.cards <= left:
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


_NODE_KEYS = {"hands", "turn", "table"}
_CHOICES = {"move", "spring", "replies"}


def _malformed(node: Any) -> str | None:
    """What makes a node not of the schema's node shape, checked by hand for speed."""
    if not isinstance(node, dict):
        return "a node is a JSON object"
    keys = set(node)
    if not _NODE_KEYS <= keys or len(keys & _CHOICES) != 1 or keys - _NODE_KEYS - _CHOICES:
        return "a node has hands, turn, table and one of move, spring, replies"
    hands, turn, table = node["hands"], node["turn"], node["table"]
    if (
        not isinstance(hands, list)
        or not 2 <= len(hands) <= 3
        or not all(isinstance(h, str) for h in hands)
    ):
        return "hands must be two or three strings of cards"
    if not is_whole(turn):
        return "turn must be a hand number"
    if table is not None and (
        not isinstance(table, dict)
        or not {"cards", "by"} <= set(table) <= {"cards", "by", "kind", "rank"}
        or not is_whole(table["by"])
        or not all(isinstance(table[k], str) for k in table if k != "by")
    ):
        return "table must be null or {cards, by (, kind, rank)}"
    if "move" in node:
        return _malformed_move(node["move"])
    steps = node.get("spring", node.get("replies"))
    if not isinstance(steps, list) or not steps:
        return "spring and replies are non-empty lists"
    for step in steps:
        fault = _malformed_move(step) if "replies" in node else _malformed_play(step)
        if fault is not None:
            return fault
    return None


def _malformed_move(move: Any) -> str | None:
    if not isinstance(move, dict) or not {"cards", "next"} <= set(move) <= {
        "cards",
        "kind",
        "rank",
        "next",
    }:
        return "a move is {cards, next (, kind, rank)}"
    if move["next"] is not None and not is_whole(move["next"]):
        return "next must be a node number or null"
    if not all(isinstance(move[k], str) for k in move if k != "next"):
        return "a move's cards, kind and rank are strings"
    return None


def _malformed_play(play: Any) -> str | None:
    if not isinstance(play, dict) or set(play) != {"cards", "kind", "rank"}:
        return "a spring step is {cards, kind, rank}"
    if not all(isinstance(v, str) for v in play.values()):
        return "a spring step's cards, kind and rank are strings"
    return None


def _key(move: _Move) -> tuple[str, str, str]:
    if move is None:
        return ("pass", "", "")
    return (str(move.cards), move.kind.value, rank_symbol(move.rank))


def _cards(move: _Move) -> Hand:
    return Hand.empty() if move is None else move.cards


def _words(move: _Move) -> str:
    return "pass" if move is None else str(move)
