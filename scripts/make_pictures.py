"""Make the manual's pictures (docs/show.md) from the code: SVG from cpsolver.pictures.svg, PNG rendered by CairoSVG.

Run from the repository root after any change to the drawing::

    python scripts/make_pictures.py          # writes docs/pictures/*.svg and *.png
    python scripts/make_pictures.py --check  # exit 1 if a committed SVG is not what the code draws

Every input is fixed (the examples and a seeded bot game), so the same code
draws the same pictures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cpsolver.game.simulation import bot_game
from cpsolver.io.dealformat import parse_deal
from cpsolver.pictures import svg
from cpsolver.spring.cpsat.explain import explain
from cpsolver.spring.search import solve

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "pictures"
GAME_SEED = 3  # a hand of the bots, played out (not thrown in)


def pictures() -> dict[str, str]:
    """The manual's pictures by file stem."""
    spring = parse_deal((ROOT / "examples" / "spring.txt").read_text(encoding="utf-8"))
    no_spring = parse_deal((ROOT / "examples" / "no_spring.txt").read_text(encoding="utf-8"))
    carriers = {
        rank: [(c.play, c.answers) for c in found]
        for rank, found in explain(no_spring).carriers.items()
    }
    game = bot_game(GAME_SEED, 0)
    assert game.landlord is not None, "the seeded hand is played, not thrown in"
    heading = f"A hand of bots (seed {GAME_SEED}), trick by trick; L is the landlord"
    played = (game.start_of_play, game.actions, game.landlord, heading, game.bottom, game.auction)
    return {
        "deal": svg.deal(spring),
        "plan": svg.plan(spring, [step.play for step in solve(spring).plan]),
        "explanation": svg.explanation(no_spring, carriers),
        "record": svg.record(*played),
    }


def main() -> int:
    """Write (or with --check, compare) the pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    stale = []
    for stem, text in pictures().items():
        path = FOLDER / f"{stem}.svg"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
            continue
        import cairosvg

        FOLDER.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        cairosvg.svg2png(bytestring=text.encode(), write_to=str(path.with_suffix(".png")))
        print(f"wrote {path.relative_to(ROOT)} and its PNG")
    if stale:
        print("stale, run scripts/make_pictures.py: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
