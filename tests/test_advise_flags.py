"""cpsolver advise with the view typed as flags: --hand, --role, --bottom, --played, --counts.

The flags are the VIEW JSON with the landlord in seat 0, and give its very advice."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cpsolver.analysis.advise import ROLE_FLAGS, view_at, view_dict, view_from_dict
from cpsolver.cli import cli
from cpsolver.game.engine import Game
from cpsolver.game.simulation import simulate
from cpsolver.game.view import View

LABELS = ("L", "P1", "P2")


def _late_views(count: int, seed: int) -> list[View]:
    games: list[Game] = []
    simulate(count, seed, on_game=games.append)
    views = []
    for game in games:
        if game.phase != "over":
            continue
        for at in range(len(game.actions)):
            view = view_at(game, at)
            if sum(view.counts) <= 16:
                views.append(view)
                break
    return views


def _flags(view: View) -> list[str]:
    """The view as advise's flags, seats counted from the landlord."""
    assert view.landlord is not None
    landlord = view.landlord
    played = " ".join(
        f"{LABELS[(seat - landlord) % 3]}:{'pass' if play is None else str(play).replace(' ', '')}"
        for seat, play in view.actions
    )
    counts = ",".join(str(view.counts[(landlord + k) % 3]) for k in range(3))
    role = ROLE_FLAGS[(view.seat - landlord) % 3]
    flags = ["--hand", str(view.hand), "--role", role, "--bottom", str(view.bottom)]
    return [*flags, "--played", played, "--counts", counts]


def _as_json(view: View) -> str:
    """The same view as VIEW JSON, the landlord moved to seat 0 as the flags have it."""
    assert view.landlord is not None
    landlord = view.landlord
    return json.dumps(
        {
            "seat": (view.seat - landlord) % 3,
            "hand": str(view.hand),
            "landlord": 0,
            "bottom": str(view.bottom),
            "actions": [
                {"seat": (seat - landlord) % 3, "cards": "pass" if play is None else str(play)}
                for seat, play in view.actions
            ],
            "counts": [view.counts[(landlord + k) % 3] for k in range(3)],
        }
    )


def _advise(*args: str, stdin: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["advise", *args], input=stdin)
    return result.exit_code, result.output


def test_the_flags_give_the_advice_of_the_same_view_as_json() -> None:
    views = _late_views(12, 5)
    assert len(views) >= 4 and {(v.seat - (v.landlord or 0)) % 3 for v in views} == {0, 1, 2}
    for view in views[:6]:
        common = ["--json", "--samples", "6", "--seed", "3"]
        code, from_flags = _advise(*_flags(view), *common)
        assert code == 0, from_flags
        code, from_json = _advise("-", *common, stdin=_as_json(view))
        assert code == 0 and json.loads(from_flags) == json.loads(from_json)


def test_the_text_of_the_flags_is_the_view_json() -> None:
    data = view_dict("KK3", "peasant1", "JQK", "L:5 P1:pass, p2:6 landlord:PASS", "10,3,16")
    assert data == {
        "seat": 1,
        "hand": "KK3",
        "landlord": 0,
        "bottom": "JQK",
        "actions": [
            {"seat": 0, "cards": "5"},
            {"seat": 1, "cards": "pass"},
            {"seat": 2, "cards": "6"},
            {"seat": 0, "cards": "pass"},
        ],
        "counts": [10, 3, 16],
    }
    view = view_from_dict(data)
    assert (view.seat, view.counts, len(view.actions)) == (1, (10, 3, 16), 4)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["-", "--hand", "KK3", "--role", "landlord"], "give a RECORD or VIEW file, or the view"),
        ([], "give a RECORD or VIEW file, or the view as flags"),
        (["--hand", "KK3"], "needs --hand and --role at least"),
        (["--hand", "KK3", "--role", "king"], "'king' is not one of"),
        (["--hand", "KK3", "--role", "landlord", "--at", "2"], "--at is for records"),
        (["--hand", "KKZ", "--role", "landlord", "--counts", "3,1,1"], "unknown card symbol"),
        (["--hand", "KK3", "--role", "landlord", "--played", "L33"], "an action is SEAT:CARDS"),
        (["--hand", "KK3", "--role", "landlord", "--played", "Q:33"], "an action is SEAT:CARDS"),
        (["--hand", "KK3", "--role", "landlord", "--counts", "3,1"], "counts are three numbers"),
        (
            ["--hand", "KK3", "--role", "landlord", "--bottom", "AAA", "--counts", "3,17,17"],
            "the bottom cards are neither",
        ),
        (
            [
                *("--hand", "KK3", "--role", "peasant1", "--counts", "16,3,17"),
                *("--played", "L:KK P1:pass P2:pass L:KK"),
            ],
            "hold 6 of K, the deck has 4",
        ),
        (
            ["--hand", "KKK3", "--role", "peasant1", "--played", "L:KK", "--counts", "18,4,17"],
            "hold 5 of K, the deck has 4",
        ),
        (
            ["--hand", "KK3", "--role", "peasant1", "--played", "P1:3"],
            "action 1 is seat 1's, out of turn",
        ),
        (
            ["--hand", "KK3", "--role", "peasant1", "--played", "L:5 P1:4"],
            "action 2: 4 does not beat 5",
        ),
        (["--hand", "KK3", "--role", "landlord", "--counts", "3,30,30"], "the other seats hold 60"),
        (
            ["--hand", "KK3", "--role", "peasant2", "--counts", "20,17,3"],
            "after 0 actions it is seat 0's turn, not seat 2's",
        ),
        (["--hand", "KK3", "--role", "landlord"], "the seat holds 3 cards, but the counts say 20"),
    ],
)
def test_bad_flags_are_one_line_and_exit_2(args: list[str], said: str) -> None:
    code, output = _advise(*args, stdin="{}")
    assert code == 2 and said in output and output.strip().count("\n") == 0, output
