"""The strategy explorer page: self-contained, and its script walks a proof to the winner's end.

The script runs under Node.js with a small stand-in for the DOM (the page
uses only getElementById, createElement, append, replaceChildren,
textContent, onclick and disabled), clicking through every line of play.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpsolver.cli import cli

DOM = """
class El { constructor(t) { this.tag = t; this.kids = []; this._text = ""; this.disabled = false; }
  set textContent(v) { this._text = String(v); this.kids = []; }
  get textContent() { return this._text + this.kids.map(k => k.textContent).join(" "); }
  append(...k) { this.kids.push(...k); }
  replaceChildren(...k) { this.kids = k; this._text = ""; }
  buttons() { return (this.tag === "button" ? [this] : []).concat(...this.kids.map(k => k.buttons())); } }
const ids = {board: new El("div"), moves: new El("span"), strategy: new El("script")};
ids.strategy.textContent = STRATEGY;
const document = {getElementById: id => ids[id], createElement: t => new El(t)};
"""

WALK = """
// Every path: depth first over the losing side's replies, the winner's move forced.
let ends = 0, steps = 0;
function explore(depth) {
  const buttons = ids.board.buttons();
  const forward = buttons.filter(b => b.textContent !== "back");
  if (forward.length === 0) { ends += 1; if (!/wins|win\\./.test(ids.board.textContent)) throw new Error("no verdict at an end: " + ids.board.textContent); return; }
  for (let i = 0; i < forward.length; i++) {
    ids.board.buttons().filter(b => b.textContent !== "back")[i].onclick();
    steps += 1;
    explore(depth + 1);
    ids.board.buttons().find(b => b.textContent === "back").onclick();
  }
}
explore(0);
console.log(JSON.stringify({ends, steps}));
"""


def _page(tmp_path: Path, *hands: str) -> str:
    page = tmp_path / "walk.html"
    args = [arg for hand in hands for arg in ("--hand", hand)]
    result = CliRunner().invoke(cli, ["endgame", *args, "--html", str(page)])
    assert result.exit_code in (0, 1), result.output
    return page.read_text()


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the page's script")
@pytest.mark.parametrize("hands", [("KK 3 4", "QQ 5"), ("KK 5", "AA"), ("33 4", "5 6", "7")])
def test_every_path_through_the_strategy_ends_with_the_winner_out(
    hands: tuple[str, ...], tmp_path: Path
) -> None:
    html = _page(tmp_path, *hands)
    data = re.search(
        r'<script type="application/json" id="strategy">(.*?)</script>', html, re.DOTALL
    )
    script = re.search(r"<script>(.*?)</script>", html, re.DOTALL)
    assert data and script
    program = f"const STRATEGY = {json.dumps(data.group(1))};\n{DOM}\n{script.group(1)}\n{WALK}"
    done = subprocess.run(
        ["node", "-e", program], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    walked = json.loads(done.stdout)
    assert walked["ends"] >= 1  # a plan that runs out at once is one end, no step


def test_the_page_is_self_contained_and_escapes_what_it_embeds(tmp_path: Path) -> None:
    html = _page(tmp_path, "KK 3 4", "QQ 5")
    assert "http" not in html.replace("http://www.w3.org/2000/svg", "")
    assert " src=" not in html and "<link" not in html
    embedded = re.search(r'id="strategy">(.*?)</script>', html, re.DOTALL)
    assert embedded and "</" not in embedded.group(1)
    assert json.loads(embedded.group(1))["nodes"]


def test_show_of_a_strategy_writes_the_explorer(tmp_path: Path) -> None:
    proof, page = tmp_path / "s.json", tmp_path / "s.html"
    CliRunner().invoke(
        cli, ["endgame", "--hand", "KK 3 4", "--hand", "QQ 5", "--proof", str(proof)]
    )
    result = CliRunner().invoke(cli, ["show", str(proof), "--html", str(page)])
    assert result.exit_code == 0 and 'id="strategy"' in page.read_text()
