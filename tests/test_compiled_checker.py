"""The compiled strategy checker against the Python one: the same answer on every proof.

The C checker only ever says "valid"; everything else goes to the Python
checker. So ``verify`` must give, on every text, exactly the answer it gives
with the C checker switched off, and the C checker must never call valid a
proof the Python one refuses. Checked on proofs of positions generated under
every bundled rule set and a user's TOML, on proofs changed at random
(tests/strategy_mutations.py), and on texts written in every other way JSON
and the card notation allow, which its reader refuses. Each text is also
given to the reader that takes a proof a piece at a time (one node a line, as
written: ``verify FILE``'s way to a proof of gigabytes), cut at random: it
must read what the whole-text reader reads, or refuse. Where the checker was
not built these tests skip; the Python checker is tested on its own elsewhere.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from strategy_mutations import CASES, mutation, proof
from test_compiled_core import RULE_SETS

from cpsolver.endgame import solve
from cpsolver.endgame.proof import build_strategy_proof, strategy_proof_text
from cpsolver.io.positiongen import random_position
from cpsolver.io.reading import InputError
from cpsolver.io.rulefiles import load_rules
from cpsolver.rules.cards import DECK_COUNTS, Hand
from cpsolver.rules.movegen import generator
from cpsolver.rules.patterns import KIND_ORDER, Kind
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.verify import compiled
from cpsolver.verify.answer import verify_text
from cpsolver.verify.compiled import check_pieces_quickly, check_quickly, checker_moves, packed
from cpsolver.verify.strategy import check_strategy_walked

pytestmark = pytest.mark.skipif(
    not compiled.available(), reason="the compiled checker was not built"
)


def _slow(text: str, subject: str | None, rules: RuleSet) -> Any:
    """verify's answer with the C checker switched off: the Python checker's alone."""
    saved, compiled._strategy = compiled._strategy, None
    try:
        return _answer(text, subject, rules)
    finally:
        compiled._strategy = saved


def _answer(text: str, subject: str | None, rules: RuleSet) -> Any:
    try:
        answer = verify_text(text, subject, rules, "proof.json")
    except InputError as error:
        return ("input error", str(error))
    return (answer.failure, answer.walked, answer.as_dict())


def _agree(text: str, rules: RuleSet, subject: str | None = None) -> bool:
    """Assert both ways give one answer; whether the C checker read it and found it valid.

    The text in pieces, as ``verify FILE`` reads it, must be read alike or refused.
    """
    quick = check_quickly(text, subject, rules)
    slow = _slow(text, subject, rules)
    assert _answer(text, subject, rules) == slow
    if quick is not None:
        assert slow[0] is None and quick[1] == slow[1], "the C checker passed a bad proof"
    pieces = check_pieces_quickly(_cut(text.encode()), subject, rules)
    if pieces is not None:
        assert pieces == quick, "the reader of pieces read what the whole-text one did not"
    return quick is not None


def _cut(data: bytes) -> list[bytes]:
    """``data`` in pieces of random sizes, one byte to a few lines (seeded by the data)."""
    rng = random.Random(len(data))
    pieces, at = [], 0
    while at < len(data):
        size = rng.choice([1, 2, 3, 17, 100, 1000, 1 << 16])
        pieces.append(data[at : at + size])
        at += size
    return pieces


def as_written(document: Any) -> str:
    """A document laid out as ``endgame --proof`` writes one: the header indented, then one
    node a line (what the reader of pieces reads; any other layout is read whole)."""
    nodes = document.get("nodes") if isinstance(document, dict) else None
    if not isinstance(nodes, list) or not nodes:
        return json.dumps(document, indent=2)
    head = json.dumps({k: v for k, v in document.items() if k != "nodes"}, indent=2)
    lines = ",\n".join("    " + json.dumps(n, separators=(",", ":")) for n in nodes)
    return f'{head[:-2]},\n  "nodes": [\n{lines}\n  ]\n}}\n'


def _positions(rules: RuleSet, count: int) -> list[Position]:
    """Two- and three-player positions of up to a few thousand nodes, half of them mid-trick."""
    rng = random.Random(f"compiled checker {rules.name}")
    two, three = ((3, 12), (3, 12)), ((2, 9), (2, 8), (2, 8))
    return [random_position(rng, three if k % 2 else two, 0.5, rules) for k in range(count)]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_every_proof_the_solver_writes_passes_both_with_the_same_walk(rules: RuleSet) -> None:
    """Both winners, two and three players, leads and tables: every legal reply the C
    generator lists must be the one the proof lists, so a play too many or too few fails."""
    walked = 0
    for position in _positions(rules, 40):
        result = solve(position, rules)
        for text in (
            strategy_proof_text(result, rules),
            json.dumps(build_strategy_proof(result, rules)),
        ):
            quick = check_quickly(text, None, rules)
            failure, expected = check_strategy_walked(json.loads(text), position, rules)
            assert failure is None
            assert quick is not None and quick[1] == expected, position
            walked += expected
        written = strategy_proof_text(result, rules)
        assert check_pieces_quickly(_cut(written.encode()), None, rules) == quick
    assert walked > 2000


@pytest.mark.parametrize("name", list(CASES))
def test_changed_proofs_get_the_python_checkers_answer(name: str) -> None:
    rng = random.Random(f"compiled {name}")
    passed = failed = 0
    for trial in range(300):
        document, rules = proof(name)
        for _ in range(1 + (trial % 3 == 0) + (trial % 7 == 0)):
            mutation(rng, document)()
        text = as_written(document) if trial % 2 else json.dumps(document, separators=(",", ":"))
        if _agree(text, rules):
            passed += 1
        else:
            failed += 1
    # Both ways are taken: proofs still valid after a change, and proofs broken by one.
    assert passed > 10 and failed > 100


def _texts(text: str) -> list[str]:
    """The same proof written otherwise: each must get the same answer, read by C or not."""
    document = json.loads(text)
    node = document["nodes"][0]
    hand = node["hands"][0]
    swaps = [
        text.replace(f'"{hand}"', '"' + "".join(f"\\u{ord(c):04x}" for c in hand) + '"', 1),
        text.replace(f'"{hand}"', f'"{hand.lower()}"', 1),
        text.replace(f'"{hand}"', f'"{" ".join(hand)}"', 1),
        text.replace(f'"{hand}"', f'"{hand.replace("T", "10")}"', 1),
        text.replace('"turn": 0', '"turn": 0.0', 1).replace('"turn":0', '"turn":0.0', 1),
        text.replace('"turn": 1', '"turn": 1e0', 1).replace('"turn":1', '"turn":1e0', 1),
        text.replace('"turn": 0', '"turn": -0', 1).replace('"turn":0', '"turn":-0', 1),
        text.replace('"turn": 1', '"turn": 01', 1).replace('"turn":1', '"turn":01', 1),
        text.replace('"nodes"', '"nod\\u0065s"', 1),
        text.replace('"nodes": [', '"nodes": [], "nodes": [', 1),
        text.replace('"root": ', '"root": 0, "root": ', 1),
        text.replace('"hands"', '"hands": ["3", "4"], "hands"', 2),
        text.replace('"standard"', '"standard\\u00e9"', 1),
        text.replace('"winner"', '"note": "\u5927\u738b", "winner"', 1),
        text.replace('"winner"', '"note": NaN, "winner"', 1),
        text + " x",
        text + "\n",
        text[:-2],
        text.replace("\n", "\r\n\t "),
        text.replace("{", "{ ").replace(":", " : ").replace(",", " ,"),
        text.replace('"next": null', '"next": nul', 1).replace('"next":null', '"next":nul', 1),
        text.replace("R", "\u5927\u738b", 1),
        text.replace('"B', '"BJ', 1),
        text.replace('"cards": "pass"', '"cards": "pass", "kind": "single", "rank": "3"', 1),
        json.dumps({**document, "nodes": document["nodes"] + [{"hands": ["3", "4"]}]}),
        json.dumps({**document, "extra": [[[[[[[[1]]]]]]]]}),
        json.dumps({**document, "stats": {"deep": json.loads("[" * 70 + "]" * 70)}}),
        json.dumps({**document, "root": 10**12}),
        json.dumps({**document, "root": len(document["nodes"])}),
        json.dumps({**document, "winner": 1 - document["winner"]}),
        json.dumps({**document, "winner": 2}),
        json.dumps(document["nodes"]),
        json.dumps({"format": "cpsolver-strategy"}),
        # Two lists of nodes: json.loads keeps the last, so a reader keeping the first would walk
        # another proof; and a key spelled with an escape is "nodes" too.
        text[: text.rindex("}")] + ', "nodes": ' + json.dumps(document["nodes"][:1]) + "}",
        text[: text.rindex("}")] + ', "nod\\u0065s": ' + json.dumps(document["nodes"][:1]) + "}",
    ]
    # BJ reads as the black joker: a hand written with B before J is no B and J.
    for hand in {h for n in document["nodes"] for h in n["hands"] if "B" in h and "J" in h}:
        moved = hand.replace("B", "").replace("J", "BJ", 1)
        swaps.append(text.replace(f'"{hand}"', f'"{moved}"'))
    return [t for t in swaps if t != text]


@pytest.mark.parametrize("name", list(CASES))
def test_proofs_written_otherwise_get_the_python_checkers_answer(name: str) -> None:
    document, rules = proof(name)
    for text in (json.dumps(document), json.dumps(document, indent=1), as_written(document)):
        assert _agree(text, rules)
        for other in _texts(text):
            _agree(other, rules)


def test_a_proof_for_another_position_or_under_other_rules_goes_the_python_way() -> None:
    document, rules = proof("the landlord wins")
    text = json.dumps(document)
    assert _agree(text, rules, "hand0: KKK25\nhand1: AA7\nhand2: QQQ36\nturn: 1\ntable: 5 by 0")
    assert not _agree(text, rules, "hand0: KKK25\nhand1: AA7\nhand2: QQQ36")
    for name in ("douzero", "rlcard"):
        assert not _agree(text, load_rules(name))


def test_the_readers_kind_names_and_hands_are_the_rules_cores() -> None:
    assert compiled._strategy is not None
    assert list(compiled._strategy.kinds) == [kind.value for kind in Kind]
    assert packed(Hand.parse("335B")) == 2 | 1 << 8 | 1 << 52


def _rich_positions(rules: RuleSet, count: int) -> list[Position]:
    """Positions where a hand holds the rocket and another a bomb, which random deals seldom give."""
    rng = random.Random(f"compiled checker rich {rules.name}")
    found = []
    while len(found) < count:
        players = rng.choice((2, 3))
        ranks = list(range(13))
        rng.shuffle(ranks)
        # The rocket and a bomb in one hand half the time: a quadplex may carry both jokers or not.
        hands = [[13, 14] + [ranks[0]] * 4] if rng.random() < 0.5 else [[13, 14], [ranks[0]] * 4]
        while len(hands) < players:
            hands.append([ranks[len(hands)]] * 4)
        deck = [r for r in ranks[3:] for _ in range(4)]
        rng.shuffle(deck)
        for hand in hands:
            hand += [deck.pop() for _ in range(rng.randint(1, 4))]
        rng.shuffle(hands)
        texts = ["".join("3456789TJQKA2BR"[r] for r in sorted(hand)) for hand in hands]
        found.append(Position.parse(texts, turn=rng.randrange(players), rules=rules))
    return found


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_proofs_with_rockets_and_bombs_pass_both(rules: RuleSet) -> None:
    for position in _rich_positions(rules, 30):
        text = strategy_proof_text(solve(position, rules), rules)
        quick = check_quickly(text, None, rules)
        failure, walked = check_strategy_walked(json.loads(text), position, rules)
        assert failure is None and quick is not None and quick[1] == walked, position


def _made_up(position: Position, winner: int, nodes: list[dict[str, Any]]) -> str:
    """A strategy with a real header and the nodes given: each breaks one rule by hand."""
    rules = standard_rules()
    document = build_strategy_proof(solve(position, rules), rules)
    return json.dumps({**document, "winner": winner, "root": 0, "nodes": nodes})


def _single(cards: str, following: int | None) -> dict[str, Any]:
    return {"cards": cards, "kind": "single", "rank": cards, "next": following}


LEAD = {"turn": 0, "table": None}
TWO = Position.parse(["3", "4"])
BROKEN = {
    "a pass for the only reply on lead": (
        TWO,
        1,
        [
            {"hands": ["3", "4"], **LEAD, "replies": [{"cards": "pass", "next": 1}]},
            {"hands": ["3", "4"], "turn": 1, "table": None, "move": _single("4", None)},
        ],
    ),
    "a spring over a table": (
        Position.parse(["4", "5"], turn=0, table="3", by=1),
        0,
        [
            {
                "hands": ["4", "5"],
                "turn": 0,
                "table": {"cards": "3", "kind": "single", "rank": "3", "by": 1},
                "spring": [{"cards": "4", "kind": "single", "rank": "4"}],
            }
        ],
    ),
    "the losing side goes out": (
        TWO,
        1,
        [{"hands": ["3", "4"], **LEAD, "replies": [_single("3", None)]}],
    ),
    "a move out of cards leads on": (
        TWO,
        0,
        [{"hands": ["3", "4"], **LEAD, "move": _single("3", 0)}],
    ),
    "the winner passes on lead": (
        TWO,
        0,
        [{"hands": ["3", "4"], **LEAD, "move": {"cards": "pass", "next": 0}}],
    ),
    "a pass listed on lead": (
        TWO,
        1,
        [
            {
                "hands": ["3", "4"],
                **LEAD,
                "replies": [_single("3", None), {"cards": "pass", "next": 0}],
            }
        ],
    ),
    "a spring that leaves cards": (
        Position.parse(["34", "2"]),
        0,
        [{"hands": ["34", "2"], **LEAD, "spring": [{"cards": "4", "kind": "single", "rank": "4"}]}],
    ),
    "a spring step answered": (
        Position.parse(["34", "2"]),
        0,
        [
            {
                "hands": ["34", "2"],
                **LEAD,
                "spring": [
                    {"cards": "3", "kind": "single", "rank": "3"},
                    {"cards": "4", "kind": "single", "rank": "4"},
                ],
            }
        ],
    ),
    "a node that says another hand made the play": (
        Position.parse(["34", "5"]),
        1,
        [
            {"hands": ["34", "5"], **LEAD, "replies": [_single("3", 1), _single("4", 2)]},
            {
                "hands": ["4", "5"],
                "turn": 1,
                "table": {"cards": "3", "kind": "single", "rank": "3", "by": 1},
                "move": _single("5", None),
            },
            {
                "hands": ["3", "5"],
                "turn": 1,
                "table": {"cards": "4", "kind": "single", "rank": "4", "by": 0},
                "move": _single("5", None),
            },
        ],
    ),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_proofs_broken_by_hand_are_refused_the_python_way(name: str) -> None:
    position, winner, nodes = BROKEN[name]
    text = _made_up(position, winner, nodes)
    assert check_quickly(text, None, standard_rules()) is None
    failure = _slow(text, None, standard_rules())[0]
    assert isinstance(failure, str) and failure.startswith("node")
    _agree(text, standard_rules())


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_the_checkers_moves_are_the_rules_cores(rules: RuleSet) -> None:
    """Every play of a hand and every answer to a play, against cpsolver.rules.movegen, on
    hands of every size, rockets, bombs and repeated kickers among them."""
    rng = random.Random(f"checker moves {rules.name}")
    moves = generator(rules)
    deck = [rank for rank in range(15) for _ in range(DECK_COUNTS[rank])]
    answered = 0
    # Planes and quadplexes beside both jokers: the rule "never both jokers as kickers".
    picked = ["333444BR", "333444555BR7", "3333BR", "33334444BR", "JJJQQQBR5", "TTTJJJQQQBR99"]
    for trial in range(300 + len(picked)):
        if trial < len(picked):
            hand = Hand.parse(picked[trial])
            cards = list(hand.ranks()) + rng.sample(list((Hand.deck() - hand).ranks()), 10)
        else:
            cards = rng.sample(deck, rng.randint(1, 40))
            hand = Hand.from_ranks(cards[: rng.randint(1, min(20, len(cards)))])
        rest = Hand.from_ranks(cards) - hand
        tables = (
            [None, *rng.sample(moves.plays(rest), min(3, len(moves.plays(rest))))]
            if rest
            else [None]
        )
        for table in tables:
            expected = moves.plays(hand) if table is None else moves.answers(hand, table)
            keys = [(packed(p.cards), KIND_ORDER[p.kind], p.rank, p.chain) for p in expected]
            assert sorted(checker_moves(hand, table, rules)) == sorted(keys), (hand, table)
            answered += table is not None and bool(expected)
    assert answered > 100


@pytest.mark.parametrize("name", list(CASES))
def test_texts_changed_a_character_at_a_time_get_the_python_checkers_answer(name: str) -> None:
    """The reader is hand-written: a character deleted, doubled or replaced anywhere (a quote,
    a bracket, a digit, a card) must never make it read what json.loads reads otherwise."""
    document, rules = proof(name)
    rng = random.Random(f"characters {name}")
    alphabet = '{}[]:,"\\ \n0123456789.-eE+nultrfasJKQBR3'
    for trial in range(600):
        text = as_written(document) if trial % 2 else json.dumps(document, separators=(",", ":"))
        at = rng.randrange(len(text))
        edit = rng.randrange(3)
        if edit == 0:
            changed = text[:at] + text[at + 1 :]
        elif edit == 1:
            changed = text[:at] + text[at] + text[at:]
        else:
            changed = text[:at] + rng.choice(alphabet) + text[at + 1 :]
        _agree(changed, rules)


def test_the_reader_of_pieces_takes_only_the_top_level_nodes() -> None:
    """A `"nodes": [` line inside another header value, holding a valid strategy's lines,
    while the document's own nodes say something else: never read as the proof."""
    document, rules = proof("the landlord wins")
    written = as_written(document)
    opened = written.index('  "nodes": [')
    nodes = written[opened:].removesuffix("\n}\n")
    for top in ([{}], document["nodes"][:1], []):
        forged = (
            written[:opened]
            + '  "stats": {\n'
            + nodes.replace("\n", "\n  ")
            + f'\n  }},\n  "nodes": {json.dumps(top)}\n}}\n'
        )
        assert json.loads(forged)["nodes"] == top
        assert check_pieces_quickly(_cut(forged.encode()), None, rules) is None
        _agree(forged, rules)


def test_the_reader_of_pieces_is_finished_before_it_walks() -> None:
    document, _ = proof("the landlord wins")
    nodes = compiled._strategy.reader()  # type: ignore[union-attr]
    assert nodes.feed(as_written(document).encode())
    with pytest.raises(ValueError, match="finish"):
        nodes.walk(*compiled._rules(standard_rules()), 0, 0, [0, 0], 0, None)
    assert nodes.finish() is not None
    with pytest.raises(ValueError, match="once"):
        nodes.finish()
    assert not nodes.feed(b"more")
