"""Endgame puzzles: soundness and only moves checked against the brute force; make is seeded."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from endgame_reference import winning_moves

from cpsolver.analysis.puzzles import GRADES, PuzzleError, check, make
from cpsolver.cli import cli
from cpsolver.endgame import PASS
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.rules.ruleset import standard_rules

RULES = standard_rules()
SMALL = ((3, 6), (3, 6))


def _words(moves: list[Play | None]) -> set[str]:
    return {PASS if move is None else str(move) for move in moves}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_first_moves_and_only_moves_are_the_brute_forces(seed: int) -> None:
    puzzles = [puzzle for _, puzzle in make(6, seed, SMALL)]
    assert len(puzzles) == 6
    for puzzle in puzzles:
        position = puzzle.position
        first = winning_moves(position.hands, position.turn, position.table, position.by, RULES)
        assert _words(first) == set(puzzle.first_moves) and puzzle.sound
        winner = position.side_of(position.turn)
        only, current = [], position
        for index, (hand, move) in enumerate(puzzle.line):
            assert current is not None
            if current.side_of(hand) == winner:
                keep = winning_moves(current.hands, hand, current.table, current.by, RULES)
                if len(keep) == 1 and _has_choice(current):
                    only.append(index)
            current = current.after(None if move == PASS else Play.parse(move))
        assert only == puzzle.only_moves


def _has_choice(position: Position) -> bool:
    from endgame_reference import legal_moves

    return len(legal_moves(position.hands[position.turn], position.table, RULES)) > 1


def test_level_50_is_a_sound_expert_puzzle() -> None:
    puzzle = check(Position.parse(["RAQQJJT999844", "B22AAT886633"]))
    assert (puzzle.sound, puzzle.first_moves, puzzle.grade) == (True, ["8"], "expert")
    assert puzzle.only_moves[0] == 0  # the first move is one of them


def test_make_is_seeded_and_keeps_the_grade_asked() -> None:
    first = [(draw, p.as_dict()) for draw, p in make(4, 7, SMALL, "medium")]
    assert first == [(draw, p.as_dict()) for draw, p in make(4, 7, SMALL, "medium")]
    assert all(GRADES.index(p["grade"]) >= 1 and p["sound"] for _, p in first)


def test_a_lost_position_is_no_puzzle() -> None:
    with pytest.raises(PuzzleError, match="the side to move loses"):
        check(Position.parse(["KK 5", "AA"]))


def _cli(*args: str, stdin: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["puzzle", *args], input=stdin)
    return result.exit_code, result.output


def test_made_puzzles_are_position_lines_every_reader_takes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "puzzles.jsonl"
    code, _ = _cli("make", "--count", "3", "--seed", "2", "--sizes", "4-7,4-7", "-o", str(out))
    assert code == 0
    for line in out.read_text().splitlines():
        entry = json.loads(line)
        code, said = _cli("check", "-", "--json", stdin=line)
        assert code == 0 and json.loads(said)["grade"] == entry["puzzle"]["grade"]
        result = CliRunner().invoke(cli, ["endgame", "-"], input=line)
        assert result.exit_code == 0 and "(agrees)" in result.output


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["check", "--hand", "KK 5", "--hand", "AA"], 2, "the side to move loses"),
        (["check", "--hand", "KK 3", "--hand", "4"], 1, "not sound: several winning first moves"),
        (["make", "--sizes", "3,3,3,3"], 2, "--sizes"),
        (["make", "--count", "2", "--tries", "1", "--sizes", "1,1"], 1, "made "),
    ],
)
def test_the_command_says_what_it_found_or_what_is_wrong(
    args: list[str], code: int, said: str
) -> None:
    got, output = _cli(*args)
    assert got == code and said in output, output


def test_counting_the_only_moves_keeps_to_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reading the strategy out lifts the search's deadline; the walk that counts the only
    # moves searches every reply on the line, so it must put the deadline back (a draw of
    # 8-13 cards searched for minutes past its 10 s), and lift it again for the proof.
    from cpsolver.endgame.tree import OutOfTime, Tree

    seen: list[tuple[float | None, bool]] = []
    original = Tree.winning_moves

    def watched(self: Tree, state: object) -> object:
        seen.append((self.deadline, self.memory.may_stop))
        return original(self, state)  # type: ignore[arg-type]

    monkeypatch.setattr(Tree, "winning_moves", watched)
    puzzle = check(Position.parse(["RAQQJJT999844", "B22AAT886633"]), time_limit=30.0)
    assert seen and all(deadline is not None and stops for deadline, stops in seen)
    assert puzzle.result is not None and puzzle.result.strategy is not None
    search = puzzle.result.strategy.search
    assert search.deadline is None and not search.memory.may_stop

    calls: list[object] = []

    def out_of_time(self: Tree, state: object) -> object:
        calls.append(state)
        if len(calls) > 1:  # the first is the solve's own, for every winning first move
            raise OutOfTime
        return original(self, state)  # type: ignore[arg-type]

    monkeypatch.setattr(Tree, "winning_moves", out_of_time)
    with pytest.raises(PuzzleError, match="no grade within the time limit"):
        check(Position.parse(["RAQQJJT999844", "B22AAT886633"]), time_limit=30.0)
