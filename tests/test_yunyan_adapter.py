"""examples/yunyan_endgame_adapter.py: the C++ solver's notation both ways, the line protocol,
and crosscheck --against end to end, with a stand-in for the binary (tests/yunyan_fake_peer.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from endgame_reference import winner as reference_winner
from endgame_reference import winning_moves as reference_moves
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.cli import cli
from cpsolver.io.positioncorpus import PositionEntry
from cpsolver.io.positionformat import parse_position, position_as_dict
from cpsolver.io.positiongen import generate
from cpsolver.rules.cards import DECK_COUNTS, Hand
from cpsolver.rules.plays import classify

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "examples" / "yunyan_endgame_adapter.py"
FAKE = Path(__file__).resolve().parent / "yunyan_fake_peer.py"

_spec = importlib.util.spec_from_file_location("yunyan_endgame_adapter", ADAPTER)
assert _spec is not None and _spec.loader is not None
adapter = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(adapter)

# How the binary spells each rank, written out here rather than taken from the adapter.
PEER_SYMBOL = "3456789" + "0JQKA2YZ"
PEER_PRINTED = [*"3456789", "10", *"JQKA2", "'Little Joker'", "'Big Joker'"]


def fake_binary(folder: Path, mode: str = "right") -> str:
    """An executable file standing in for the user's binary: the fake peer in ``mode``."""
    path = folder / f"fake-{mode}"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" --mode {mode}\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def ask(binary: str, *requests: dict, time_limit: float = 20.0) -> list[dict]:
    """The adapter's answers to these requests, one line each."""
    lines = "".join(json.dumps(request) + "\n" for request in requests)
    done = subprocess.run(
        [sys.executable, str(ADAPTER), binary, "--time-limit", str(time_limit)],
        input=lines,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


hands = st.lists(st.integers(0, 14), min_size=1, max_size=20).filter(
    lambda ranks: all(ranks.count(r) <= DECK_COUNTS[r] for r in ranks)
)


@settings(max_examples=200, deadline=None)
@given(hands)
def test_hands_go_out_in_the_binarys_notation(ranks: list[int]) -> None:
    hand = Hand.from_ranks(ranks)
    written = adapter.peer_cards(hand)
    assert sorted(written, key=PEER_SYMBOL.index, reverse=True) == list(written)  # high first
    assert sorted(written) == sorted(PEER_SYMBOL[r] for r in ranks)


@settings(max_examples=200, deadline=None)
@given(hands)
def test_the_binarys_plays_come_back_in_ours(ranks: list[int]) -> None:
    printed = " ".join(PEER_PRINTED[r] for r in sorted(ranks, reverse=True))
    assert Hand.parse(adapter.our_cards(f"play: [{printed}]")) == Hand.from_ranks(ranks)
    assert adapter.verdict(f"play: [{printed}]") == (True, adapter.our_cards(f"play: [{printed}]"))


@pytest.mark.parametrize("line", ["play: []", "play: [X 11]", "play: [K K", "play [K]"])
def test_lines_that_are_no_play_are_refused_or_ignored(line: str) -> None:
    if line.startswith("play: ["):
        with pytest.raises(adapter.PeerOutputError):
            adapter.verdict(line)
    else:
        assert adapter.verdict(line) is None
    assert adapter.verdict("can not win") == (False, None)
    assert adapter.verdict("enter farmer play:") is None


def test_it_answers_leads_of_two_hands_as_the_binary_says(tmp_path: Path) -> None:
    entries = list(generate("position2", 12, seed=5, sizes=((1, 5), (1, 5)), mid_trick=0.0))
    requests = [{"protocol": 2, "question": "endgame", **_as_request(e)} for e in entries]
    answers = ask(fake_binary(tmp_path), *requests)
    assert [a["id"] for a in answers] == [e.id for e in entries]
    for entry, answer in zip(entries, answers):
        position = entry.position
        expected = reference_winner(position.hands, position.turn, None, None)
        assert answer["winner"] == expected, entry
        mover = position.side_of(position.turn)
        if expected == mover:  # the winning first move, in our notation, playable and winning
            (move,) = answer["moves"]
            play = classify(move)
            assert play.cards <= position.hands[position.turn]
            after = position.after(play)
            assert (
                after is None
                or reference_winner(after.hands, after.turn, after.table, after.by) == mover
            )
        else:
            assert answer["moves"] == []


def _as_request(entry: PositionEntry) -> dict:
    return {"id": entry.id, **position_as_dict(entry.position)}


def test_what_the_binary_cannot_answer_is_unknown_with_a_reason(tmp_path: Path) -> None:
    answers = ask(
        fake_binary(tmp_path),
        {"id": "three", "hands": ["3", "4", "5"], "turn": 0, "table": None},
        {"id": "mid", "hands": ["KK3", "QQ4"], "turn": 1, "table": {"cards": "A", "by": 0}},
        {"id": "spring", "question": "spring", "landlord": "3", "peasants": ["4", "5"]},
        {"id": "lead", "hands": ["KK3", "Q"], "turn": 0, "table": None},
    )
    assert [a["winner"] for a in answers] == [None, None, None, 0]
    assert "two hands" in answers[0]["note"]
    assert "leads only" in answers[1]["note"]
    assert "endgame question" in answers[2]["note"]
    (move,) = answers[3]["moves"]
    winning = reference_moves((Hand.parse("KK3"), Hand.parse("Q")), 0, None, None)
    assert classify(move) in winning


@pytest.mark.parametrize(
    ("mode", "note"),
    [("silent", "no verdict within"), ("crash", "exit code 3"), ("garbage", "unreadable")],
)
def test_a_binary_that_fails_gets_unknown_and_the_next_position_goes_on(
    tmp_path: Path, mode: str, note: str
) -> None:
    request = {"id": "p", "hands": ["KK3", "Q"], "turn": 0, "table": None}
    answers = ask(fake_binary(tmp_path, mode), request, {**request, "id": "q"}, time_limit=1.0)
    assert [(a["id"], a["winner"]) for a in answers] == [("p", None), ("q", None)]
    assert all(note in a["note"] for a in answers)


def test_no_binary_is_a_usage_error() -> None:
    env = {k: v for k, v in os.environ.items() if k != adapter.ENVIRONMENT}
    done = subprocess.run(
        [sys.executable, str(ADAPTER)],
        check=False,
        input="",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2 and adapter.ENVIRONMENT in done.stderr


def crosscheck(tmp_path: Path, corpus: str, binary: str) -> tuple[int, dict]:
    path = tmp_path / "corpus.jsonl"
    path.write_text(corpus)
    against = f"{sys.executable} {ADAPTER} {binary} --time-limit 30"
    result = CliRunner().invoke(
        cli,
        [
            "crosscheck",
            str(path),
            "--against",
            against,
            "--reproducers",
            str(tmp_path / "found"),
            "--json",
        ],
    )
    return result.exit_code, json.loads(result.stdout)


def test_crosscheck_against_a_right_binary_finds_nothing(tmp_path: Path) -> None:
    corpus = "".join(
        json.dumps(_as_request(entry)) + "\n"
        for entry in generate("position2", 15, seed=2, sizes=((1, 5), (1, 5)), mid_trick=0.0)
    )
    code, summary = crosscheck(tmp_path, corpus, fake_binary(tmp_path))
    assert code == 0, summary
    assert summary["positions"] == summary["agreements"] == 15
    assert summary["unknowns"] == 0 and summary["solver_problems"] == []


def test_crosscheck_reports_a_planted_bomb_bug_shrunk(tmp_path: Path) -> None:
    # Hand 1 wins: its 5555 beats 4444. A solver in which it cannot thinks 4444 wins.
    corpus = '{"id": "bombs", "hands": ["444433", "55557"], "turn": 0, "table": null}\n'
    corpus += '{"id": "plain", "hands": ["KK3", "Q"], "turn": 0, "table": null}\n'
    code, summary = crosscheck(tmp_path, corpus, fake_binary(tmp_path, "bomb"))
    assert code == 1
    assert summary["agreements"] == 1
    assert summary["disagreements"] + summary["invalid_moves"] == 1
    (found,) = summary["reproducers"]
    assert found["id"] == "bombs"
    small = found["position"]
    assert sum(map(len, small["hands"])) < len("444433") + len("55557")  # shrunk
    assert all(4 in Hand.parse(h).counts for h in small["hands"])  # both still hold a bomb
    reproducer = parse_position((tmp_path / "found" / "bombs.txt").read_text())
    assert [str(h) for h in reproducer.hands] == [str(Hand.parse(h)) for h in small["hands"]]


def test_the_manuals_yunyan_figures_are_rendered_from_the_results_file() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import yunyan_crosscheck

    page = yunyan_crosscheck.PAGE.read_text()
    assert yunyan_crosscheck.START in page
    # Stale? python benchmarks/yunyan_crosscheck.py run BINARY, then ... section.
    assert yunyan_crosscheck.rewritten(page) == page
    record = json.loads(yunyan_crosscheck.RESULTS.read_text())
    summary = record["summary"]
    assert summary["positions"] == record["count"]
    assert summary["positions"] == (
        summary["agreements"]
        + summary["disagreements"]
        + summary["invalid_moves"]
        + summary["invalid_proofs"]
    )
    assert len(summary["reproducers"]) == summary["positions"] - summary["agreements"]
