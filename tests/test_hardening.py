"""Every command's bad-input and bad-output paths: one line, the documented exit code, nothing lost.

Each defect of issue 12 (B1..B14 and the minor ones) has a test here that
failed before the reading and writing layers and passes now.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cli import cli
from cpsolver.scale.batch import lock_output

EXAMPLES = Path(__file__).parents[1] / "examples"
SPRING = str(EXAMPLES / "spring.txt")
HUGE = "1" * 5000
DEAL = {"landlord": "3", "peasants": ["4", "5"]}


def run(*args: str, input: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code: int, err: str, expected_code: int = 2) -> str:
    assert code == expected_code, err
    assert err.startswith("Error: ") and err.endswith("\n") and err.count("\n") == 1, err
    return err[len("Error: ") : -1]


def cpsolver(*args: str, stdin: bytes | None = None, timeout: float = 120) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "cpsolver", *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


# B1: integers of more than 4,300 digits; B2: nesting 5,000 deep.
@pytest.mark.parametrize(
    ("document", "message"),
    [
        ('{"landlord": "3", "peasants": ["4", "5"], "x": ' + HUGE + "}", "more than 4300 digits"),
        ("[" * 5000 + "]" * 5000, "nested deeper than 64 levels"),
    ],
)
@pytest.mark.parametrize("command", ["solve", "explain", "verify", "replay", "export-cnf"])
def test_huge_integers_and_deep_nesting_are_one_line_exit_2(
    tmp_path: Path, command: str, document: str, message: str
) -> None:
    path = tmp_path / "in.json"
    path.write_text(document)
    assert message in one_line_error(*run(command, str(path))[0:3:2])


def test_a_rules_file_with_a_huge_integer_or_deep_nesting(tmp_path: Path) -> None:
    rules = tmp_path / "mine.toml"
    for text, message in [(f"name = {HUGE}", "4300 digits"), ("x = " + "[" * 5000, "")]:
        rules.write_text(text)
        assert message in one_line_error(*run("classify", "33", "--rules", str(rules))[0:3:2])


def test_batch_turns_hostile_lines_into_error_records_and_resumes(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    good = json.dumps({"id": "good", **DEAL})
    source.write_bytes(
        "\n".join(
            [
                '{"id": "big", "x": ' + HUGE + "}",
                "[" * 5000,
                good,
            ]
        ).encode()
        + b"\n\xff\xfe\n"
    )
    out = tmp_path / "out.jsonl"
    code, stdout, _ = cpsolver("batch", str(source), "-o", str(out), "--workers", "1", "--json")
    assert code == 2 and json.loads(stdout)["errors"] == 3
    # B2: a deep line in the output file must not break the resume.
    with out.open("a") as file:
        file.write("[" * 5000 + "\n")
    code, stdout, _ = cpsolver("batch", str(source), "-o", str(out), "--workers", "1", "--json")
    assert code == 2, stdout
    records = [json.loads(line) for line in out.read_text().splitlines() if line[0] == "{"]
    assert sorted(r["id"] for r in records) == [
        "1",
        "2",
        "4",
        "good",
    ]  # an unreadable line is known by its number
    assert next(r for r in records if r["id"] == "4")["error"].endswith("line 4: not UTF-8 text")


def test_batch_reads_non_utf8_stdin_as_an_error_record(tmp_path: Path) -> None:  # B7
    out = tmp_path / "out.jsonl"
    stdin = b"\xff\xfe\n" + json.dumps(DEAL).encode() + b"\n"
    code, _, err = cpsolver("batch", "-", "-o", str(out), "--workers", "1", stdin=stdin)
    assert code == 2, err
    first, second = [json.loads(line) for line in out.read_text().splitlines()]
    assert first == {"id": "1", "line": 1, "error": "stdin: line 1: not UTF-8 text"}
    assert second["verdict"] == "spring"


def test_crosscheck_goes_on_past_a_huge_integer_and_a_deep_line(tmp_path: Path) -> None:  # B1 B2
    source = tmp_path / "in.jsonl"
    source.write_text('{"x": ' + HUGE + "}\n" + "[" * 5000 + "\n" + json.dumps(DEAL) + "\n")
    code, out, _err = run("crosscheck", str(source), "--json")
    assert code == 2
    summary = json.loads(out)
    assert summary["deals"] == summary["agreements"] == 1 and len(summary["bad_lines"]) == 2


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "/dev/zero"],
        ["verify", "/dev/zero"],
        ["replay", "/dev/zero"],
        ["explain", "/dev/zero"],
        ["classify", "@/dev/zero"],
        ["plays", "@/dev/zero"],
        ["solve", SPRING, "--rules", "/dev/zero"],
    ],
)
def test_endless_input_is_capped(args: list[str]) -> None:  # B5
    assert "limit" in one_line_error(*run(*args)[0:3:2])


def test_endless_corpora_are_capped(tmp_path: Path) -> None:  # B5
    out = tmp_path / "out.jsonl"
    for args in (["batch", "/dev/zero", "-o", str(out)], ["crosscheck", "/dev/zero"]):
        code, _, err = cpsolver(*args, "--workers", "1")
        assert "without a line break; stopped" in one_line_error(code, err)


@pytest.mark.parametrize(
    "args",
    [
        ["export-cnf", str(EXAMPLES / "no_spring.txt"), "--cnf", "{bad}"],
        ["export-cnf", str(EXAMPLES / "no_spring.txt"), "--drat", "{bad}"],
        ["solve", SPRING, "--proof", "{bad}"],
        ["deal", "--count", "2", "-o", "{bad}"],
    ],
)
@pytest.mark.parametrize("bad", ["/no/such/folder/x", "/dev/full"])
def test_unwritable_outputs_are_one_line_exit_2(args: list[str], bad: str) -> None:  # B6
    args = [bad if arg == "{bad}" else arg for arg in args]
    message = one_line_error(*run(*args)[0:3:2])
    assert message.startswith(f"cannot write {bad}: ")


def test_a_full_stdout_is_one_line_exit_2() -> None:  # B6
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "cpsolver", "deal", "--count", "3"],
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr.decode() == "Error: cannot write stdout: No space left on device\n"


@pytest.mark.parametrize(
    "command",
    [
        "deal --count 200000",
        "deal --count 200000 -o -",
        "deal --count 3000 | {cpsolver} batch - -o - --quiet --engine search --workers 1",
    ],
)
def test_a_closed_stdout_pipe_ends_quietly_with_141(command: str) -> None:  # issue 27
    # Read one line and close the pipe, as head does: the writer must stop without a word,
    # with the status a shell shows for a tool that SIGPIPE ended (128 + 13).
    cpsolver = f"{sys.executable} -m cpsolver"
    head = subprocess.run(
        f"{cpsolver} {command.format(cpsolver=cpsolver)} | head -1; exit ${{PIPESTATUS[-2]}}",
        shell=True,
        capture_output=True,
        check=False,
        executable="/bin/bash",
    )
    assert head.stdout.count(b"\n") == 1
    assert head.stderr == b""
    assert head.returncode == 141


def test_workers_are_capped_at_the_cores_with_a_warning(tmp_path: Path) -> None:  # B8
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(DEAL) + "\n")
    for option in ("--workers", "--local-cluster"):
        if option == "--local-cluster":
            continue  # a LocalCluster is slow to start; the cap is the same code
        code, _, err = cpsolver(
            "batch", str(source), "-o", str(tmp_path / "o.jsonl"), option, "9" * 20
        )
        assert code == 0, err
        assert err.startswith(f"Warning: {option} {'9' * 20} is more than the ")


def test_reproducer_names_stay_in_their_folder_and_never_collide(tmp_path: Path) -> None:  # B9
    ids = ["../../../escape", str(tmp_path / "absolute"), "nul\x00byte", "dup", "dup", ".hidden"]
    source = tmp_path / "in.jsonl"
    # A wrong "expected" makes every deal a finding, with no shrinking to wait for.
    source.write_text(
        "".join(json.dumps({"id": i, **DEAL, "expected": "no_spring"}) + "\n" for i in ids)
    )
    folder = tmp_path / "repro"
    code, _out, err = run("crosscheck", str(source), "--reproducers", str(folder))
    assert code == 1, err
    written = sorted(p.name for p in folder.iterdir())
    assert written == sorted(
        ["escape.txt", "absolute.txt", "nul_byte.txt", "dup.txt", "dup-2.txt", "hidden.txt"]
    ) or all("/" not in name for name in written)
    assert len(written) == len(ids)
    assert sorted(tmp_path.iterdir()) == sorted([source, folder])  # nothing written outside


def test_a_second_batch_on_the_same_output_is_refused(tmp_path: Path) -> None:  # B10
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(DEAL) + "\n")
    out = tmp_path / "out.jsonl"
    with lock_output(out):  # as a running batch holds it
        code, _, err = cpsolver("batch", str(source), "-o", str(out), "--workers", "1")
        message = one_line_error(code, err)
        assert message.startswith(f"{out} is being written by another cpsolver batch")
    assert out.read_text() == ""
    assert cpsolver("batch", str(source), "-o", str(out), "--workers", "1")[0] == 0


def test_an_internal_value_error_in_crosscheck_is_not_bad_input(
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # B14
    from cpsolver.cli import crosscheck as crosscheck_cli

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug, not the user's input")

    monkeypatch.setattr(crosscheck_cli, "crosscheck", broken)
    result = CliRunner().invoke(cli, ["crosscheck", "--generate", "endgame", "--count", "1"])
    assert isinstance(result.exception, ValueError) and result.exit_code == 1


def test_the_minor_ones(tmp_path: Path) -> None:
    assert one_line_error(*run("classify", "")[0:3:2]) == "CARDS: no cards given"
    assert one_line_error(*run("plays", "-", input="  # nothing\n")[0:3:2]) == (
        "stdin: no cards given"
    )
    message = one_line_error(*run("solve", SPRING, "--rules", "/dev/null")[0:3:2])
    assert message == "/dev/null: missing field 'name'"
    code, _, err = run("solve", "--no-such-option")
    assert one_line_error(code, err) == "No such option '--no-such-option'."
    code, _, err = run("solve", SPRING, "--engine", "nope")
    assert one_line_error(code, err).startswith("Invalid value for '--engine'")


def test_markup_typed_at_the_table_is_shown_as_typed() -> None:  # B4
    script = ["[/red]", "[bold]x", "pass"] + ["[/red]", "pass"] * 200
    result = CliRunner().invoke(
        cli, ["play", "--seed", "4", "--seat", "1"], input="\n".join(script) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "'[/red]' is no bid" in result.output and "'[bold]x' is no bid" in result.output


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["solve", "verify", "explain", "replay", "classify", "plays"]),
    st.binary(max_size=300),
)
def test_any_bytes_on_stdin_give_a_documented_exit_and_at_most_one_error_line(
    command: str, data: bytes
) -> None:
    args = [command, "@-" if command in ("classify", "plays") else "-"]
    if command in ("classify", "plays"):
        args = [command, "-"]
    result = CliRunner().invoke(cli, args, input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in (0, 1, 2, 3)
    if result.exit_code == 2:
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1


def test_botzone_stdin_is_bounded_and_bad_json_is_one_line() -> None:
    """Issue 12: the Botzone loop reads its stdin through the reading layer's limits."""
    import io

    from cpsolver.game.botzone import serve
    from cpsolver.io.reading import InputError

    deep = "[" * 5000 + "]" * 5000 + "\n"
    for text in (deep, "{not json\n", '{"x": 1}\n'):
        with pytest.raises(InputError):
            serve(io.StringIO(text), io.StringIO(), keep_running=False)


def test_a_douzero_pickle_over_the_record_cap_is_refused(tmp_path: Path, monkeypatch: Any) -> None:
    from cpsolver.game.records import RecordError, read_douzero_deals

    big = tmp_path / "deals.pkl"
    big.write_bytes(b"\x80" * 2048)
    monkeypatch.setenv("CPSOLVER_LIMIT_RECORD", "1024")
    with pytest.raises(RecordError, match="larger than"):
        read_douzero_deals(str(big))
