"""The hand flags are one family on every command: the three seats, or --hand in turn order.

Each command given a deal or position by either family answers as it does
given the same hands in a file, on stdin, or as a corpus line; mixing the
families, a flag with a file, an empty hand or a wrong number of hands is one
line and exit 2. ``endgame`` draws its position (--svg, --html) and echoes a
corpus line's id and expected winner.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.io.dealformat import deal_as_dict, deal_as_text
from cpsolver.io.dealgen import generate as deals
from cpsolver.io.positioncorpus import position_entry_as_dict
from cpsolver.io.positionformat import position_as_dict, position_as_text
from cpsolver.io.positiongen import generate as positions
from cpsolver.rules.cards import Deal
from cpsolver.rules.position import Position

# Small hands, so that every command (the open-hand search too) answers at once.
SMALL = ((1, 6), (1, 6), (1, 6))
DEALS = [entry.deal for entry in deals("endgame", 6, seed=11, sizes=SMALL)]
FULL = [entry.deal for entry in deals("full", 3, seed=5)]
POSITIONS = [entry for entry in positions("position3", 6, seed=4, sizes=SMALL)]
TWO = [entry for entry in positions("position2", 4, seed=4, sizes=((1, 6), (1, 6)))]


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of a command; a traceback fails the test."""
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def seats(deal: Deal) -> list[str]:
    """``--landlord A --peasant1 B --peasant2 C``."""
    names = ("--landlord", "--peasant1", "--peasant2")
    return [part for name, hand in zip(names, deal.hands) for part in (name, str(hand))]


def hand_flags(hands: Any) -> list[str]:
    """``--hand A --hand B ...``, in turn order."""
    return [part for hand in hands for part in ("--hand", str(hand))]


def position_flags(position: Position) -> list[str]:
    """The flags of a position: its hands, turn and table."""
    flags = [*hand_flags(position.hands), "--turn", str(position.turn)]
    if position.table is not None:
        flags += ["--table", str(position.table), "--by", str(position.by)]
    return flags


def answer(out: str) -> dict[str, Any]:
    """The JSON answer without what changes from run to run: the times, the search's statistics."""
    found = json.loads(out)
    found.pop("stats", None)
    return dict(_timeless(found))


def _timeless(value: Any) -> Any:
    """A JSON value with every ``seconds`` field left out, at any depth."""
    if isinstance(value, dict):
        return {key: _timeless(item) for key, item in value.items() if key != "seconds"}
    if isinstance(value, list):
        return [_timeless(item) for item in value]
    return value


def one_line_error(code: int, out: str, err: str) -> str:
    """The message of a one-line usage or input error (exit 2, nothing on stdout)."""
    assert (code, out) == (2, ""), (code, out, err)
    assert err.count("\n") == 1 and err.startswith("Error: "), err
    return err[len("Error: ") : -1]


# --- the same answer from either family, a file, stdin and a corpus line -------------------------


@pytest.mark.parametrize("deal", DEALS + FULL, ids=str)
def test_solve_answers_alike_from_each_family_a_file_and_stdin(deal: Deal, tmp_path: Path) -> None:
    text = tmp_path / "deal.txt"
    text.write_text(deal_as_text(deal))
    line = json.dumps({"id": "d", **deal_as_dict(deal)})
    position = json.dumps({"hands": [str(hand) for hand in deal.hands]})
    from_file = invoke("solve", str(text), "--json")
    assert from_file[0] in (0, 1)
    expected = answer(from_file[1])
    for args, stdin in (
        (seats(deal), None),
        (hand_flags(deal.hands), None),
        (["-"], deal_as_text(deal)),
        (["-"], position),
    ):
        code, out, _ = invoke("solve", *args, "--json", input=stdin)
        assert (code, answer(out)) == (from_file[0], expected), args
    code, out, _ = invoke("solve", "-", "--json", input=line)
    assert (code, answer(out)) == (from_file[0], {"id": "d", **expected})


