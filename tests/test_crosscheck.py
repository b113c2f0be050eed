"""Cross-checking: both engines on generated corpora, shrinking, other people's solvers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.crosscheck.external import parse_answer
from cpsolver.crosscheck.spring import (
    Answer,
    CommandSolver,
    EngineSolver,
    Solver,
    crosscheck,
    judge,
    shrink,
)
from cpsolver.io.dealformat import deal_as_dict, read_corpus
from cpsolver.io.dealgen import generate
from cpsolver.rules.cards import Deal
from cpsolver.rules.ruleset import standard_rules

RULES = standard_rules()
EXAMPLES = Path(__file__).parents[1] / "examples"
PYTHON = sys.executable


def ours() -> list[Solver]:
    return [EngineSolver("cpsat", RULES, None), EngineSolver("search", RULES, None)]


def external(tmp_path: Path, name: str, body: str, timeout: float = 5.0) -> CommandSolver:
    """A small external solver written for the test."""
    script = tmp_path / f"{name}.py"
    script.write_text("import json, sys, time\n" + body)
    return CommandSolver(f"{PYTHON} {script}", timeout)


@pytest.mark.parametrize("kind", ["full", "endgame", "planted"])
def test_both_engines_agree_on_a_thousand_generated_deals(kind: str) -> None:
    summary = crosscheck(generate(kind, 1000, seed=2026), ours(), RULES)
    assert summary.deals == 1000
    assert (summary.disagreements, summary.invalid_proofs, summary.unknowns) == (0, 0, 0)
    assert summary.agreements == 1000
    if kind == "planted":
        assert summary.springs > 200  # planted deals must exercise springs, not only "no"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["full", "endgame", "planted"])
def test_both_engines_agree_on_twenty_thousand_generated_deals(kind: str) -> None:
    summary = crosscheck(generate(kind, 20_000, seed=7), ours(), RULES)
    print(kind, json.dumps({k: v for k, v in summary.as_dict().items() if k != "reproducers"}))
    assert summary.agreements == summary.deals == 20_000


def test_judge_names_invalid_plans_disagreements_and_expected_labels() -> None:
    deal = Deal.parse("KK 2", "AA", "3")
    good = Answer("a", "spring", ["2", "KK"], 0.0)
    assert judge(deal, [good, Answer("b", "spring", None, 0.0)], "spring", RULES) is None
    bad = Answer("b", "spring", ["KK", "2"], 0.0)
    assert judge(deal, [good, bad], None, RULES) == (
        "invalid proof",
        "b's plan: step 1 (KK): peasant 1 answers with AA",
    )
    no = Answer("b", "no_spring", None, 0.0)
    assert judge(deal, [good, no], None, RULES) == (
        "disagreement",
        "a says spring, b says no_spring",
    )
    assert judge(deal, [good], "no_spring", RULES) == (
        "disagreement",
        "expected no_spring, a says spring",
    )
    unknown = Answer("b", "unknown", None, 0.0)
    assert judge(deal, [good, unknown], None, RULES) is None


def test_shrink_removes_every_card_it_can() -> None:
    deal = Deal.parse("3456789 B R", "TJQ", "K")
    # "Fails" while the landlord still holds the rocket and a peasant a J.
    shrunk = shrink(deal, lambda d: bool(d.landlord[13] and d.landlord[14] and d.peasant1[8]))
    assert (
        str(shrunk.landlord) == "BR" and str(shrunk.peasant1) == "J" and len(shrunk.peasant2) == 1
    )


def test_a_wrong_external_solver_is_caught_and_shrunk(tmp_path: Path) -> None:
    liar = external(
        tmp_path,
        "liar",
        "for line in sys.stdin:\n"
        "    deal = json.loads(line)\n"
        "    rocket = 'B' in deal['landlord'] and 'R' in deal['landlord']\n"
        "    print(json.dumps({'verdict': 'spring' if rocket else 'no_spring'}), flush=True)\n",
    )
    deals = [e for e in generate("full", 60, seed=3) if e.deal.landlord[13] and e.deal.landlord[14]]
    assert deals, "the seed must deal the landlord a rocket"
    try:
        summary = crosscheck(deals[:3], [*ours(), liar], RULES)
    finally:
        liar.close()
    assert summary.disagreements == len(summary.findings) >= 1
    for finding in summary.findings:
        original = sum(map(len, finding.original.hands))
        assert sum(map(len, finding.deal.hands)) < original
        assert finding.verdicts["external"] == "spring" and finding.verdicts["cpsat"] == "no_spring"
        assert finding.deal.landlord[13] and finding.deal.landlord[14]


@pytest.mark.parametrize(
    ("name", "body", "problem"),
    [
        ("crash", "sys.stdin.readline()\nsys.exit(3)\n", "crashed (exit code 3) without answering"),
        ("quits", "sys.stdin.readline()\nsys.exit(0)\n", "exited (code 0) without answering"),
        (
            "closes",
            "import os\nsys.stdin.readline()\nos.close(1)\ntime.sleep(30)\n",
            "closed its output without answering",
        ),
        (
            "endless",
            "sys.stdin.readline()\nsys.stdout.write('x' * 3_000_000)\nsys.stdout.flush()\ntime.sleep(30)\n",
            (
                "garbage: the external solver: line 1: over the 1 MiB limit for a line "
                "(set CPSOLVER_LIMIT_LINE to raise it)"
            ),
        ),
        (
            "junk",
            "for line in sys.stdin:\n    print('hello', flush=True)\n",
            "garbage: the external solver: broken JSON: Expecting value: line 1 column 1 (char 0)",
        ),
        ("sleepy", "for line in sys.stdin:\n    time.sleep(30)\n", "no answer within 0.5 s"),
        (
            "noverdict",
            "for line in sys.stdin:\n    print('{\"plan\": []}', flush=True)\n",
            "garbage: no 'verdict' of spring, no_spring, unknown: '{\"plan\": []}'",
        ),
    ],
)
def test_a_misbehaving_external_solver_is_reported_per_deal(
    tmp_path: Path, name: str, body: str, problem: str
) -> None:
    solver = external(tmp_path, name, body, timeout=0.5)
    try:
        summary = crosscheck(generate("endgame", 3, seed=1), [*ours(), solver], RULES)
    finally:
        solver.close()
    assert summary.deals == summary.agreements == 3
    assert [p["problem"] for p in summary.problems] == [problem] * 3


def test_an_external_solver_that_answers_twice_is_out_of_step(tmp_path: Path) -> None:
    twice = external(
        tmp_path,
        "twice",
        "for line in sys.stdin:\n"  # both lines in one write: no race with the next request
        "    print(json.dumps({'verdict': 'unknown'}) + '\\n' + json.dumps({'verdict': 'unknown'}), flush=True)\n",
    )
    try:
        summary = crosscheck(generate("endgame", 4, seed=1), [*ours(), twice], RULES)
    finally:
        twice.close()
    problems = [p["problem"] for p in summary.problems]
    assert "out of step: it printed more than one line for a request" in problems
    assert summary.agreements == 4  # an unknown never disagrees


def test_an_external_command_that_cannot_start() -> None:
    with pytest.raises(ValueError, match="cannot start '/no/such/solver'"):
        CommandSolver("/no/such/solver", 1.0).answer(Deal.parse("3", "4", "5"), "x")


def test_parse_answer_accepts_plans_as_strings_or_objects() -> None:
    assert parse_answer({"verdict": "no_spring"}) == ("no_spring", None)
    with pytest.raises(ValueError, match="a plan step is not cards"):
        parse_answer({"verdict": "spring", "plan": [3]})


def test_the_example_external_solver_agrees_with_us(tmp_path: Path) -> None:
    solver = CommandSolver(f"{PYTHON} {EXAMPLES / 'external_solver.py'}", 10.0)
    try:
        summary = crosscheck(generate("endgame", 150, seed=4), [*ours(), solver], RULES)
    finally:
        solver.close()
    assert summary.agreements == 150 and not summary.problems


# The command line.


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_crosscheck_a_corpus_with_expected_verdicts(tmp_path: Path) -> None:
    code, out, _ = invoke(
        "crosscheck", str(EXAMPLES / "corpus.jsonl"), "--json", "--reproducers", str(tmp_path)
    )
    assert code == 0
    summary = json.loads(out)
    assert (summary["deals"], summary["agreements"], summary["reproducers"]) == (8, 8, [])
    assert set(summary["time"]) == {"cpsat", "search"}


def test_crosscheck_writes_shrunk_reproducers_and_exits_1(tmp_path: Path) -> None:
    corpus = tmp_path / "wrong.jsonl"
    deal = next(generate("full", 1, seed=5)).deal
    corpus.write_text(
        json.dumps({"id": "labelled", **deal_as_dict(deal), "expected": "spring"}) + "\n"
    )
    liar = tmp_path / "liar.py"
    liar.write_text(
        "import json, sys\nfor line in sys.stdin:\n    print(json.dumps({'verdict': 'spring'}), flush=True)\n"
    )
    out_dir = tmp_path / "repro"
    code, out, _ = invoke(
        "crosscheck",
        str(corpus),
        "--against",
        f"{PYTHON} {liar}",
        "--reproducers",
        str(out_dir),
        "--json",
    )
    assert code == 1
    summary = json.loads(out)
    assert summary["disagreements"] == 1
    [reproducer] = summary["reproducers"]
    assert (
        reproducer["reason"] == "cpsat says no_spring, search says no_spring, external says spring"
    )
    cards = [len(reproducer["deal"]["landlord"]), *map(len, reproducer["deal"]["peasants"])]
    assert sum(cards) < 54 and reproducer["original_deal"] == deal_as_dict(deal)
    text = (out_dir / "labelled.txt").read_text()
    assert text.startswith('# cpsolver crosscheck: disagreement on deal "labelled"')
    assert invoke("solve", str(out_dir / "labelled.txt"))[0] == 1  # runnable as it is


def test_crosscheck_generated_deals_text_summary() -> None:
    code, out, _ = invoke("crosscheck", "--generate", "endgame", "--count", "50", "--seed", "9")
    assert code == 0
    assert out.splitlines()[:3] == [
        "deals             50",
        "agreements        50",
        "disagreements     0",
    ]


def test_crosscheck_bad_lines_are_reported_and_exit_2(tmp_path: Path) -> None:
    corpus = tmp_path / "bad.jsonl"
    corpus.write_text('{"landlord": "3", "peasants": ["4", "5"]}\n{oops\n')
    code, out, err = invoke("crosscheck", str(corpus))
    assert code == 2
    assert "deals             1" in out
    assert err.startswith("bad line: line 2: broken JSON")


def test_crosscheck_needs_a_corpus_or_generate() -> None:
    code, _, err = invoke("crosscheck")
    assert code == 2 and "give a CORPUS file (or -) or --generate KIND" in err


def test_deal_writes_a_reproducible_corpus(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    assert (
        invoke("deal", "--kind", "planted", "--count", "5", "--seed", "3", "-o", str(path))[0] == 0
    )
    entries = list(read_corpus(path.read_text().splitlines()))
    assert [e.id for e in entries] == [f"planted-3-{i}" for i in range(5)]  # type: ignore[union-attr]
    code, out, _ = invoke("deal", "--kind", "planted", "--count", "5", "--seed", "3")
    assert out == path.read_text()
    code, out, _ = invoke("deal", "--kind", "endgame", "--sizes", "4,1-3,2", "--count", "20")
    for line in out.splitlines():
        deal = json.loads(line)
        assert len(deal["landlord"]) == 4 and 1 <= len(deal["peasants"][0]) <= 3
    code, _, err = invoke("deal", "--kind", "endgame", "--sizes", "4,0,2")
    assert code == 2 and "must be at least 1" in err
    code, _, err = invoke("deal", "--kind", "full", "--sizes", "4,2,2")
    assert code == 2 and "--sizes is for endgame, position2 and position3" in err


def test_solve_with_the_search_engine() -> None:
    code, out, _ = invoke("solve", str(EXAMPLES / "spring.txt"), "--engine", "search", "--json")
    assert code == 0
    assert json.loads(out)["stats"]["engine"] == "search"
