"""cpsolver show, and the --svg/--html pictures of solve, explain and replay; colour only at a terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from cpsolver.cli import cli

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
HANDS = Path(__file__).parent / "data" / "hands.jsonl"


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def test_show_a_deal_groups_each_hand_by_rank() -> None:
    code, out = run("show", str(EXAMPLES / "spring.txt"))
    assert code == 0
    assert "333 444 555 T J Q K AAAA 22 R" in out
    assert "3 4 5 6 77 8 99 T J QQ K 22 B" in out


def test_show_solve_draws_the_plan_as_a_table_with_headers() -> None:
    code, out = run("show", str(EXAMPLES / "spring.txt"), "--solve")
    assert code == 0
    header = next(line for line in out.splitlines() if "step" in line)
    for column in ("step", "cards", "kind", "rank", "who could answer"):
        assert column in header
    assert "K AAAA R" in out and "nobody" in out


def test_show_solve_explains_a_deal_without_spring() -> None:
    code, out = run("show", str(EXAMPLES / "no_spring.txt"), "--solve", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["explanation"]["blocking"] == "Q2"
    code, out = run("show", str(EXAMPLES / "no_spring.txt"), "--solve")
    assert "blocking card" in out and "peasant 1 with K" in out


def test_show_json_of_a_plan_says_who_answers() -> None:
    deal = '{"landlord": "22 5", "peasants": ["66 9", "7"]}'
    _, out = run("show", "-", "--solve", "--json", input=deal)
    data = json.loads(out)
    assert data["groups"] == [["5", "22"], ["66", "9"], ["7"]]
    assert [step["answered_by"] for step in data["plan"]] == [
        [],
        [{"peasant": 1, "with": "6"}, {"peasant": 2, "with": "7"}],
    ]


@pytest.mark.parametrize(
    "position",
    [
        '{"hands": ["KK 5", "AA"], "turn": 1, "table": {"cards": "5", "by": 0}}',
        '{"hands": ["KKK 2 5", "AA 7", "QQQ 3 6"], "turn": 0, "table": null}',
        "hand0: KK 5\nhand1: AA\nturn: 1\ntable: 5 by 0\n",
    ],
)
def test_show_a_position(position: str, tmp_path: Path) -> None:
    picture = tmp_path / "p.svg"
    code, out = run("show", "-", "--svg", str(picture), input=position)
    assert code == 0, out
    assert "Position: hand" in out or "Position: landlord" in out
    ET.parse(picture)
    code, out = run("show", "-", "--json", input=position)
    assert json.loads(out)["what"] == "position"


def test_show_a_proof_a_certificate_and_a_strategy(tmp_path: Path) -> None:
    proof, certificate, strategy = (tmp_path / n for n in ("p.json", "c.json", "s.json"))
    run("solve", str(EXAMPLES / "spring.txt"), "--proof", str(proof))
    run("solve", str(EXAMPLES / "no_spring.txt"), "--proof", str(certificate))
    run("endgame", str(EXAMPLES / "endgame.txt"), "--proof", str(strategy))
    code, out = run("show", str(proof))
    assert code == 0 and "who could answer" in out and out.startswith("Proof of a spring")
    code, out = run("show", str(strategy))
    assert out.startswith("The landlord wins with best play")
    code, out = run("show", str(certificate), "--json")
    assert json.loads(out)["explanation"]["blocking"] == "Q2"
    code, out = run("show", str(strategy), "--json")
    assert json.loads(out)["winner"] == 0


def test_show_records_trick_by_trick(tmp_path: Path) -> None:
    code, out = run("show", str(HANDS), "--json")
    assert code == 0
    data = json.loads(out)
    records = [json.loads(line) for line in HANDS.read_text().splitlines()]
    data = data if isinstance(data, list) else [data]
    for shown, record in zip(data, records):
        actions = [a for trick in shown["tricks"] for a in trick]
        assert [(a["seat"], a["cards"]) for a in actions] == [
            (a["seat"], str(a["cards"])) for a in record["actions"]
        ]
        for trick in shown["tricks"][:-1]:  # every trick but the last ends with two passes
            assert [a["cards"] for a in trick[-2:]] == ["pass", "pass"]
    code, out = run("show", str(HANDS), "--html", str(tmp_path / "h.html"))
    assert "Trick by trick" in out
    assert (tmp_path / "h.html").read_text().count("<svg") >= 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("landlord: 33\n", "no peasant1 and no peasant2 line in the deal"),
        ('{"format": "cpsolver-nothing"}', "cannot show a document of format 'cpsolver-nothing'"),
        ("{broken", "broken JSON"),
        ("", "no landlord"),
    ],
)
def test_show_bad_input_is_one_line_and_exit_2(text: str, message: str) -> None:
    code, out = run("show", "-", input=text)
    assert code == 2
    assert message in out and "Traceback" not in out


def test_solve_explain_and_replay_write_pictures(tmp_path: Path) -> None:
    plan, why, hands, page = (tmp_path / n for n in ("plan.svg", "why.svg", "hands.svg", "p.html"))
    code, _ = run("solve", str(EXAMPLES / "spring.txt"), "--svg", str(plan), "--html", str(page))
    assert code == 0
    assert "The landlord's plan" in plan.read_text()
    assert page.read_text().startswith("<!DOCTYPE html>")
    code, _ = run("explain", str(EXAMPLES / "no_spring.txt"), "--svg", str(why))
    assert code == 1 and "No spring: the landlord's Q 2" in why.read_text()
    code, _ = run("replay", str(HANDS), "--svg", str(hands))
    assert code == 0
    ET.parse(hands)


def test_show_a_thrown_in_hand(tmp_path: Path) -> None:
    from cpsolver.game.engine import Game

    game = Game.deal(5, 0)
    for seat in range(3):
        game.make_bid(seat, 0)
    records = tmp_path / "hands.jsonl"
    records.write_text(json.dumps(game.record()) + "\n")
    code, out = run("show", str(records))
    assert code == 0 and "the hand was thrown in" in out


def test_simulate_record_replays(tmp_path: Path) -> None:
    records = tmp_path / "hands.jsonl"
    code, _ = run("simulate", "--games", "3", "--seed", "4", "--record", str(records), "--quiet")
    assert code == 0
    assert len(records.read_text().splitlines()) == 3
    code, out = run("replay", str(records), "--json")
    assert code == 0 and len(json.loads(out)["replayed"]) == 3


def cpsolver(*args: str) -> list[str]:
    return [sys.executable, "-m", "cpsolver", *args]


def test_no_colour_when_piped() -> None:
    out = subprocess.run(
        cpsolver("show", str(EXAMPLES / "spring.txt"), "--solve"),
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")},
    ).stdout
    assert "\x1b[" not in out and "22 R" in out


@pytest.mark.parametrize(("no_color", "coloured"), [(False, True), (True, False)])
def test_colour_at_a_terminal_unless_no_color(no_color: bool, coloured: bool) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    env["TERM"] = "xterm-256color"
    if no_color:
        env["NO_COLOR"] = "1"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cpsolver", "show", str(EXAMPLES / "spring.txt")],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 120),
    )
    child.expect(pexpect.EOF)
    out = child.before or ""
    # The red joker is drawn in red (SGR 31 or a 256-colour red) only in colour.
    assert ("\x1b[1;31mR" in out) is coloured, repr(out[-300:])


def test_the_manuals_pictures_are_what_the_code_draws() -> None:
    script = ROOT / "scripts" / "make_pictures.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    page = (ROOT / "docs" / "show.md").read_text(encoding="utf-8")
    for stem in ("deal", "plan", "explanation", "record"):
        assert f"](pictures/{stem}.svg)" in page
        assert (ROOT / "docs" / "pictures" / f"{stem}.svg").is_file()


def test_show_reads_the_landlord_position_text_that_endgame_reads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json
    import subprocess
    import sys

    text = "landlord: 33\npeasant1: 44\npeasant2: 5\nturn: 1\ntable: 3 by 0\n"
    command = [sys.executable, "-m", "cpsolver"]
    shown = subprocess.run(
        [*command, "show", "-", "--json"], input=text, capture_output=True, text=True, check=False
    )
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["position"] == {
        "hands": ["33", "44", "5"],
        "turn": 1,
        "table": {"cards": "3", "by": 0},
    }
    solved = subprocess.run(
        [*command, "endgame", "-"], input=text, capture_output=True, text=True, check=False
    )
    assert solved.stdout.splitlines()[0] == "on the table: 3 by landlord", solved.stdout


def _forged(kind: str, tmp_path: Path) -> Path:
    """A proof, certificate or strategy with one thing changed that the checker must reject."""
    path = tmp_path / f"{kind}.json"
    if kind == "strategy":
        run("endgame", str(EXAMPLES / "endgame.txt"), "--proof", str(path))
        document = json.loads(path.read_text())
        document["winner"] = 1 - document["winner"]
    else:
        deal = "spring.txt" if kind == "proof" else "no_spring.txt"
        run("solve", str(EXAMPLES / deal), "--proof", str(path))
        document = json.loads(path.read_text())
        if kind == "proof":
            document["plan"][0]["cards"] = "3"  # a single any peasant beats
        else:
            document["blocking"] = "3"
    path.write_text(json.dumps(document))
    code, out = run("verify", str(path))
    assert code == 1 and out.startswith("invalid:"), "the forgery must be one verify rejects"
    return path


@pytest.mark.parametrize("kind", ["proof", "certificate", "strategy"])
@pytest.mark.parametrize("form", ["text", "--json", "--svg", "--html"])
def test_show_draws_no_document_the_checker_rejects(kind: str, form: str, tmp_path: Path) -> None:
    """show drew forged proofs titled as checked, exit 0; now it says invalid, exit 1, writes nothing."""
    forged = _forged(kind, tmp_path)
    picture = tmp_path / "picture"
    extra = {"text": [], "--json": ["--json"]}.get(form, [form, str(picture)])
    result = CliRunner().invoke(cli, ["show", str(forged), *extra])
    assert result.exit_code == 1
    assert result.stdout == "" and result.stderr.startswith("invalid: ")
    assert result.stderr.count("\n") == 1 and not picture.exists()
