"""The board in a real browser: Debian's Chromium, driven by Playwright's Python API.

Load the board, enter a position and read the verdict, play a line to the end
against the solver (and throw a win away), open a proof and walk it, step
through an analysed record, open shared links. Each page is saved as a
screenshot under ``tests/artifacts/`` (git-ignored; ``CPSOLVER_ARTIFACTS``
moves it). Skipped, with the reason, where Chromium or Playwright is missing;
``.ci/run`` installs Chromium where it is missing, so CI runs them. No browser
is ever downloaded: Playwright drives the system's Chromium.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi", reason="the board needs the serve extra (fastapi, uvicorn)")
pytest.importorskip("uvicorn", reason="the board needs the serve extra (fastapi, uvicorn)")
from serving import CHROMIUM_ARGS, board, browser, wait_for, workers

sync_api, CHROMIUM = browser()

from cpsolver.cli import cli

ARGS = CHROMIUM_ARGS  # the same browser for the board and the pictures
ARTIFACTS = Path(os.environ.get("CPSOLVER_ARTIFACTS", Path(__file__).parent / "artifacts"))
TIMEOUT = 60_000  # milliseconds any one wait of the page may take
DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, int]]:
    with board() as (url, process):
        yield url, process.pid


@pytest.fixture(scope="module")
def base(served: tuple[str, int]) -> str:
    return served[0]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    opened = browser.new_page(viewport={"width": 1100, "height": 900})
    opened.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    shot(opened, request.node.name)
    opened.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    """Save the page as it is now (``docs/pictures/NAME.png`` are two of these)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def ready(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]")


def picture_drawn(page: Any, selector: str = "#picture") -> bool:
    page.wait_for_function(
        f"document.querySelector('{selector}').complete && "
        f"document.querySelector('{selector}').naturalWidth > 0"
    )
    return True


def test_the_board_loads(page: Any, base: str) -> None:
    ready(page, f"{base}/")
    assert page.title() == "cpsolver board"
    assert page.is_visible("#hands") and page.is_hidden("#board")


def test_a_position_entered_is_drawn_solved_and_put_in_the_url(page: Any, base: str) -> None:
    ready(page, f"{base}/")
    page.fill("#hands", "KK 3,QQ 4")
    page.fill("#turn", "0")
    page.click("#show")
    page.wait_for_selector("#board:not([hidden])")
    assert picture_drawn(page)
    assert page.url.endswith("/?hands=3KK,4QQ&turn=0")
    assert page.text_content("#summary") == "hand 0 to lead."
    page.click("#ask-endgame")
    page.wait_for_function("document.getElementById('verdict').textContent !== ''")
    assert page.text_content("#verdict") == "hand 0 wins: hand 0 to move wins with 3, K, KK"
    assert page.locator("#line li").all_text_contents() == [
        "hand 0: KK",
        "hand 1: pass",
        "hand 0: 3",
    ]
    shot(page, "board-verdict")
    page.click("#line li:first-child button")  # the position after the line's first move
    page.wait_for_function("document.getElementById('summary').textContent.includes('to answer')")
    assert page.text_content("#summary") == "hand 0 played KK; hand 1 to answer."


def test_a_bad_position_says_why_in_one_line(page: Any, base: str) -> None:
    ready(page, f"{base}/")
    page.fill("#hands", "KK3,QZ4")
    page.click("#show")
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert page.text_content("#error") == "hand 1: unknown card symbol 'Z' at position 2"


def _play_to_the_end(page: Any, moves: list[str]) -> None:
    """Play ``moves`` (then the first move offered) until the hand is over; at most 30 moves."""
    for turn in range(30):
        page.wait_for_function(
            "document.getElementById('play-area').dataset.over === 'yes' || "
            "document.querySelectorAll('#play-moves button').length > 0"
        )
        if page.get_attribute("#play-area", "data-over") == "yes":
            return
        choice = moves[turn] if turn < len(moves) else None
        if choice is None:
            page.click("#play-moves button >> nth=0")
        else:
            page.click(f"#play-moves button:text-is('{choice}')")
    raise AssertionError("the hand did not end")


def test_a_line_played_to_the_end_against_the_solver(page: Any, base: str) -> None:
    ready(page, f"{base}/?hands=KK3,A4&turn=0")
    page.select_option("#play-side", "0")
    page.click("#play")
    _play_to_the_end(page, ["KK", "3"])
    assert page.text_content("#play-message") == "hand 0 is out of cards: hand 0 wins. You won."
    assert page.locator("#play-log li").all_text_contents() == [
        "hand 0 (you): KK",
        "hand 1 (the solver): pass",
        "hand 0 (you): 3",
    ]
    assert page.text_content("#play-warning") == ""


def test_the_board_says_when_a_move_throws_the_win_away(page: Any, base: str) -> None:
    ready(page, f"{base}/?hands=KK3,A4&turn=0")
    page.select_option("#play-side", "0")
    page.click("#play")
    page.wait_for_selector("#play-moves button")
    page.click("#play-moves button:text-is('3')")
    page.wait_for_function("document.getElementById('play-warning').textContent !== ''")
    page.wait_for_selector("#play-moves button")
    shot(page, "board-play")
    assert page.text_content("#play-warning").startswith(
        "3 throws the win away: hand 1 wins with best play now (winning moves were KK)"
    )
    _play_to_the_end(page, [])
    assert page.text_content("#play-message").endswith("The solver won.")


