"""The command line, driven through click's CliRunner: output, JSON, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cpsolver.cli import cli


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_classify_a_play() -> None:
    code, out, _ = run("classify", "777888 T J")
    assert (code, out) == (0, "777888TJ: triplet_sequence_singles, rank 8, 2 triplets\n")


def test_classify_json() -> None:
    code, out, _ = run("classify", "777888TJ", "--json")
    assert code == 0
    assert json.loads(out) == {
        "cards": "777888TJ",
        "kind": "triplet_sequence_singles",
        "rank": "8",
        "shape": {"triplets": 2},
    }


def test_classify_no_play_exits_1_with_the_reason() -> None:
    code, out, _ = run("classify", "777888 3 3")
    assert (code, out) == (
        1,
        "33777888: no play: kickers of a triplet sequence must be distinct ranks\n",
    )
    code, out, _ = run("classify", "JQKA2", "--json")
    assert code == 1
    assert json.loads(out) == {
        "cards": "JQKA2",
        "error": "a sequence stays within 3..A: no 2s or jokers",
    }


def test_plays_lists_every_play_sorted() -> None:
    code, out, err = run("plays", "3BR")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["3", "B", "R", "BR"]
    assert err == "4 plays\n"


def test_plays_json_kind_filter() -> None:
    code, out, _ = run("plays", "333444 5 6", "--kind", "triplet_sequence_singles", "--json")
    assert code == 0
    assert json.loads(out) == [
        {
            "cards": "33344456",
            "kind": "triplet_sequence_singles",
            "rank": "4",
            "shape": {"triplets": 2},
        },
    ]


def test_plays_beats() -> None:
    code, out, _ = run("plays", "KKK 2 99 3", "--beats", "QQQ A", "--json")
    assert code == 0
    assert [p["cards"] for p in json.loads(out)] == ["3KKK", "9KKK", "KKK2"]
    code, out, err = run("plays", "345", "--beats", "2")
    assert (code, out, err) == (1, "", "0 answers\n")


def test_cards_from_stdin_and_from_a_file(tmp_path: Path) -> None:
    assert run("classify", "-", input="b r\n")[1] == "BR: rocket, rank R\n"
    path = tmp_path / "hand.txt"
    path.write_text("3 3\n")
    assert run("plays", f"@{path}", "--json")[1].count('"cards"') == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["classify", "33Z"], "Error: unknown card symbol 'Z' at position 3\n"),
        (["plays", "99999"], "Error: five 9s in one hand\n"),
        (
            ["plays", "345", "--beats", "34"],
            "Error: 34: two cards of different ranks (a pair is one rank; B+R is the rocket)\n",
        ),
        (
            ["plays", "345", "--rules", "nope"],
            "Error: no rule set named 'nope' and no such file (bundled: standard)\n",
        ),
        (
            ["plays", "@/no/such/file"],
            "Error: cannot read /no/such/file: No such file or directory\n",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert (code, out, err) == (2, "", message)


def test_bad_rules_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\n')
    code, out, err = run("plays", "3", "--rules", str(path))
    assert (code, out) == (2, "")
    assert err == f"Error: {path}: missing field 'description'\n"


def test_unknown_kind_is_a_usage_error() -> None:
    code, _, err = run("plays", "33", "--kind", "pairs")
    assert code == 2 and "Invalid value for '--kind'" in err


def test_every_command_has_help_with_an_example() -> None:
    assert isinstance(cli, click.Group)
    for name in cli.commands:
        code, out, _ = run(name, "--help")
        assert code == 0
        assert "Example" in out, name
        assert "--json" in out, name


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and "version" in out