@pytest.mark.parametrize("deal", DEALS[:3] + FULL[:1], ids=str)
def test_explain_answers_alike_and_echoes_a_corpus_line_id(deal: Deal, tmp_path: Path) -> None:
    text = tmp_path / "deal.txt"
    text.write_text(deal_as_text(deal))
    code, out, _ = invoke("explain", str(text), "--json")
    expected = answer(out)
    for args in (seats(deal), hand_flags(deal.hands)):
        found = invoke("explain", *args, "--json")
        assert (found[0], answer(found[1])) == (code, expected)
    verdict = "spring" if code == 0 else "no_spring"
    line = json.dumps({"id": "e7", **deal_as_dict(deal), "expected": verdict})
    labelled = invoke("explain", "-", "--json", input=line)
    assert (labelled[0], answer(labelled[1])) == (
        code,
        {"id": "e7", "expected": verdict, **expected},
    )
    shown = invoke("explain", "-", input=line)
    assert shown[1].startswith("deal e7\n") and shown[2] == ""
    wrong = "no_spring" if code == 0 else "spring"
    line = json.dumps({"id": "e7", **deal_as_dict(deal), "expected": wrong})
    assert f"expected {wrong}, but the verdict is" in invoke("explain", "-", input=line)[2]


@pytest.mark.parametrize("entry", POSITIONS + TWO, ids=lambda entry: entry.id)
def test_endgame_answers_alike_from_each_family_a_file_and_stdin(
    entry: Any, tmp_path: Path
) -> None:
    position = entry.position
    text = tmp_path / "position.txt"
    text.write_text(position_as_text(position))
    code, out, _ = invoke("endgame", str(text), "--json")
    assert code in (0, 1)
    expected = answer(out)
    variants: list[tuple[list[str], str | None]] = [
        (position_flags(position), None),
        (["-"], json.dumps(position_as_dict(position))),
    ]
    if position.players == 3:
        table = (
            []
            if position.table is None
            else ["--table", str(position.table), "--by", str(position.by)]
        )
        variants.append(
            ([*seats(Deal(*position.hands)), "--turn", str(position.turn), *table], None)
        )
    for args, stdin in variants:
        found = invoke("endgame", *args, "--json", input=stdin)
        assert (found[0], answer(found[1])) == (code, expected), args


@pytest.mark.parametrize("deal", DEALS, ids=str)
def test_endgame_takes_the_seats_as_the_landlord_to_lead(deal: Deal) -> None:
    code, out, _ = invoke("endgame", *seats(deal), "--json")
    from_deal = invoke("endgame", "-", "--json", input=json.dumps(deal_as_dict(deal)))
    assert (code, answer(out)) == (from_deal[0], answer(from_deal[1]))
    assert (code, answer(out)) == (
        invoke("endgame", *hand_flags(deal.hands), "--json")[0],
        answer(invoke("endgame", *hand_flags(deal.hands), "--json")[1]),
    )


@pytest.mark.parametrize("deal", DEALS[:3], ids=str)
def test_show_draws_the_flags_as_their_file(deal: Deal, tmp_path: Path) -> None:
    text = tmp_path / "deal.txt"
    text.write_text(deal_as_text(deal))
    drawn = invoke("show", str(text), "--solve", "--json")
    assert drawn[0] == 0
    flagged = invoke("show", *seats(deal), "--solve", "--json")
    assert (flagged[0], answer(flagged[1])) == (drawn[0], answer(drawn[1]))
    # --hand gives a position, as a file of hand0: lines does.
    position = tmp_path / "position.txt"
    position.write_text(position_as_text(Position.from_deal(deal)))
    as_position = invoke("show", str(position), "--json")
    assert json.loads(as_position[1])["what"] == "position"
    assert invoke("show", *hand_flags(deal.hands), "--json")[:2] == as_position[:2]


@pytest.mark.parametrize("entry", POSITIONS[:3] + TWO[:2], ids=lambda entry: entry.id)
def test_show_draws_a_position_from_flags_a_file_and_a_corpus_line(entry: Any) -> None:
    line = json.dumps(position_entry_as_dict(entry))
    drawn = invoke("show", "-", "--json", input=line)
    assert drawn[0] == 0
    assert invoke("show", *position_flags(entry.position), "--json")[:2] == drawn[:2]


