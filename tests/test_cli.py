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
            "Error: no rule set named 'nope' and no such file (bundled: douzero, rlcard, standard)\n",
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
    names = cli.list_commands(cli.make_context("cpsolver", [], resilient_parsing=True))
    assert len(names) >= 20  # every command, loaded or not
    for name in names:
        code, out, _ = run(name, "--help")
        assert code == 0
        assert "Example" in out, name
        assert "--json" in out or "JSON" in out.split("Options:")[0], name


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and "version" in out


EXAMPLES = Path(__file__).parents[1] / "examples"
SPRING_DEAL = EXAMPLES / "spring.txt"


def test_solve_a_spring_from_a_text_file() -> None:
    code, out, _ = run("solve", str(SPRING_DEAL))
    assert code == 0
    lines = out.splitlines()
    # The fewest plays of any spring plan: a triplet chain with its kickers, a quadplex.
    assert lines[0] == "spring: the landlord plays out alone in 3 plays"
    assert [line.split()[1] for line in lines[1:4]] == ["22", "333444555TJQ", "KAAAAR"]
    assert lines[4].startswith("(search/dfs: 216 plays, 160 safe plays, ")


def test_any_plan_is_the_first_spring_found() -> None:
    code, out, _ = run("solve", str(SPRING_DEAL), "--any-plan", "--engine", "cpsat")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "spring: the landlord plays out alone in 6 plays, the last one answerable"
    assert lines[6].split()[:2] == ["6.", "555"] and lines[6].endswith("<- answerable, played last")
    assert lines[7].startswith("(cpsat/eager: 40 options, 1 round, 1 cut, ")


def test_solve_json_from_a_json_file() -> None:
    code, out, _ = run(
        "solve", str(EXAMPLES / "spring.json"), "--json", "--engine", "cpsat", "--strategy", "lazy"
    )
    assert code == 0
    result = json.loads(out)
    assert result["verdict"] == "spring"
    assert [step["safe"] for step in result["plan"]][:-1] == [True] * (len(result["plan"]) - 1)
    assert set(result["plan"][0]) == {"cards", "kind", "rank", "shape", "safe"}
    assert result["stats"]["engine"] == "cpsat" and result["stats"]["strategy"] == "lazy"


def test_solve_no_spring_exits_1() -> None:
    code, out, _ = run("solve", str(EXAMPLES / "no_spring.txt"), "--json")
    assert code == 1
    assert json.loads(out)["verdict"] == "no_spring" and json.loads(out)["plan"] == []


def test_solve_from_stdin_and_from_options() -> None:
    deal = '{"landlord": "333444 5 7", "peasants": ["4", "5"]}'
    assert run("solve", "-", "--json", input=deal)[0] == 0
    assert run("solve", "-", input="landlord: KK 2\npeasant1: AA\npeasant2: B\n")[0] == 1
    code, out, _ = run(
        "solve", "--landlord", "KK 2", "--peasant1", "AA", "--peasant2", "3", "--json"
    )
    assert code == 0 and [s["cards"] for s in json.loads(out)["plan"]] == ["2", "KK"]


def test_solve_unknown_exits_3() -> None:
    code, out, _ = run("solve", str(SPRING_DEAL), "--time-limit", "0.000000001", "--json")
    assert code == 3 and json.loads(out)["verdict"] == "unknown"


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (
            ["--landlord", "3Z", "--peasant1", "4", "--peasant2", "5"],
            None,
            "Error: landlord: unknown card symbol 'Z' at position 2\n",
        ),
        (
            ["--landlord", "33", "--peasant1", "33", "--peasant2", "3"],
            None,
            "Error: five 3s across the deal\n",
        ),
        (
            ["--landlord", "3", "--peasant1", "", "--peasant2", "5"],
            None,
            "Error: --peasant1: no cards given\n",
        ),
        (["-"], '{"landlord": "3", "peasants": ["4"', "Error: stdin: broken JSON: "),
        (
            ["-"],
            '{"landlord": "3", "peasants": ["4"]}',
            "Error: stdin: a JSON deal needs 'peasants': a list of two strings of cards\n",
        ),
        (["-"], "landlord: 3\npeasant1: 4\n", "Error: stdin: no peasant2 line in the deal\n"),
        (
            ["-"],
            "landlord: 3\nfarmer: 4\n",
            "Error: stdin: line 2: expected 'landlord:', 'peasant1:' or 'peasant2:' and cards, got 'farmer: 4'\n",
        ),
        (["/no/such/deal"], None, "Error: cannot read /no/such/deal: No such file or directory\n"),
    ],
)
def test_solve_bad_input_is_one_line_and_exit_2(
    args: list[str], stdin: str | None, message: str
) -> None:
    code, out, err = run("solve", *args, input=stdin)
    assert code == 2 and out == ""
    assert err.startswith(message) if not message.endswith("\n") else err == message


def test_solve_without_a_deal_is_a_usage_error() -> None:
    code, out, err = run("solve", "--landlord", "3")
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == (
        "Error: give all of --landlord, --peasant1, --peasant2 (no --peasant1, --peasant2)"
    )
    code, _, err = run("solve")
    assert code == 2 and err.splitlines()[-1] == (
        "Error: give a DEAL file (or - for stdin), or all of --landlord, --peasant1, --peasant2 "
        "(or --hand three times, in turn order)"
    )
    code, _, err = run("solve", str(SPRING_DEAL), "--landlord", "3")
    assert (
        code == 2
        and err.splitlines()[-1]
        == "Error: give a DEAL file or --landlord/--peasant1/--peasant2 or --hand (in turn order), "
        "not both"
    )


