"""cpsolver.analyse: verdicts before and after each action, against the brute force on small endgames."""

from __future__ import annotations

import pytest

from cpsolver.analysis import AnalysisError, analyse, analyse_game
from cpsolver.analysis.annotate import positions
from cpsolver.game.engine import Game
from cpsolver.game.simulation import simulate
from cpsolver.pictures.timeline import analysis_timeline
from tests.endgame_reference import winner

SMALL = 8  # cards in all hands: within the brute force's reach


def _games(count: int, seed: int) -> list[Game]:
    found: list[Game] = []
    simulate(count, seed, on_game=found.append)
    return [game for game in found if game.phase == "over"]


@pytest.mark.parametrize("seed", [5])
def test_verdicts_match_the_brute_force_on_the_late_positions(seed: int) -> None:
    for game in _games(10, seed):
        analysis = analyse_game(game, max_cards=SMALL)
        before = positions(game)
        for action, position in zip(analysis.actions, before):
            if sum(len(hand) for hand in position.hands) <= SMALL:
                expected = winner(position.hands, position.turn, position.table, position.by)
                assert action.winner_before == expected
            else:
                assert action.winner_before is None
        for action, following in zip(analysis.actions, analysis.actions[1:]):
            assert action.winner_after == following.winner_before
            decided = None not in (action.winner_before, action.winner_after)
            changed = decided and action.winner_before != action.winner_after
            assert action.blunder == (changed and action.winner_before == action.side)
            assert (action.better is not None) == action.blunder
        last = analysis.actions[-1]
        assert last.winner_after == analysis.winner and not last.blunder
        assert analysis_timeline(analysis.as_dict()).startswith("<svg")


BRUTE, SOLVED = 12, 18  # cards in all hands: the brute force's reach, and the budget here


def test_a_hundred_bot_games_verdict_changes_exactly_where_the_references_say() -> None:
    """The issue's done-when: 100 seeded bot games, every decided pair of positions checked.

    Positions of at most BRUTE cards are checked against the brute force,
    those up to SOLVED against the solver asked directly; a verdict changes
    across an action exactly when those references' verdicts do, and the
    change is a blunder exactly when it goes against the mover's side.
    """
    from cpsolver.endgame import solve

    games = _games(100, 24)
    assert len(games) >= 90
    blunders = changes = checked = 0
    for game in games:
        analysis = analyse_game(game, max_cards=SOLVED)
        truths = []
        for position in positions(game):
            cards = sum(len(hand) for hand in position.hands)
            if cards <= BRUTE:
                truths.append(winner(position.hands, position.turn, position.table, position.by))
            elif cards <= SOLVED:
                truths.append(solve(position).winner)
            else:
                truths.append(None)
        truths.append(analysis.winner)  # after the last action: the hand's result
        assert [a.winner_before for a in analysis.actions] == truths[:-1]
        assert [a.winner_after for a in analysis.actions] == truths[1:]
        for action, before, after in zip(analysis.actions, truths, truths[1:]):
            if before is None or after is None:
                assert not action.blunder
                continue
            checked += 1
            changes += before != after
            assert action.blunder == (before == action.side != after)
            blunders += action.blunder
            if action.blunder:  # the better move keeps the win, as the solver says
                assert action.better is not None and action.better != action.action
    assert checked > 500 and changes >= 5 and blunders >= 5, (checked, changes, blunders)


def test_the_readme_game_has_its_one_blunder_where_the_readme_says() -> None:
    games: list[Game] = []
    simulate(24, 1, on_game=games.append)
    analysis = analyse_game(games[-1], max_cards=28, timeout=10)
    assert [(a.index, a.action, a.better) for a in analysis.blunders] == [(18, "JJ", "B")]
    assert (analysis.winner, analysis.undecided) == (0, 7)


def test_show_draws_a_saved_analysis_and_refuses_a_broken_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from click.testing import CliRunner

    from cpsolver.cli import cli

    documents = [analyse_game(game, max_cards=SMALL).as_dict() for game in _games(3, 5)]
    saved = tmp_path / "analysis.jsonl"
    saved.write_text("".join(json.dumps(d) + "\n" for d in documents))
    page = tmp_path / "page.html"
    result = CliRunner().invoke(cli, ["show", str(saved), "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert result.output.count("result: ") == len(documents)
    assert page.read_text().count("<svg") >= len(documents)
    result = CliRunner().invoke(cli, ["show", str(saved), "--json"])
    assert [d["actions"] for d in json.loads(result.output)] == [d["actions"] for d in documents]
    broken = dict(documents[0], actions=[{**documents[0]["actions"][0], "side": 2}])
    result = CliRunner().invoke(cli, ["show", "-"], input=json.dumps(broken))
    assert result.exit_code == 2 and result.output.startswith("Error: analysis 1: ")
    assert result.output.count("\n") == 1


def test_a_record_that_is_neither_kind_is_one_error() -> None:
    with pytest.raises(AnalysisError, match="neither a cpsolver game record"):
        analyse({"foo": 1})
    with pytest.raises(AnalysisError, match="a JSON object"):
        analyse([1, 2])


def _run(args: list[str], stdin: str = "") -> tuple[int, str]:
    from click.testing import CliRunner

    from cpsolver.cli import cli

    result = CliRunner().invoke(cli, ["analyse", *args], input=stdin)
    return result.exit_code, result.output


def test_the_command_exits_3_when_a_limit_leaves_positions_undecided() -> None:
    import json

    record = json.dumps(_games(1, 5)[0].record())
    code, output = _run(["-", "--max-cards", "6", "--json"], record)
    document = json.loads(output)
    assert code == 3 and document["undecided"] > 0
    assert {"id", "actions", "result"} <= set(document)


@pytest.mark.parametrize(
    ("stdin", "args"),
    [
        ('{"x": 1}', []),
        ("not json", []),
        ('{"format": "cpsolver-game", "version": 1}', []),
        ('{"initHands": ["S3"]}', []),
        ("", ["--timeout", "0"]),
        ("", ["--total-timeout", "0"]),
        ("", ["--total-timeout", "nan"]),
        ("", ["--max-cards", "1"]),
        ("", ["--rules", "no-such-rules"]),
    ],
)
def test_bad_input_is_exit_2(stdin: str, args: list[str]) -> None:
    code, output = _run(["-", *args], stdin)
    assert code == 2 and output.strip().count("\n") == 0, output


@pytest.mark.parametrize("option", ["--svg", "--html"])
def test_an_unwritable_picture_is_one_line_and_exit_2(option: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    record = json.dumps(_games(1, 5)[0].record())
    target = tmp_path / "no-such-folder" / "picture"
    code, output = _run(["-", "--max-cards", "8", option, str(target)], record)
    assert code == 2 and output.strip().splitlines()[-1].startswith("Error: cannot write")
    assert "Traceback" not in output