@pytest.mark.parametrize("deal", DEALS[:4], ids=str)
def test_odds_reads_hand_landlord_a_deal_file_and_a_corpus_line(deal: Deal, tmp_path: Path) -> None:
    peasants = deal.peasant1 + deal.peasant2
    sizes = f"{len(deal.peasant1)},{len(deal.peasant2)}"
    base = ["--unseen", str(peasants), "--peasant-sizes", sizes, "--json", "--quiet"]
    code, out, _ = invoke("odds", str(deal.landlord), *base)
    assert code in (0, 1)
    expected = answer(out)
    assert answer(invoke("odds", "--landlord", str(deal.landlord), *base)[1]) == expected
    # A deal says the unseen cards and how they are dealt: the peasants' hands.
    text = tmp_path / "deal.txt"
    text.write_text(deal_as_text(deal))
    for args, stdin in (
        ([str(text)], None),
        ([f"@{text}"], None),
        (["--landlord", str(text)], None),
    ):
        found = invoke("odds", *args, "--json", "--quiet", input=stdin)
        assert (found[0], answer(found[1])) == (code, expected), args
    line = json.dumps({"id": "o1", **deal_as_dict(deal)})
    found = invoke("odds", "-", "--json", "--quiet", input=line)
    assert (found[0], answer(found[1])) == (code, {"id": "o1", **expected})
    cards = tmp_path / "hand.txt"
    cards.write_text(f"# the landlord's hand\n{deal.landlord}\n")
    assert answer(invoke("odds", f"@{cards}", *base)[1]) == expected


# --- one-line usage errors ------------------------------------------------------------------------

DEAL_COMMANDS = ["solve", "explain", "export-cnf"]
MIXED = ["--landlord", "3", "--peasant1", "4", "--peasant2", "5", "--hand", "6"]


@pytest.mark.parametrize("command", [*DEAL_COMMANDS, "endgame", "show"])
def test_mixing_the_families_is_one_line(command: str) -> None:
    message = one_line_error(*invoke(command, *MIXED))
    assert (
        message == "give --landlord, --peasant1 and --peasant2, or --hand in turn order, not both"
    )


@pytest.mark.parametrize("command", [*DEAL_COMMANDS, "endgame", "show"])
@pytest.mark.parametrize("flags", [["--landlord", "3"], ["--hand", "3"]])
def test_a_flag_with_a_file_is_one_line(command: str, flags: list[str], tmp_path: Path) -> None:
    deal = tmp_path / "deal.txt"
    deal.write_text(deal_as_text(DEALS[0]))
    message = one_line_error(*invoke(command, str(deal), *flags))
    assert message.startswith("give a ") and message.endswith(", not both")
    assert "--landlord" in message and "--hand" in message


@pytest.mark.parametrize("command", [*DEAL_COMMANDS, "endgame", "show"])
@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--landlord", "3", "--peasant1", "", "--peasant2", "5"], "--peasant1"),
        (["--landlord", "", "--peasant1", "4", "--peasant2", "5"], "--landlord"),
        (["--hand", "3", "--hand", "4", "--hand", ""], "--hand #3"),
    ],
)
def test_an_empty_hand_says_which(command: str, flags: list[str], named: str) -> None:
    assert one_line_error(*invoke(command, *flags)) == f"{named}: no cards given"


def test_an_empty_hand_from_stdin_says_which_and_where() -> None:
    code, out, err = invoke("endgame", "--hand", "3", "--hand", "-", input="# nothing\n")
    assert one_line_error(code, out, err) == "--hand #2: stdin: no cards given"


@pytest.mark.parametrize(
    ("command", "count", "message"),
    [
        ("solve", 2, "give --hand three times (in turn order), not 2"),
        ("explain", 4, "give --hand three times (in turn order), not 4"),
        ("export-cnf", 1, "give --hand three times (in turn order), not 1"),
        ("endgame", 1, "give --hand two or three times (in turn order), not 1"),
        ("endgame", 4, "give --hand two or three times (in turn order), not 4"),
        ("show", 1, "give --hand two or three times (in turn order), not 1"),
    ],
)
def test_a_wrong_number_of_hands_is_one_line(command: str, count: int, message: str) -> None:
    flags = hand_flags(["3", "4", "5", "6"][:count])
    assert one_line_error(*invoke(command, *flags)) == message


@pytest.mark.parametrize("command", [*DEAL_COMMANDS, "endgame", "show"])
def test_a_missing_seat_is_one_line(command: str) -> None:
    message = one_line_error(*invoke(command, "--landlord", "3", "--peasant2", "5"))
    assert message == "give all of --landlord, --peasant1, --peasant2 (no --peasant1)"


