"""Puzzle packs: made at each grade, confirmed by the brute force and by every first move solved;
three hands and mid-trick too; the peers' notation read back; ``puzzle check`` re-verifies."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from endgame_reference import winning_moves

from cpsolver.analysis.puzzlepack import recheck
from cpsolver.analysis.puzzles import GRADES, Puzzle, greedy_order, make
from cpsolver.cli import cli
from cpsolver.endgame import solve
from cpsolver.game.bots import split_count
from cpsolver.io.notation import read_blocks
from cpsolver.io.positionformat import ENTRY_KEYS, position_from_dict
from cpsolver.rules.cards import Hand
from cpsolver.rules.movegen import generator
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules

RULES = standard_rules()
TWO = ((4, 7), (4, 7))
THREE = ((3, 5), (3, 5), (3, 5))


def _name(move: object) -> str:
    return "pass" if move is None else str(move)


def _every_first_move_solved(puzzle: Puzzle) -> dict[str, int]:
    """Each legal first move's winner, each by a fresh solve of the position it leads to."""
    position = puzzle.position
    mover = position.side_of(position.turn)
    found = {}
    for move in generator(RULES).moves(position.hands[position.turn], position.table):
        after = position.after(move)
        found[_name(move)] = mover if after is None else solve(after, RULES).winner
    return found


def _confirm(puzzle: Puzzle, least: str) -> None:
    position = puzzle.position
    brute = winning_moves(position.hands, position.turn, position.table, position.by, RULES)
    assert [_name(move) for move in brute] == puzzle.first_moves
    assert len(puzzle.first_moves) == 1 and len(puzzle.verdicts) > 1
    assert _every_first_move_solved(puzzle) == puzzle.verdicts
    assert GRADES.index(puzzle.grade) >= GRADES.index(least)


@pytest.mark.parametrize("least", ["easy", "medium", "hard"])
@pytest.mark.parametrize(
    ("sizes", "mid_trick"), [(TWO, 0.0), (TWO, 1.0), (THREE, 0.0), (THREE, 0.5)]
)
def test_fifty_puzzles_at_each_grade_have_one_winning_first_move(
    least: str, sizes: tuple[tuple[int, int], ...], mid_trick: float
) -> None:
    puzzles = [puzzle for _, puzzle in make(50, 1, sizes, least, mid_trick=mid_trick)]
    assert len(puzzles) == 50
    for puzzle in puzzles:
        _confirm(puzzle, least)
        assert len(puzzle.position.hands) == len(sizes)
    tables = sum(puzzle.position.table is not None for puzzle in puzzles)
    assert (tables == 50) if mid_trick == 1.0 else (tables < 50)


@pytest.mark.slow
@pytest.mark.parametrize("least", ["easy", "medium", "hard"])
def test_fifty_full_size_puzzles_at_each_grade_every_first_move_solved(least: str) -> None:
    for _, puzzle in make(50, 3, ((8, 13), (8, 13)), least):
        assert _every_first_move_solved(puzzle) == puzzle.verdicts
        assert list(puzzle.verdicts.values()).count(puzzle.position.side_of(0)) >= 0
        assert len(puzzle.first_moves) == 1


def test_the_greedy_order_is_fewest_plays_left_then_the_highest_card() -> None:
    position = Position.parse(["6722", "34"], turn=0)
    # after 22: 67 (2 plays); after 6 or 7: 2 plays too, lower cards; after 2: 672, 3 plays
    assert greedy_order(position) == ["22", "7", "6", "2"]
    on_table = Position.parse(["KK3", "5"], turn=0, table="4", by=1)
    assert greedy_order(on_table)[-1] == "pass" or greedy_order(on_table).index("pass") > 0
    assert split_count(Hand.parse("3 4 5 6 7 99 99")) == 2


def _run(*args: str, stdin: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["puzzle", *args], input=stdin)
    return result.exit_code, result.output


