"""Real strategy proofs, and random changes to them, for the tests that hold two checkers together.

One to three changes at a time (a move swapped, a reply dropped or listed
twice, a hand changed, ``next`` pointed elsewhere, a node's shape broken, a
spelling changed that means the same): test_strategy_differential.py holds
the checker to its previous implementation with them, and
test_compiled_checker.py the compiled checker to the Python one.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from cpsolver.endgame import solve
from cpsolver.endgame.proof import build_strategy_proof
from cpsolver.io.positionformat import position_from_dict
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.ruleset import RuleSet, standard_rules

Document = dict[str, Any]

CASES = {
    "two players": (["KK5543", "225543"], 0, None),
    "larger": (["2AKT96", "BKJT88"], 0, None),
    "the second player wins": (["2KKTT7", "AA8"], 0, None),
    "the landlord wins": (["KKK 2 5", "AA 7", "QQQ 3 6"], 1, {"cards": "5", "by": 0}),
    "the peasants win": (["568JQ", "4TQKB", "37JA2"], 0, None),
    "mid-trick": (["9 TT", "JJ 3", "44 A"], 1, {"cards": "8", "by": 0}),
    "douzero": (["3456 99", "TT JJ 2", "77 88 A"], 0, None),
    "read two ways": (
        ["KKK7774 5", "88899910JJJ"],
        0,
        {"cards": "333444555666", "by": 1, "kind": "triplet_sequence_singles", "rank": "5"},
    ),
}
DOUZERO = {"douzero", "read two ways"}


@cache
def _made(name: str) -> tuple[str, str]:
    """The proof of a case, as JSON text, and the name of its rules."""
    hands, turn, table = CASES[name]
    rules = load_rules("douzero") if name in DOUZERO else standard_rules()
    position = position_from_dict({"hands": hands, "turn": turn, "table": table}, rules)
    document = build_strategy_proof(solve(position, rules=rules), rules)
    return json.dumps(document), rules.name


def proof(name: str) -> tuple[Document, RuleSet]:
    text, rules = _made(name)
    return json.loads(text), load_rules(rules)


def _moves(node: Any) -> list[Any]:
    if not isinstance(node, dict):
        return []
    found = list(node.get("replies") or []) if isinstance(node.get("replies"), list) else []
    if isinstance(node.get("move"), dict):
        found.append(node["move"])
    return [m for m in found if isinstance(m, dict)]


def _spellings(document: Document) -> list[dict[str, Any]]:
    """Every play the proof writes, as written, to swap in elsewhere."""
    found = {json.dumps({"cards": "pass"})}
    for node in document["nodes"]:
        for move in _moves(node):
            found.add(json.dumps({k: v for k, v in move.items() if k != "next"}, sort_keys=True))
    return [json.loads(s) for s in sorted(found) if s != "{}"]


ODD_VALUES = [None, True, False, 1.0, -1, 3, 5, "0", "x", [], {}, [1], "X!", "", "pass"]
CARDS = ["3", "4", "55", "KK", "A", "2", "B", "R", "BR", "KKK", "KKK5", "3333", "10", "kk", "x!"]


def mutation(rng: random.Random, document: Document) -> Callable[[], None]:
    """One change of ``document``, chosen at random: call it to make it."""
    nodes = document["nodes"]
    if not isinstance(nodes, list) or not nodes:
        return lambda: None
    index = rng.randrange(len(nodes))
    node = nodes[index]
    moves = _moves(node)
    move = rng.choice(moves) if moves else None
    other = rng.choice(nodes)
    spelled = rng.choice(_spellings(document))

    def swap_move() -> None:
        if move is not None:
            for key in ("cards", "kind", "rank"):
                move.pop(key, None)
            move.update(spelled)
            move.setdefault("cards", "pass")

    def new_cards() -> None:
        if move is not None:
            move["cards"] = rng.choice(CARDS)
            if rng.random() < 0.5:
                move.pop("kind", None)
                move.pop("rank", None)

    def drop_reply() -> None:
        if isinstance(node, dict) and isinstance(node.get("replies"), list) and node["replies"]:
            node["replies"].pop(rng.randrange(len(node["replies"])))

    def duplicate_reply() -> None:
        if isinstance(node, dict) and isinstance(node.get("replies"), list) and node["replies"]:
            twin = dict(rng.choice(node["replies"]))
            if rng.random() < 0.5:
                twin["next"] = rng.randrange(len(nodes))
            node["replies"].insert(rng.randrange(len(node["replies"]) + 1), twin)

    def shuffle_replies() -> None:
        if isinstance(node, dict) and isinstance(node.get("replies"), list):
            rng.shuffle(node["replies"])

    def point_next() -> None:
        if move is not None:
            move["next"] = rng.choice(
                [rng.randrange(len(nodes)), index, len(nodes), -1, None, 1.0, True, "1", 10**6]
            )

    def change_hand() -> None:
        if isinstance(node, dict) and isinstance(node.get("hands"), list) and node["hands"]:
            number = rng.randrange(len(node["hands"]))
            text = str(node["hands"][number])
            choices = [
                text[1:],
                text + rng.choice("3456789TJQKA2BR"),
                text.lower(),
                text.replace("T", "10"),
                " ".join(text),
                text[::-1],
                rng.choice(CARDS),
            ]
            if isinstance(other, dict) and isinstance(other.get("hands"), list):
                choices.append(str(rng.choice(other["hands"])))
            node["hands"][number] = rng.choice(choices)

    def change_table() -> None:
        if not isinstance(node, dict):
            return
        table = node.get("table")
        choice = rng.randrange(6)
        if choice == 0 and isinstance(other, dict) and "table" in other:
            node["table"] = copy.deepcopy(other["table"])
        elif choice == 1:
            node["table"] = None
        elif isinstance(table, dict) and choice == 2:
            table["by"] = rng.choice([0, 1, 2, 3, -1, True, 1.0, None])
        elif isinstance(table, dict) and choice == 3:
            table.pop(rng.choice(["kind", "rank", "cards", "by"]), None)
        elif isinstance(table, dict) and choice == 4:
            table[rng.choice(["kind", "rank", "cards"])] = rng.choice(
                ["single", "pair", "bomb", "5", "K", "2", *CARDS]
            )
        elif isinstance(table, dict):
            table.update(spelled)

    def change_turn() -> None:
        if isinstance(node, dict):
            node["turn"] = rng.choice([0, 1, 2, 3, -1, True, 1.0, "1", None])

    def break_shape() -> None:
        if not isinstance(node, dict):
            nodes[index] = {}
            return
        choice = rng.randrange(7)
        if choice == 0:
            nodes[index] = rng.choice(ODD_VALUES)
        elif choice == 1:
            node.pop(rng.choice(["hands", "turn", "table", "move", "replies", "spring"]), None)
        elif choice == 2:
            node[rng.choice(["extra", "move", "replies", "spring"])] = rng.choice(
                [*ODD_VALUES, {"cards": "pass", "next": None}]
            )
        elif choice == 3:
            node["hands"] = rng.choice([["3"], ["3", "4", "5", "6"], "34", [3, 4], ["3", None]])
        elif choice == 4 and move is not None:
            key = rng.choice(["cards", "next", "kind", "rank", "extra"])
            if key in move and rng.random() < 0.5:
                del move[key]
            else:
                move[key] = rng.choice(ODD_VALUES)
        elif choice == 5 and isinstance(node.get("spring"), list) and node["spring"]:
            step = rng.choice(node["spring"])
            if rng.random() < 0.5:
                step.pop(rng.choice(["cards", "kind", "rank"]))
            else:
                step[rng.choice(["cards", "kind", "rank", "next"])] = rng.choice(ODD_VALUES)
        elif isinstance(node.get("replies"), list) and rng.random() < 0.5:
            node["replies"] = rng.choice([[], "x", [None], [{"cards": "3"}]])

    def change_spring() -> None:
        if isinstance(node, dict) and isinstance(node.get("spring"), list) and node["spring"]:
            steps = node["spring"]
            choice = rng.randrange(4)
            if choice == 0:
                steps.reverse()
            elif choice == 1 and len(steps) > 1:
                steps.pop(rng.randrange(len(steps)))
            elif choice == 2:
                steps[rng.randrange(len(steps))] = {**spelled, "cards": spelled.get("cards", "3")}
            else:
                node["move"] = {**steps[0], "next": None}
                del node["spring"]

    def switch_choice() -> None:
        """A winning side's move given as replies, a losing side's replies as a move, a spring."""
        if not isinstance(node, dict) or move is None:
            return
        for key in ("move", "replies", "spring"):
            node.pop(key, None)
        choice = rng.randrange(3)
        if choice == 0:
            node["replies"] = [move]
        elif choice == 1:
            node["move"] = move
        else:
            cards = "3" if spelled["cards"] == "pass" else spelled["cards"]
            kind, rank = spelled.get("kind", "single"), spelled.get("rank", cards[-1])
            node["spring"] = [{"cards": cards, "kind": kind, "rank": rank}]

    def drop_meaningless() -> None:
        """A spelling that means the same: kinds and ranks left out, the node list padded."""
        if move is not None and rng.random() < 0.5:
            move.pop("kind", None)
            move.pop("rank", None)
        else:
            nodes.append(copy.deepcopy(other))

    def reorder_nodes() -> None:
        other_index = rng.randrange(len(nodes))
        nodes[index], nodes[other_index] = nodes[other_index], nodes[index]

    def change_header() -> None:
        key = rng.choice(["winner", "root", "format", "version", "position", "rules", "nodes"])
        if key == "nodes":
            document["nodes"] = rng.choice([[], "x", [None], nodes[:1]])
        elif key == "position" and isinstance(other, dict):
            document["position"] = {k: other.get(k) for k in ("hands", "turn", "table")}
        else:
            document[key] = rng.choice([*ODD_VALUES, 0, 1, 2, rng.randrange(len(nodes))])

    changes = [
        swap_move,
        new_cards,
        drop_reply,
        duplicate_reply,
        shuffle_replies,
        point_next,
        change_hand,
        change_table,
        change_turn,
        break_shape,
        change_spring,
        switch_choice,
        drop_meaningless,
        reorder_nodes,
        change_header,
    ]
    weights = [6, 3, 4, 4, 1, 4, 5, 3, 2, 5, 3, 2, 2, 1, 1]
    return rng.choices(changes, weights)[0]
