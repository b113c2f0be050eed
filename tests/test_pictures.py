"""Pictures: SVG parsed as XML against golden files, rendered by CairoSVG, shown in notebooks.

Golden files are made by the code: ``CPSOLVER_UPDATE_GOLDEN=1 pytest
tests/test_pictures.py`` rewrites them, and the diff is reviewed like code.
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolver.game.engine import Game, replay
from cpsolver.game.simulation import bot_game
from cpsolver.io.dealformat import parse_deal
from cpsolver.pictures import svg
from cpsolver.pictures.annotate import group_ranks, tricks, unseen
from cpsolver.rules.cards import DECK_COUNTS, RANK_COUNT, Deal, Hand
from cpsolver.rules.plays import Play
from cpsolver.rules.position import Position
from cpsolver.spring.cpsat.explain import explain
from cpsolver.spring.search import solve

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "data" / "svg"
NS = "{http://www.w3.org/2000/svg}"
SPRING = parse_deal((ROOT / "examples" / "spring.txt").read_text())
NO_SPRING = parse_deal((ROOT / "examples" / "no_spring.txt").read_text())
RECORD = json.loads((Path(__file__).parent / "data" / "hands.jsonl").read_text().splitlines()[0])


def pictures() -> dict[str, str]:
    """Every kind of picture, from fixed inputs."""
    plan = [step.play for step in solve(SPRING).plan]
    carriers = {
        rank: [(c.play, c.answers) for c in found]
        for rank, found in explain(NO_SPRING).carriers.items()
    }
    game = replay(RECORD)
    assert game.landlord is not None
    return {
        "hand": svg.hand(Hand.parse("33 444 5 22 B R")),
        "deal": svg.deal(SPRING),
        "position": svg.position(Position.parse(["KK 5", "AA"], turn=1, table="5", by=0)),
        "plan": svg.plan(SPRING, plan),
        "answerable_plan": svg.plan(
            Deal.parse("333 44", "55", "6"), [Play.parse("333"), Play.parse("44")]
        ),
        "explanation": svg.explanation(NO_SPRING, carriers),
        "record": svg.record(
            game.start_of_play,
            game.actions,
            game.landlord,
            "a recorded hand",
            game.bottom,
            game.auction,
        ),
    }


PICTURES = pictures()


def canonical(text: str) -> str:
    return ET.canonicalize(text, strip_text=True)


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_svg_is_xml_and_matches_its_golden_file(name: str) -> None:
    text = PICTURES[name]
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("CPSOLVER_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert canonical(text) == canonical(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_svg_is_self_contained_and_titled(name: str) -> None:
    text = PICTURES[name]
    root = ET.fromstring(text)
    assert root[0].tag == f"{NS}title" and root[0].text
    for element in root.iter():
        assert element.tag not in (f"{NS}script", f"{NS}image", f"{NS}foreignObject")
        for key, value in element.attrib.items():
            assert "href" not in key and "url(" not in value, (key, value)
    assert "@import" not in text and "http://" not in text.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )


def hand_titles(text: str) -> list[str]:
    root = ET.fromstring(text)
    return [g[0].text or "" for g in root.iter(f"{NS}g") if g[0].tag == f"{NS}title"]


def test_deal_titles_name_every_card_of_every_hand() -> None:
    titles = hand_titles(PICTURES["deal"])
    for role, hand in zip(("landlord", "peasant 1", "peasant 2"), SPRING.hands):
        (title,) = [t for t in titles if t.startswith(role + ",")]
        named = title.split(": ", 1)[1].replace("black joker", "B").replace("red joker", "R")
        assert Hand.parse(named) == hand


def test_deal_draws_one_tile_a_card() -> None:
    root = ET.fromstring(PICTURES["deal"])
    tiles = [r for r in root.iter(f"{NS}rect") if r.get("fill") == "#fffdf7"]
    assert len(tiles) == 54


def test_plan_marks_exactly_the_answerable_play() -> None:
    # 333 is safe (nobody holds a triplet), 44 is answered by peasant 1's 55.
    text = PICTURES["answerable_plan"]
    marks = [r for r in ET.fromstring(text).iter(f"{NS}rect") if r.get("stroke") == svg.MARK]
    assert len(marks) == 1
    assert "answerable: peasant 1 with 55 (played last)" in text
    assert "nobody can answer" in text
    safe_plan = PICTURES["plan"]
    assert not [
        r for r in ET.fromstring(safe_plan).iter(f"{NS}rect") if r.get("stroke") == svg.MARK
    ]


def test_record_timeline_has_a_row_a_trick_and_every_action() -> None:
    game = replay(RECORD)
    assert game.landlord is not None
    text = PICTURES["record"]
    title = ET.fromstring(text)[0].text or ""
    assert title.count("passes") == sum(play is None for _, play in game.actions)
    rows = tricks(game.start_of_play, game.actions)
    assert sum(len(t) for t in rows) == len(game.actions)


def png_size_and_colours(png: bytes) -> tuple[int, int, int]:
    """Width, height and number of distinct byte values in the pixel data of a PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    data, offset = b"", 8
    while offset < len(png):
        length = struct.unpack(">I", png[offset : offset + 4])[0]
        kind = png[offset + 4 : offset + 8]
        if kind == b"IDAT":
            data += png[offset + 8 : offset + 8 + length]
        offset += 12 + length
    return width, height, len(set(zlib.decompress(data)))


@pytest.mark.parametrize("name", ["deal", "plan", "record"])
def test_a_real_renderer_draws_the_pictures(name: str) -> None:
    import cairosvg  # a test dependency: CI renders with it

    text = PICTURES[name]
    png = cairosvg.svg2png(bytestring=text.encode())
    width, height, colours = png_size_and_colours(png)
    match = re.search(r'width="([\d.]+)" height="([\d.]+)"', text)
    assert match is not None
    assert (width, height) == (round(float(match.group(1))), round(float(match.group(2))))
    assert colours > 20  # text, tiles and colours, not a blank page


def test_core_does_not_load_the_drawing_modules() -> None:
    code = (
        "import sys, cpsolver.rules.cards, cpsolver.rules.plays, cpsolver.spring, cpsolver.rules.movegen;"
        "print(sorted(m for m in sys.modules if m in ('cpsolver.pictures.svg', 'rich', 'cpsolver.pictures.terminal')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_notebook_representations() -> None:
    game = bot_game(3, 0)
    for thing in (
        Hand.parse("33R"),
        SPRING,
        Play.parse("333444 5 6"),
        solve(SPRING),
        game,
        Game.deal(5, 0),  # still in the auction: the hands as dealt
    ):
        picture = thing._repr_svg_()
        ET.fromstring(picture)
        html = thing._repr_html_()
        assert html.startswith("<figure>") and picture.strip() in html


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=RANK_COUNT, max_size=RANK_COUNT))
def test_groups_and_card_names_keep_every_card(counts: list[int]) -> None:
    hand = Hand([min(c, d) for c, d in zip(counts, DECK_COUNTS)])
    assert Hand.parse("".join(group_ranks(hand))) == hand
    names = svg.card_names(hand).replace("black joker", "B").replace("red joker", "R")
    assert Hand.parse(names if hand else "") == hand
    assert unseen(hand, []) == Hand.deck() - hand