def test_a_proof_opened_is_checked_and_walked(page: Any, base: str, tmp_path: Path) -> None:
    proof = tmp_path / "strategy.json"
    CliRunner().invoke(
        cli, ["endgame", "--hand", "KK 5 3", "--hand", "AA 4", "--proof", str(proof)]
    )
    ready(page, f"{base}/")
    page.set_input_files("#file", str(proof))
    page.wait_for_function("document.getElementById('proof-verdict').textContent !== ''")
    assert page.text_content("#proof-verdict") == (
        "valid: hand 1 wins: a strategy of 13 positions, every reply of the other side answered"
    )
    assert picture_drawn(page, "#proof-picture")
    assert page.text_content("#proof-node") == "hand 0 (the losing side): pick a reply"
    replies = page.locator("#proof-choices button").all_text_contents()
    assert replies == ["3", "5", "K", "KK"]
    page.click("#proof-choices button:text-is('KK')")
    assert page.text_content("#proof-node") == "hand 1 (the winning side) plays AA"
    page.click("#proof-choices button")  # the winner's answer
    assert page.text_content("#proof-moves") == "1. hand 0 KK  2. hand 1 AA"
    page.click("#proof-back")
    page.click("#proof-back")
    assert page.text_content("#proof-moves") == "(no moves yet)"
    for _ in range(10):  # walk to the end, always the first reply: at most 10 moves
        if page.locator("#proof-choices button").count() == 0:
            break
        page.click("#proof-choices button >> nth=0")
    assert ": hand 1 wins: a strategy of 13 positions" in page.text_content("#proof-node")


def test_a_record_is_analysed_and_stepped_through(page: Any, base: str, tmp_path: Path) -> None:
    record = tmp_path / "hand.jsonl"
    record.write_text((DATA / "hands.jsonl").read_text().splitlines()[0] + "\n")
    ready(page, f"{base}/")
    page.set_input_files("#file", str(record))
    page.wait_for_function(
        "document.getElementById('record-actions').children.length > 0", timeout=90_000
    )
    assert page.text_content("#record-step").startswith("as play began")
    assert picture_drawn(page, "#record-picture")
    page.click("#record-next")
    assert page.text_content("#record-step").startswith("after action 1: ")
    assert page.locator("#record-actions li.current").count() == 1
    page.click("#record-prev")
    assert page.text_content("#record-step").startswith("as play began")


def test_a_shared_link_opens_its_deal(page: Any, base: str) -> None:
    deal = {  # examples/spring.txt
        "landlord": "333444555 TJQKA AAA 22 R",
        "peasant1": "666 77 888 99 TT JJ Q KK",
        "peasant2": "3 4 5 6 77 8 99 T J QQ K 22 B",
    }
    ready(page, f"{base}/?{urllib.parse.urlencode(deal)}")
    page.wait_for_selector("#board:not([hidden])")
    assert picture_drawn(page)
    assert page.text_content("#summary") == "landlord to lead."
    assert page.input_value("#hands").split(",")[0] == "333444555TJQKAAAA22R"
    assert "hands=" in page.url  # the link is now the position's
    page.click("#ask-spring")
    page.wait_for_function("document.getElementById('verdict').textContent !== ''")
    assert page.text_content("#verdict").startswith(
        "spring: the landlord plays out alone in 3 plays"
    )


def test_a_shared_link_opens_mid_trick(page: Any, base: str) -> None:
    ready(page, f"{base}/?hands=KKK25,AA7,QQQ36&turn=1&table=5&by=0")
    page.wait_for_selector("#board:not([hidden])")
    assert picture_drawn(page)
    assert page.text_content("#summary") == "landlord played 5; peasant 1 to answer."
    page.click("#ask-endgame")
    page.wait_for_function("document.getElementById('verdict').textContent !== ''")
    assert page.text_content("#verdict").startswith("the ")


def test_a_solve_is_cancelled_and_its_worker_ended(page: Any, served: tuple[str, int]) -> None:
    base, session = served
    deal = {  # examples/no_spring.txt, open-handed: far more than a moment's search
        "landlord": "34455666778999QKKAA2",
        "peasant1": "3334578889TJJQKAB",
        "peasant2": "4567TTTJJQQKA222R",
    }
    ready(page, f"{base}/?{urllib.parse.urlencode(deal)}")
    page.wait_for_selector("#board:not([hidden])")
    page.click("#ask-endgame")
    page.wait_for_selector("#working:not([hidden])")
    assert wait_for(lambda: len(workers(session)) == 1, 15), "no worker started"
    page.wait_for_function("document.getElementById('elapsed').textContent.startsWith('solving')")
    page.click("#cancel")
    page.wait_for_function("document.getElementById('error').textContent === 'cancelled'")
    assert page.is_hidden("#working")
    assert wait_for(lambda: not workers(session), 15), "the worker outlived its cancel"
