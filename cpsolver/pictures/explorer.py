"""A strategy proof as one self-contained page a person can walk: pick a reply, see the answer.

The page holds the proof's nodes as JSON and a few lines of JavaScript, with
no server and no network: at the winner's turns it shows the proof's move;
at the other side's it offers every reply as a button; it goes back a step
on request and shows the moves made so far. Text is set with
``textContent`` only, so nothing in a document becomes markup.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from cpsolver.pictures.drawing import FONT

_SCRIPT = """
const data = JSON.parse(document.getElementById("strategy").textContent);
const names = data.names;
const path = [{node: data.root, move: null}];
const el = (tag, text) => { const e = document.createElement(tag); if (text) e.textContent = text; return e; };
function render() {
  const board = document.getElementById("board");
  board.replaceChildren();
  const here = path[path.length - 1];
  const node = data.nodes[here.node];
  const hands = el("ul");
  node.hands.forEach((cards, i) => {
    hands.append(el("li", names[i] + ": " + (cards || "(no cards)") + (i === node.turn ? "  <- to move" : "")));
  });
  board.append(hands);
  board.append(el("p", node.table ? "on the table: " + node.table.cards + " by " + names[node.table.by] : "on lead"));
  const choices = el("div");
  if (node.spring) {
    board.append(el("p", names[node.turn] + " plays out, nobody can answer: " + node.spring.map(p => p.cards).join(", ")));
    board.append(el("p", data.verdict));
  } else if (node.move) {
    const next = el("button", names[node.turn] + " (the winning side) plays " + node.move.cards);
    next.onclick = () => step(node.move);
    choices.append(next);
  } else {
    choices.append(el("p", names[node.turn] + " (the losing side): pick a reply"));
    node.replies.forEach(reply => {
      const b = el("button", reply.cards);
      b.onclick = () => step(reply);
      choices.append(b);
    });
  }
  board.append(choices);
  const back = el("button", "back");
  back.disabled = path.length === 1;
  back.onclick = () => { path.pop(); render(); };
  board.append(back);
  document.getElementById("moves").textContent =
    path.slice(1).map((p, i) => (i + 1) + ". " + p.move).join("  ") || "(no moves yet)";
}
function step(move) {
  const mover = names[data.nodes[path[path.length - 1].node].turn];
  if (move.next === null) {
    path.push({node: path[path.length - 1].node, move: mover + " " + move.cards});
    document.getElementById("board").replaceChildren(
      el("p", mover + " plays " + move.cards + " and is out of cards. " + data.verdict));
    const back = el("button", "back");
    back.onclick = () => { path.pop(); render(); };
    document.getElementById("board").append(back);
    return;
  }
  path.push({node: move.next, move: mover + " " + move.cards});
  render();
}
render();
"""


def strategy_explorer(
    document: dict[str, Any],
    title: str,
    verdict: str,
    names: Sequence[str],
    picture: str,
    notes: str = "",
) -> str:
    """The walkable page of a checked strategy ``document``: ``names`` name its hands.

    ``notes`` (a command's text report) goes under the board, as it is.
    """
    data = {
        "root": document["root"],
        "nodes": document["nodes"],
        "names": list(names),
        "verdict": verdict,
    }
    # JSON inside <script> may hold no "</": escape every "<" (JSON reads \\u003c back).
    embedded = json.dumps(data).replace("<", "\\u003c")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>body{{font-family:{FONT};margin:2em}}button{{margin:.2em;font-size:1em}}"
        "li{font-family:monospace;font-size:1.1em}</style></head>\n"
        f"<body><h1>{escape(title)}</h1>\n<figure>{picture}</figure>\n"
        '<div id="board"></div>\n<p>moves: <span id="moves"></span></p>\n'
        + (f"<pre>{escape(notes)}</pre>\n" if notes else "")
        + f'<script type="application/json" id="strategy">{embedded}</script>\n'
        f"<script>{_SCRIPT}</script>\n</body></html>\n"
    )
