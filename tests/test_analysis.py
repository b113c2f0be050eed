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
        ("", ["--max-cards", "1"]),
    ],
)
def test_bad_input_is_exit_2(stdin: str, args: list[str]) -> None:
    code, output = _run(["-", *args], stdin)
    assert code == 2 and output.strip().count("\n") == 0, output
