"""The terminal table through a pseudo-terminal: whole hands, arrow keys, Ctrl-C; and its advice."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
from click.testing import CliRunner

from cpsolver.cli import cli
from cpsolver.game import advice
from cpsolver.game.engine import Game
from cpsolver.rules.cards import Hand
from cpsolver.rules.plays import Kind, Play

PROMPT = r"Your (bid \([^)]*\)|play): "
UP = "\x1b[A"


def spawn(*args: str) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR",)}
    env["NO_COLOR"] = "1"  # plain text to match; colour is tested in test_show
    env["TERM"] = "xterm"
    return pexpect.spawn(
        sys.executable,
        ["-m", "cpsolver", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
    )


def test_whole_hand_at_a_pseudo_terminal_with_arrow_keys_and_ctrl_c(tmp_path: Path) -> None:
    """Bid and play the bot's hints, recalled with the up arrow; Ctrl-C after the hand keeps it."""
    records = tmp_path / "hands.jsonl"
    child = spawn("play", "--seed", "4", "--seat", "1", "--record", str(records))
    log: list[str] = []
    hands_done = 0
    while hands_done < 1:
        found = child.expect([PROMPT, r"Score: [^\n]*\n"])
        log.append((child.before or "") + (child.after or ""))
        if found == 1:
            hands_done += 1
            continue
        child.sendline("hint")
        child.expect(r"hint: ([^\r\n]*)\r?\n")
        hint = child.match.group(1)
        log.append(hint)
        child.expect(PROMPT)
        if child.after.startswith("Your bid"):
            child.sendline(hint.split(":")[0].replace("bid ", ""))
        else:
            # The up arrow recalls the last line ('hint'): readline edits, nothing is printed raw.
            child.send(UP + "\r")
            child.expect(r"hint: ([^\r\n]*)\r?\n")
            assert child.match.group(1) == hint
            child.expect(PROMPT)
            child.sendline(hint.split(" (")[0].split(":")[0])
    child.expect(PROMPT)
    child.sendintr()  # Ctrl-C in the middle of the second hand
    child.expect(pexpect.EOF)
    end = child.before or ""
    transcript = "".join(log) + end
    assert "^[[A" not in transcript and "\x1b[A" not in transcript
    assert "Interrupted: the hand in play is not scored." in end
    final = re.search(r"Goodbye\. Final score: ([^\r\n]*)", end)
    scored = re.search(r"Score: ([^\r\n]*)", "".join(log))
    assert final is not None and scored is not None
    assert final.group(1) == scored.group(1)  # the finished hand's score is kept
    assert "Aborted!" not in end and "Traceback" not in end
    assert "landlord)" in transcript and "peasant)" in transcript and "stake" in transcript
    child.close()
    assert child.exitstatus == 0
    lines = records.read_text().splitlines()
    assert len(lines) == 2  # the finished hand, and the one Ctrl-C left, marked unfinished
    assert "unfinished" not in json.loads(lines[0]) and json.loads(lines[1])["unfinished"] is True
    result = CliRunner().invoke(cli, ["replay", str(records), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["valid"] is True


def test_replay_step_goes_forward_and_back_at_a_pseudo_terminal() -> None:
    hands = Path(__file__).parent / "data" / "hands.jsonl"
    child = spawn("replay", str(hands), "--step")
    child.expect(r"Play 0 of (\d+)")
    child.expect("> ")
    child.sendline("n")
    child.expect(r"Play 1 of \d+: seat \d (played|passed)")
    child.expect("> ")
    child.sendline("n")
    child.expect(r"Play 2 of")
    child.expect("> ")
    child.sendline("p")
    child.expect(r"Play 1 of")
    child.expect("> ")
    child.sendline("e")
    child.expect(r"Play (\d+) of (\d+)")
    assert child.match.group(1) == child.match.group(2)
    child.expect("> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def scripted(seat: int, lines: list[str]) -> str:
    result = CliRunner().invoke(
        cli, ["play", "--seed", "11", "--seat", str(seat)], input="\n".join(lines) + "\n"
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_counter_plays_and_analyse_at_the_table() -> None:
    out = scripted(0, ["3", "c", "plays", "analyse", "hint", "quit"])
    assert "Card counter on." in out
    unseen = re.search(r"Unseen by you \((\d+)\): ([^\n]*)", out)
    hand = re.search(r"Your hand: ([^\n]*)", out)
    assert unseen is not None and hand is not None
    # Nothing played yet: the counter is the deck less your 20 cards.
    assert Hand.parse(unseen.group(2)) == Hand.deck() - Hand.parse(hand.group(1))
    assert unseen.group(1) == "34"
    assert re.search(r"  single \(\d+\): 3", out)
    assert advice.ANALYST in out and "your hand at fewest:" in out
    assert "now, at the landlord's lead" in out
    assert re.search(r"hint: [3-9TJQKA2BR]+ \(\w+\): \w", out)


def test_hint_in_the_auction_is_a_bid_with_its_reason() -> None:
    out = scripted(0, ["hint", "quit"])
    assert re.search(r"hint: (bid [123]|pass): hand strength -?[\d.]+ \(\d bombs?", out)


def test_plays_by_kind_groups_every_legal_play() -> None:
    hand = Hand.parse("33 444 5 22 B R")
    from cpsolver.rules.movegen import plays

    every = plays(hand)
    grouped = advice.plays_by_kind(every, shown=1000)
    listed = [Play.parse(p) for _, line in grouped for p in line.split()]
    assert sorted(listed, key=Play.sort_key) == sorted(every, key=Play.sort_key)
    kinds = [label.split(" (")[0] for label, _ in grouped]
    assert kinds == [k.value for k in Kind if any(p.kind is k for p in every)]


def endgame(hands: list[str], landlord: int = 0) -> Game:
    """A game in play with these hands, the landlord to lead."""
    game = Game.deal(1, landlord)
    game.make_bid(landlord, 3)
    game.hands = [Hand.parse(h) for h in hands]
    game.start_of_play = list(game.hands)
    return game


def test_analyst_finds_the_spring_and_the_open_hand_winner() -> None:
    game = endgame(["KKK 5 2", "AA 7", "QQQ 3 6"])
    found = advice.analyse(game, 0)
    assert sorted(str(p) for p in found.spring) == ["2", "5KKK"]
    assert found.verdict is not None and "the landlord wins" in found.verdict
    assert "your winning move" in found.verdict
    assert advice.analyse(game, 1).verdict == "with best play by everyone the landlord wins"
    # After the landlord's 2, peasant 1 is to move and cannot stop the 5KKK that follows.
    game.play(0, "2")
    peasant = advice.analyse(game, 1)
    assert peasant.verdict == "with best play by everyone the landlord wins; you cannot stop it"
    # The landlord (K 3) leads his 3; peasant 1 (AA 7) takes the lead and goes out first.
    won = endgame(["K 3", "AA 7", "QQQ 4 6"])
    won.play(0, "3")
    verdict = advice.analyse(won, 1).verdict
    assert verdict is not None and verdict.startswith("with best play by everyone the peasants win")
    assert "your winning move" in verdict


def test_analyst_leaves_big_positions_to_the_spring_question() -> None:
    game = Game.deal(3, 0)
    game.make_bid(0, 3)
    assert advice.analyse(game, 0).verdict is None  # 54 cards: no open-hand search


def test_hint_at_a_lead_and_as_an_answer() -> None:
    game = endgame(["KKK 5 2", "AA 7", "QQQ 3 6"])
    play, reason = advice.play_hint(game, 0)
    assert play is not None and reason
    game.play(0, "5KKK")
    answer, why = advice.play_hint(game, 1)
    assert answer is None and "nothing in your hand beats" in why


def test_hint_to_top_the_partner_when_the_landlord_is_nearly_out() -> None:
    game = endgame(["K 3", "4 A", "2 5 6"])
    game.bottom = Hand.parse("3")  # what the table saw of the landlord's hand: his K is unknown
    game.play(0, "3")
    game.play(1, "4")
    play, why = advice.play_hint(game, 2)
    assert play == Play.parse("2")
    assert why.startswith("the landlord, next, holds 1 card: top your partner's play")
    game.play(2, None)
    _, why = advice.play_hint(game, 0)  # the landlord answers as usual
    assert "partner" not in why