def _pack(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "pack.jsonl"
    code, said = _run(
        "make", "--count", "3", "--seed", "2", "--sizes", "4-7,4-7", *args, "-o", str(out)
    )
    assert code == 0, said
    return out


def test_a_pack_line_carries_its_solution_measures_and_a_proof_the_checker_takes(
    tmp_path: Path,
) -> None:
    out = _pack(tmp_path)
    for line in out.read_text().splitlines():
        entry = json.loads(line)
        puzzle = entry["puzzle"]
        assert {"grade", "first_move", "line", "verdicts", "nodes", "line_length", "traps"} <= set(
            puzzle
        )
        assert list(puzzle["verdicts"].values()).count(entry["expected"]["winner"]) == 1
        proof = zlib.decompress(base64.b64decode(puzzle["proof"]["zlib_base64"]))
        (tmp_path / "proof.json").write_bytes(proof)
        verified = CliRunner().invoke(cli, ["verify", str(tmp_path / "proof.json")])
        assert verified.exit_code == 0 and verified.output.startswith("valid"), verified.output
    code, said = _run("check", str(out))
    assert code == 0 and said.count(": ok: ") == 3, said


def test_proofs_in_a_folder_are_files_for_verify(tmp_path: Path) -> None:
    out = _pack(tmp_path, "--proofs", str(tmp_path / "proofs"))
    entry = json.loads(out.read_text().splitlines()[0])
    assert entry["puzzle"]["proof"] == {"file": f"proofs/{entry['id']}.json"}
    result = CliRunner().invoke(cli, ["verify", str(tmp_path / "proofs" / f"{entry['id']}.json")])
    assert result.exit_code == 0
    code, said = _run("check", str(out))
    assert code == 0 and said.count(": ok") == 3


def _forge(tmp_path: Path, edit: object) -> tuple[int, str]:
    """The pack with its first line edited; ``puzzle check`` on it."""
    out = _pack(tmp_path)
    lines = out.read_text().splitlines()
    entry = json.loads(lines[0])
    edit(entry)  # type: ignore[operator]
    lines[0] = json.dumps(entry)
    out.write_text("\n".join(lines) + "\n")
    return _run("check", str(out))


def _proof_of(entry: dict) -> dict:  # type: ignore[type-arg]
    return json.loads(zlib.decompress(base64.b64decode(entry["puzzle"]["proof"]["zlib_base64"])))


def _embed(entry: dict, proof: dict) -> None:  # type: ignore[type-arg]
    text = json.dumps(proof).encode()
    entry["puzzle"]["proof"] = {"zlib_base64": base64.b64encode(zlib.compress(text)).decode()}


def _forged_proof(entry: dict) -> None:  # type: ignore[type-arg]
    proof = _proof_of(entry)
    root = proof["nodes"][proof["root"]]
    other = next(m for m, w in entry["puzzle"]["verdicts"].items() if w != proof["winner"])
    root["move"] = {**root["move"], "cards": other}  # a losing first move passed off as the winner
    _embed(entry, proof)


def _wrong_grade(entry: dict) -> None:  # type: ignore[type-arg]
    entry["puzzle"]["grade"] = "expert"


def _second_winner(entry: dict) -> None:  # type: ignore[type-arg]
    entry["hands"] = ["KK3", "QQ4"]  # KK and 3 both win
    entry["turn"] = 0


def _proof_bomb(entry: dict) -> None:  # type: ignore[type-arg]
    # 200 KB that unpack to 200 MB of spaces: refused at the proof cap, never unpacked whole.
    bomb = zlib.compress(b" " * (200 << 20), 9)
    entry["puzzle"]["proof"] = {"zlib_base64": base64.b64encode(bomb).decode()}


def _proof_outside(entry: dict) -> None:  # type: ignore[type-arg]
    entry["puzzle"]["proof"] = {"file": "../../etc/passwd"}


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (_proof_bomb, "FAILED: unreadable proof: its embedded proof: unpacks to over the"),
        (_proof_outside, "FAILED: unreadable proof: its proof file '../../etc/passwd' is not in"),
        (_forged_proof, "FAILED: forged proof: "),
        (_wrong_grade, "FAILED: wrong grade: the line says expert"),
        (_second_winner, "FAILED: not sound: 3 winning first moves (3, K, KK)"),
    ],
)
def test_check_rejects_a_forged_pack_line_in_one_line(
    tmp_path: Path, edit: object, said: str
) -> None:
    code, output = _forge(tmp_path, edit)
    failed = [line for line in output.splitlines() if "FAILED" in line]
    assert code == 1 and len(failed) == 1 and said in failed[0], output
    assert output.count(": ok") == 2


def test_recheck_of_an_honest_line_walks_its_proof(tmp_path: Path) -> None:
    entry = json.loads(_pack(tmp_path).read_text().splitlines()[0])
    result = recheck(entry, RULES)
    assert result.problem is None and result.walked > 0


@pytest.mark.parametrize("notation", ["wz", "yunyan"])
def test_the_peers_notation_reads_back_as_the_pack(tmp_path: Path, notation: str) -> None:
    pack = _pack(tmp_path)
    code, written = _run(
        "make", "--count", "3", "--seed", "2", "--sizes", "4-7,4-7", "--notation", notation
    )
    assert code == 0
    positions = [
        (entry["id"], position_from_dict(entry, RULES, ENTRY_KEYS))
        for entry in map(json.loads, pack.read_text().splitlines())
    ]
    assert read_blocks(written, notation) == positions
    assert " 0\n" not in written and "T" not in written.replace("turn", "")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--sizes", "3,3,3", "--notation", "wz"], "--notation wz is for two hands on lead"),
        (
            ["--mid-trick", "0.5", "--notation", "yunyan"],
            "--notation yunyan is for two hands on lead",
        ),
        (["--notation", "chess"], "'chess' is not one of"),
        (["--mid-trick", "2"], "--mid-trick"),
        (["--sizes", "3,3,3,3"], "--sizes"),
    ],
)
def test_bad_make_flags_are_one_line_and_exit_2(args: list[str], said: str) -> None:
    code, output = _run("make", "--count", "1", *args)
    assert code == 2 and said in output, output
    assert len([line for line in output.splitlines() if line.startswith("Error")]) == 1


def test_check_of_a_pack_that_is_not_one_is_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"id": "x", "hands": ["KK", "3"], "turn": 0, "puzzle": {"proof": {"zlib_base64": "!!"}}}\n'
    )
    code, output = _run("check", str(bad))
    assert code == 1 and output.startswith(
        "x: FAILED: unreadable proof: its embedded proof does not decode"
    )