@pytest.mark.parametrize("command", [*DEAL_COMMANDS, "endgame", "show"])
def test_nothing_at_all_is_one_line_that_names_both_families(command: str) -> None:
    message = one_line_error(*invoke(command))
    assert "--landlord" in message and "--hand" in message and "- for stdin" in message


def test_odds_refuses_hand_and_landlord_together_and_neither() -> None:
    assert one_line_error(*invoke("odds", "KQ", "--landlord", "KQ")) == (
        "give the landlord's HAND or --landlord, not both"
    )
    assert one_line_error(*invoke("odds")) == "give the landlord's HAND (or --landlord CARDS)"
    assert one_line_error(*invoke("odds", "--landlord", "")) == "--landlord: no cards given"


@pytest.mark.parametrize("command", ["solve", "explain", "odds"])
def test_a_position_that_is_no_deal_is_one_line(command: str) -> None:
    line = json.dumps({"hands": ["3", "4", "5"], "turn": 1, "table": None})
    message = one_line_error(*invoke(command, "-", input=line))
    assert message.startswith("stdin: a deal is three hands with the landlord (hand 0) to lead")


@pytest.mark.parametrize("command", ["solve", "explain", "odds", "endgame", "show"])
@pytest.mark.parametrize(
    "stdin",
    ["", "{", '{"landlord": "3"}', "[1]", "landlord: 3Z\npeasant1: 4\npeasant2: 5\n", "\x00\xff"],
)
def test_bad_input_on_stdin_is_one_line_on_every_command(command: str, stdin: str) -> None:
    code, out, err = invoke(command, "-", input=stdin)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("Error: ")


# --- endgame: pictures, and a corpus line's id and expected winner --------------------------------


@pytest.mark.parametrize("entry", POSITIONS[:3] + TWO[:2], ids=lambda entry: entry.id)
def test_endgame_writes_the_position_as_svg_and_html(entry: Any, tmp_path: Path) -> None:
    svg, html = tmp_path / "position.svg", tmp_path / "position.html"
    code, out, _ = invoke(
        "endgame", *position_flags(entry.position), "--svg", str(svg), "--html", str(html)
    )
    assert code in (0, 1)
    root = ET.fromstring(svg.read_text())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    verdict = out.splitlines()[1 if entry.position.table is not None else 0]
    assert verdict in page and "a line of best play:" in page


def test_endgame_echoes_a_corpus_line_id_and_whether_it_agrees() -> None:
    entry = POSITIONS[0]
    line = position_entry_as_dict(entry)
    code, out, _ = invoke("endgame", "-", "--json", input=json.dumps(line))
    winner = json.loads(out)["winner"]
    assert json.loads(out)["id"] == entry.id and "expected" not in json.loads(out)
    text = invoke("endgame", "-", input=json.dumps(line))[1]
    assert text.startswith(f"id: {entry.id}\n") and "expected" not in text
    for expected, verdict in ((winner, "(agrees)"), (1 - winner, ", but ")):
        labelled = json.dumps({**line, "expected": {"winner": expected}})
        found = invoke("endgame", "-", "--json", input=labelled)
        assert found[0] == code and json.loads(found[1])["expected"] == {"winner": expected}
        assert (", but " in found[2]) == (expected != winner)
        text = invoke("endgame", "-", input=labelled)[1]
        assert text.startswith(f"id: {entry.id}\n")
        said = next(line for line in text.splitlines() if line.startswith("expected: "))
        assert verdict in said


def test_endgame_echoes_the_table_after_the_id() -> None:
    entry = next(entry for entry in POSITIONS + TWO if entry.position.table is not None)
    text = invoke("endgame", "-", input=json.dumps(position_entry_as_dict(entry)))[1]
    lines = text.splitlines()
    assert lines[0] == f"id: {entry.id}" and lines[1].startswith("on the table: ")


def test_endgame_reads_a_deal_line_with_its_spring_label() -> None:
    deal = DEALS[0]
    line = json.dumps({"id": "d0", **deal_as_dict(deal), "expected": "spring"})
    found = json.loads(invoke("endgame", "-", "--json", input=line)[1])
    assert found["id"] == "d0" and found["expected"] == {"winner": 0}
    unlabelled = json.dumps({"id": "d0", **deal_as_dict(deal), "expected": "no_spring"})
    assert "expected" not in json.loads(invoke("endgame", "-", "--json", input=unlabelled)[1])
