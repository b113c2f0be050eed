"""``cpsolver endgame`` and ``cpsolver verify`` of strategies, as a user drives them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli

EXAMPLES = Path(__file__).parent.parent / "examples"


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_level_50_from_its_file() -> None:
    code, out, _ = run("endgame", str(EXAMPLES / "level50.txt"))
    assert code == 0
    assert out.startswith(
        "the first player (hand 0) wins: hand 0 to move wins with 8\na line of best play:\n"
    )
    assert "   1. hand 0  8\n" in out


def test_json_contract() -> None:
    code, out, _ = run("endgame", "--hand", "KK 3", "--hand", "QQ 4", "--all", "--json")
    assert code == 0
    found = json.loads(out)
    assert found["winner"] == 0
    assert sorted(found["moves"]) == ["3", "K", "KK"]
    assert found["line"][0]["hand"] == 0
    assert {"nodes", "table", "seconds"} <= set(found["stats"])


def test_the_side_to_move_losing_exits_1_with_no_moves() -> None:
    code, out, _ = run("endgame", "--hand", "KK 5", "--hand", "AA", "--json")
    assert code == 1
    assert json.loads(out)["moves"] == [] and json.loads(out)["winner"] == 1


def test_three_players_mid_trick_from_stdin() -> None:
    text = (EXAMPLES / "position3.json").read_text()
    code, out, _ = run("endgame", "-", input=text)
    assert code == 1
    table = json.loads(text)["table"]
    first, second = out.splitlines()[:2]
    assert (
        first
        == f"on the table: {table['cards']} by "
        + ("landlord", "peasant 1", "peasant 2")[table["by"]]
    )
    assert second.startswith("the landlord wins: peasant 1 to move loses, whatever it plays")


def test_a_deal_file_is_a_position() -> None:
    code, out, _ = run("endgame", str(EXAMPLES / "endgame.txt"), "--json")
    assert code in (0, 1)
    assert json.loads(out)["winner"] in (0, 1)


def test_flags_with_a_table_play() -> None:
    code, out, _ = run(
        "endgame", "--hand", "9 TT", "--hand", "JJ 3", "--hand", "44 A", "--turn", "1",
        "--table", "8", "--by", "0", "--json",
    )  # fmt: skip
    assert code in (0, 1)
    assert json.loads(out)["line"][0]["hand"] == 1


def test_time_limit_gives_unknown_and_exit_3() -> None:
    code, out, _ = run("endgame", str(EXAMPLES / "level50.txt"), "--timeout", "1e-9", "--json")
    assert code == 3
    assert json.loads(out)["winner"] is None


def test_proof_round_trip_through_verify(tmp_path: Path) -> None:
    proof = tmp_path / "strategy.json"
    code, _, _ = run("endgame", str(EXAMPLES / "level50.txt"), "--proof", str(proof))
    assert code == 0
    code, out, _ = run("verify", str(proof))
    assert (code, out.split(":")[0]) == (0, "valid")
    code, out, _ = run("verify", str(EXAMPLES / "level50.txt"), str(proof), "--json")
    assert code == 0 and json.loads(out) == {
        "valid": True,
        "failure": None,
        "winner": 0,
        "nodes": json.loads(proof.read_text())["nodes"].__len__(),
    }
    code, out, _ = run("verify", str(EXAMPLES / "position3.json"), str(proof))
    assert code == 1 and "another position" in out


def test_tampered_proof_is_invalid(tmp_path: Path) -> None:
    proof = tmp_path / "strategy.json"
    run("endgame", "--hand", "KK5543", "--hand", "225543", "--proof", str(proof))
    document = json.loads(proof.read_text())
    replies = next(node for node in document["nodes"] if "replies" in node)["replies"]
    replies.pop()
    proof.write_text(json.dumps(document))
    code, out, _ = run("verify", str(proof))
    assert code == 1 and out.startswith("invalid: node ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hand", "33"], "give --hand two or three times (in turn order), not 1"),
        (["--hand", "33", "--hand", "3Z"], "hand 1: unknown card symbol 'Z' at position 2"),
        (["--hand", "33", "--hand", "44", "--table", "5"], "--table and --by go together"),
        (["--hand", "33", "--hand", "44", "--turn", "2"], "turn 2: there is no hand 2"),
        (["--hand", "3", "--hand", "4", "--turn", "1", "--table", "56", "--by", "0"], "56:"),
        (["--hand", "33", "--hand", "44", "--timeout", "nan"], "is not a positive number"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = run("endgame", *args)
    assert code == 2
    assert message in err
    assert out == ""


def test_bad_files_are_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"hands": ["3"], "turn": 0}')
    code, _, err = run("endgame", str(bad))
    assert code == 2 and "a position has two or three hands, not 1" in err
    code, _, err = run("endgame", str(tmp_path / "missing.txt"))
    assert code == 2 and "cannot read" in err
    code, _, err = run("endgame", str(bad), "--hand", "3")
    assert code == 2 and "not both" in err


def test_a_corpus_line_from_deal_pipes_into_endgame() -> None:
    import subprocess
    import sys

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "cpsolver", *args]
        return subprocess.run(command, input=stdin, capture_output=True, text=True, check=False)

    line = run("deal", "--kind", "position3", "--count", "1").stdout
    assert '"id"' in line
    done = run("endgame", "-", stdin=line)
    assert done.returncode in (0, 1) and "wins" in done.stdout, done.stderr
    labelled = line.rstrip().rstrip("}") + ', "expected": {"winner": 0}}'
    assert run("endgame", "-", stdin=labelled).returncode in (0, 1)
    deal = run("deal", "--count", "1").stdout
    # Read as the landlord to lead; whether 0.2 s decides it depends on the core.
    read = run("endgame", "-", "--timeout", "0.2", stdin=deal)
    assert read.returncode in (0, 1, 3) and not read.stderr, read.stderr
    bad = run("endgame", "-", stdin='{"id": "x", "hands": ["3", "4"], "foo": 1}')
    assert bad.returncode == 2
    assert bad.stderr == (
        "Error: stdin: a position line may not carry the key 'foo'; "
        "it may carry: hands, turn, table, id, expected, puzzle\n"
    )
