// A proof checked by the server (/api/verify, the CLI's verify --json), and a strategy walked:
// at the winner's turns the proof's move, at the other side's every reply as a button.
import {ask, pictureUrl} from "./api.js";
import {$, button, showError, tick, wins} from "./ui.js";

function names(count) {
  return count === 3 ? ["landlord", "peasant 1", "peasant 2"] : ["hand 0", "hand 1"];
}

function verdictWords(answer, document) {
  if (!answer.valid) return `invalid: ${answer.failure}`;
  if ("winner" in answer) {
    return `valid: ${wins(answer.winner, names(document.position.hands.length))}: a strategy of ` +
      `${answer.nodes} positions, every reply of the other side answered`;
  }
  if (answer.verdict === "spring") return `valid: a spring in ${answer.steps} plays, every step checked`;
  return `valid: no spring: the landlord's cards ${answer.blocking} cannot all be played ` +
    `(${answer.lemmas} proof lines checked)`;
}

export async function openProof(text, document) {
  showError("");
  $("proof-area").hidden = false;
  $("proof-choices").replaceChildren();
  $("proof-node").textContent = "";
  $("proof-moves").textContent = "";
  $("proof-picture").hidden = true;
  $("proof-back").hidden = true;
  let answer;
  try {
    answer = await ask("/api/verify", {method: "POST", body: text}, tick);
  } catch (error) {
    $("proof-verdict").textContent = "";
    showError(error.message);
    return;
  }
  $("proof-verdict").textContent = verdictWords(answer, document);
  if (answer.valid && document.format === "cpsolver-strategy") walk(document, verdictWords(answer, document));
}

function walk(document, verdict) {
  const who = names(document.position.hands.length);
  const path = [{node: document.root, move: null, over: false}];
  const render = () => {
    const here = path[path.length - 1];
    const node = document.nodes[here.node];
    const choices = $("proof-choices");
    choices.replaceChildren();
    $("proof-back").hidden = false;
    $("proof-back").disabled = path.length === 1;
    $("proof-moves").textContent = path.slice(1).map((p, i) => `${i + 1}. ${p.move}`).join("  ") || "(no moves yet)";
    if (here.over) {
      $("proof-node").textContent = `${here.move} and is out of cards: ${verdict.replace(/^valid: /, "")}`;
      return;
    }
    $("proof-picture").hidden = false;
    $("proof-picture").src = pictureUrl({
      hands: node.hands.join(","), turn: node.turn,
      table: node.table ? node.table.cards : "", by: node.table ? node.table.by : "",
    });
    const mover = who[node.turn];
    const step = (move) => {
      const words = `${mover} ${move.cards}`;
      path.push(move.next === null ? {node: here.node, move: words, over: true} : {node: move.next, move: words, over: false});
      render();
    };
    if (node.spring) {
      $("proof-node").textContent = `${mover} plays out, nobody can answer: ` +
        `${node.spring.map((p) => p.cards).join(", ")}: ${verdict.replace(/^valid: /, "")}`;
    } else if (node.move) {
      $("proof-node").textContent = `${mover} (the winning side) plays ${node.move.cards}`;
      choices.append(button(`${mover} plays ${node.move.cards}`, () => step(node.move)));
    } else {
      $("proof-node").textContent = `${mover} (the losing side): pick a reply`;
      for (const reply of node.replies) choices.append(button(reply.cards, () => step(reply)));
    }
  };
  $("proof-back").onclick = () => { if (path.length > 1) { path.pop(); render(); } };
  render();
}