def test_solve_writes_a_proof_that_verify_accepts(tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    assert run("solve", str(SPRING_DEAL), "--proof", str(proof))[0] == 0
    assert json.loads(proof.read_text())["format"] == "cpsolver-proof"
    code, out, _ = run("verify", str(proof))
    assert (code, out) == (0, "valid: a spring in 3 plays, every step checked\n")
    code, out, _ = run("verify", str(SPRING_DEAL), str(proof), "--json")
    assert code == 0
    assert json.loads(out) == {"valid": True, "failure": None, "verdict": "spring", "steps": 3}


def test_verify_rejects_a_tampered_proof_and_another_deal(tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    run("solve", str(SPRING_DEAL), "--proof", str(proof), "--engine", "cpsat", "--any-plan")
    document = json.loads(proof.read_text())
    document["plan"].insert(0, document["plan"].pop())
    proof.write_text(json.dumps(document))
    code, out, _ = run("verify", str(proof))
    assert (code, out) == (1, "invalid: step 1 (555): peasant 1 answers with 666\n")
    code, out, _ = run("verify", str(EXAMPLES / "no_spring.txt"), str(proof), "--json")
    assert code == 1 and json.loads(out)["failure"].startswith("the proof is for another deal")


def test_verify_unreadable_proofs_exit_2_and_malformed_ones_exit_1(tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    proof.write_text('{"format": "cpsolver-proof"')
    code, out, err = run("verify", str(proof))
    assert (code, out) == (2, "") and err.startswith(f"Error: {proof}: not a proof: broken JSON: ")
    proof.write_text("[1, 2]")
    code, _, err = run("verify", str(proof))
    assert (code, err) == (2, f"Error: {proof}: not a proof: a proof is a JSON object\n")
    code, _, err = run("verify", str(SPRING_DEAL))
    assert code == 2 and "this is a deal, not a proof, certificate or strategy" in err
    proof.write_text('{"format": "cpsolver-proof"}')
    code, out, _ = run("verify", str(proof))
    assert (code, out) == (1, "invalid: proof: 'version' is a required property\n")


def test_verify_a_step_that_is_no_hand(tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    run("solve", str(SPRING_DEAL), "--proof", str(proof))
    document = json.loads(proof.read_text())
    document["plan"][0]["cards"] = "33333"
    proof.write_text(json.dumps(document))
    code, out, _ = run("verify", str(proof))
    assert (code, out) == (1, "invalid: step 1 (33333): five 3s in one hand\n")


def test_verify_swapped_arguments_and_stdin_twice(tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    run("solve", str(SPRING_DEAL), "--proof", str(proof))
    code, _, err = run("verify", str(proof), str(SPRING_DEAL))
    assert code == 2 and err.splitlines()[-1] == "Error: give the DEAL first, then the PROOF"
    code, _, err = run("verify", "-", "-", input=proof.read_text())
    assert code == 2 and err.splitlines()[-1] == "Error: stdin (-) can be read only once"
    code, _, err = run(
        "solve", "--landlord", "-", "--peasant1", "-", "--peasant2", "5", input="333"
    )
    assert code == 2 and err.splitlines()[-1] == "Error: stdin (-) can be read only once"


def test_more_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    assert run("solve", str(deep))[0:3:2] == (
        2,
        f"Error: {deep}: JSON nested deeper than 64 levels\n",
    )
    code, _, err = run("solve", str(SPRING_DEAL), "--time-limit", "nan")
    assert code == 2 and "nan is not a positive number of seconds" in err
    code, _, err = run("solve", "-", input='{"landlord": "3", "peasants": ["4", "5"], "extra": 1}')
    assert (code, err) == (
        2,
        (
            "Error: stdin: a deal line may not carry the key 'extra'; "
            "it may carry: landlord, peasants, id, expected\n"
        ),
    )
    result = CliRunner().invoke(cli, ["solve", "-"], input=b"\xff\xfe landlord")
    assert (result.exit_code, result.stderr) == (2, "Error: stdin: line 1: not UTF-8 text\n")


def test_a_spring_under_rules_that_read_one_multiset_two_ways(tmp_path: Path) -> None:
    """The plan records its reading; the verifier checks that reading (review finding F1)."""
    standard = (Path(__file__).parents[1] / "models" / "standard.toml").read_text()
    loose = tmp_path / "loose.toml"
    loose.write_text(
        standard.replace('name = "standard"', 'name = "loose"').replace(
            "distinct = true", "distinct = false"
        )
    )
    proof = tmp_path / "proof.json"
    deal = ["--landlord", "333444555666", "--peasant1", "777888999TTTJJJ", "--peasant2", "2"]
    for engine in ("cpsat", "search"):
        code, _, _ = run(
            "solve", *deal, "--rules", str(loose), "--proof", str(proof), "--engine", engine
        )
        assert code == 0
        assert run("verify", str(proof), "--rules", str(loose))[0] == 0


def test_no_proof_is_written_for_an_unknown_verdict(tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    code, _, err = run("solve", str(SPRING_DEAL), "--proof", str(proof), "--time-limit", "1e-9")
    assert code == 3 and not proof.exists()
    assert err == "no proof written: the verdict is unknown\n"
