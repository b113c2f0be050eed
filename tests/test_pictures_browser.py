"""No picture cuts its text off: every text element's box, as Chromium lays it out, lies inside.

The extreme cases: hands of one card and of twenty, every name "to move",
the longest play on the table, the longest notes of a plan, a record's long
heading. Each picture is set into a page of its own (no server) and every
``<text>``'s ``getBBox()`` is held to the picture's ``viewBox``. Skipped, with
the reason, where Chromium or Playwright is missing (``.ci/run`` installs
Chromium).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serving import CHROMIUM_ARGS as ARGS
from serving import browser

sync_api, CHROMIUM = browser()


from cpsolver.game.engine import replay
from cpsolver.io.dealformat import parse_deal
from cpsolver.pictures import svg
from cpsolver.pictures.strategyline import line_picture
from cpsolver.rules.cards import Deal, Hand
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.spring.cpsat.explain import explain
from cpsolver.spring.search import solve

ROOT = Path(__file__).parent.parent
NO_SPRING = parse_deal((ROOT / "examples" / "no_spring.txt").read_text())
SPRING = parse_deal((ROOT / "examples" / "spring.txt").read_text())
RECORD = json.loads((Path(__file__).parent / "data" / "hands.jsonl").read_text().splitlines()[0])

# Measure every text against its picture's viewBox; give back what spills, and by how much.
MEASURE = """() => {
  const found = [];
  for (const picture of document.querySelectorAll("body > svg")) {
    const box = picture.viewBox.baseVal;
    for (const text of picture.querySelectorAll("text")) {
      const b = text.getBBox();
      if (b.x < box.x - 0.5 || b.y < box.y - 0.5 || b.x + b.width > box.x + box.width + 0.5 ||
          b.y + b.height > box.y + box.height + 0.5) {
        found.push([picture.dataset.name, text.textContent, Math.round(b.x), Math.round(b.width),
                    Math.round(box.width)]);
      }
    }
  }
  return found;
}"""


def extremes() -> dict[str, str]:
    """The pictures most likely to spill: long and short hands, long names, long notes."""
    big = Position(
        (NO_SPRING.landlord - Hand.parse("3"), *NO_SPRING.hands[1:]), 1, Play.parse("3"), 0
    )
    ones = Position.parse(["3", "4", "5"], turn=1, table="2", by=0)
    chain = Position.parse(["3456789TJQKA", "3", "4"], turn=2, table="34567", by=1)
    game = replay(RECORD)
    assert game.landlord is not None
    return {
        "hand of one": svg.hand(Hand.parse("3")),
        "full deal": svg.deal(NO_SPRING),
        "one card each, peasant 1 to move": svg.position(ones),
        "twenty cards, peasant 1 to move": svg.position(big),
        "a long chain on the table": svg.position(chain),
        "two hands of one": svg.position(Position.parse(["3", "4"], turn=1, table="2", by=0)),
        "a plan": svg.plan(SPRING, [step.play for step in solve(SPRING).plan]),
        "an answerable plan": svg.plan(
            Deal.parse("333 44", "55 2", "6 B"), [Play.parse("333"), Play.parse("44")]
        ),
        "an explanation": svg.explanation(
            NO_SPRING,
            {
                rank: [(c.play, c.answers) for c in found]
                for rank, found in explain(NO_SPRING).carriers.items()
            },
        ),
        "a strategy's line": line_picture(
            ["landlord", "peasant 1", "peasant 2"],
            [(1, "3456789TJQKA"), (2, "pass"), (0, "B"), (1, "pass"), (2, "pass"), (0, "R")],
            "The peasants win with best play; the winning move: 3456789TJQKA. A line:",
        ),
        "a record, long heading": svg.record(
            game.start_of_play,
            game.actions,
            game.landlord,
            "A hand of bots (seed 3), trick by trick; L is the landlord, P1 and P2 the peasants",
            game.bottom,
            game.auction,
        ),
    }


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        opened = browser.new_page()
        yield opened
        browser.close()


def test_no_text_is_cut_off(page: Any) -> None:
    pictures = extremes()
    body = "".join(
        picture.replace("<svg ", f'<svg data-name="{name}" ', 1)
        for name, picture in pictures.items()
    )
    page.set_content(f"<!DOCTYPE html><html><body>{body}</body></html>")
    assert page.locator("body > svg").count() == len(pictures)
    spilled = page.evaluate(MEASURE)
    assert not spilled, spilled
