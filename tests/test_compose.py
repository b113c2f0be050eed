"""Commands compose: the output of one is the input of the next, as a user pipes them.

The pipelines run as real processes through bash, the way they are typed;
the checks on options (help text, one name per idea) walk the click group.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cpsolver.cli import cli

ROOT = Path(__file__).resolve().parents[1]
CORPUS_LINE = (ROOT / "examples/corpus.jsonl").read_text(encoding="utf-8").splitlines()[1]


def shell(pipeline: str) -> subprocess.CompletedProcess[str]:
    """Run a pipeline in bash from the repository (its exit code is the last command's)."""
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    return subprocess.run(
        ["bash", "-c", pipeline],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# --- producers piped into consumers -------------------------------------------------------


def test_deal_into_solve_reports_the_id() -> None:
    done = shell("cpsolver deal --kind planted --count 1 --seed 1 | cpsolver solve - --json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["id"], answer["verdict"]) == ("planted-1-0", "spring")


def test_deal_into_solve_as_text_names_the_deal() -> None:
    done = shell("cpsolver deal --count 1 --seed 3 | cpsolver solve -")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("deal full-3-0\nno spring: ")


def test_a_corpus_line_is_a_deal_file_and_its_expectation_is_checked() -> None:
    entry = json.loads(CORPUS_LINE)
    code, out, _ = run("solve", "-", "--json", input=CORPUS_LINE)
    answer = json.loads(out)
    assert (answer["id"], answer["expected"]) == (entry["id"], entry["expected"])
    assert answer["verdict"] == entry["expected"] and code == 0
    wrong = json.dumps({**entry, "expected": "no_spring"})
    code, out, err = run("solve", "-", input=wrong)
    assert code == 0 and err == "expected no_spring, but the verdict is spring\n"


def test_deal_into_batch_on_stdout() -> None:
    done = shell("cpsolver deal --count 3 --seed 2 | cpsolver batch - -o - --workers 1 --quiet")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted(record["id"] for record in records) == ["full-2-0", "full-2-1", "full-2-2"]
    assert done.stderr.startswith("solved 3 deals")  # the summary stays off the results
    assert not (ROOT / "-").exists()


def test_batch_json_summary_goes_to_stderr_with_results_on_stdout() -> None:
    done = shell(
        "cpsolver batch examples/corpus.jsonl -o - --workers 1 --json | cpsolver crosscheck - 2>&1"
        " || true"
    )
    # Batch results are no deals: crosscheck reads them and says so, one line each.
    assert "bad line" in done.stdout or "Error" in done.stdout


def test_deal_into_crosscheck() -> None:
    done = shell(
        "cpsolver deal --kind endgame --sizes 6,4,4 --count 20 --seed 5 | cpsolver crosscheck - --quiet --json"
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["deals"], summary["agreements"]) == (20, 20)


def test_deal_into_explain() -> None:
    done = shell("cpsolver deal --count 1 --seed 3 | cpsolver explain - --json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["blocking"]


@pytest.mark.parametrize("deal", ["examples/spring.txt", "examples/no_spring.txt"])
def test_solve_proof_into_verify(deal: str) -> None:
    done = shell(f"cpsolver solve {deal} --proof - | cpsolver verify -")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("valid: ")
    assert "spring" in done.stderr  # the report went to stderr, out of the proof's way


def test_solve_proof_on_stdout_and_json_refused() -> None:
    code, _, err = run("solve", str(ROOT / "examples/spring.txt"), "--proof", "-", "--json")
    assert code == 2 and "--proof - and --json" in err


# --- batch compares what the corpus expects -------------------------------------------------


def test_batch_counts_mismatches_in_summary_and_exit_code(tmp_path: Path) -> None:
    lines = (ROOT / "examples/corpus.jsonl").read_text(encoding="utf-8").splitlines()
    flipped = []
    for line in lines:
        entry = json.loads(line)
        entry["expected"] = {"spring": "no_spring", "no_spring": "spring"}[entry["expected"]]
        flipped.append(json.dumps(entry))
    corpus = tmp_path / "flipped.jsonl"
    corpus.write_text("\n".join(flipped[:3] + lines[3:]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, stdout, _ = run("batch", str(corpus), "-o", str(out), "--workers", "1", "--json")
    summary = json.loads(stdout)
    assert (code, summary["mismatches"]) == (1, 3)
    assert sorted(summary["mismatched_ids"]) == sorted(json.loads(x)["id"] for x in flipped[:3])
    # A resumed run counts what the earlier one found.
    code, stdout, _ = run("batch", str(corpus), "-o", str(out), "--workers", "1", "--json")
    assert (code, json.loads(stdout)["skipped_already_done"]) == (1, len(lines))
    code, _, _ = run(
        "batch",
        str(ROOT / "examples/corpus.jsonl"),
        "-o",
        str(tmp_path / "ok.jsonl"),
        "--workers",
        "1",
    )
    assert code == 0


# --- one name per idea, help on everything --------------------------------------------------


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []
    for name, command in group.commands.items():
        found.append((prefix + name, command))
        if isinstance(command, click.Group):
            found += _commands(command, prefix + name + " ")
    return found


COMMANDS = _commands(cli)


@pytest.mark.parametrize("name,command", COMMANDS, ids=[name for name, _ in COMMANDS])
def test_every_option_has_help(name: str, command: click.Command) -> None:
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.help, f"cpsolver {name} {param.opts[0]} has no help text"


@pytest.mark.parametrize("name,command", COMMANDS, ids=[name for name, _ in COMMANDS])
def test_one_name_per_idea(name: str, command: click.Command) -> None:
    shown = {
        opt
        for p in command.params
        if isinstance(p, click.Option) and not p.hidden
        for opt in p.opts
    }
    assert "--time-limit" not in shown, f"cpsolver {name}: a time limit is --timeout"
    assert not {"--out", "--output-file"} & shown, f"cpsolver {name}: output is -o/--output"


def test_time_limit_is_a_hidden_alias_of_timeout() -> None:
    spring = str(ROOT / "examples/spring.txt")
    code, out, _ = run("solve", spring, "--time-limit", "1e-9", "--engine", "cpsat", "--json")
    assert (code, json.loads(out)["verdict"]) == (3, "unknown")
    code, out, _ = run("solve", spring, "--timeout", "1e-9", "--engine", "cpsat", "--json")
    assert (code, json.loads(out)["verdict"]) == (3, "unknown")
    _, help_text, _ = run("solve", "--help")
    assert "--timeout" in help_text and "--time-limit" not in help_text


def test_crosscheck_generates_endgames_of_given_sizes() -> None:
    code, out, _ = run(
        "crosscheck", "--generate", "endgame", "--sizes", "3,2,2", "--count", "5", "--json"
    )
    assert (code, json.loads(out)["deals"]) == (0, 5)
    code, _, err = run("crosscheck", "--generate", "full", "--sizes", "3,2,2", "--count", "5")
    assert code == 2 and "--sizes is for endgame, position2 and position3" in err
