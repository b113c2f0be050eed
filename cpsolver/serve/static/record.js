// A recorded game analysed by the server (/api/analyse, the CLI's analyse --json):
// step through its actions, each with who wins before and after it, the blunders marked.
import {ask, pictureUrl} from "./api.js";
import {$, item, showError, tick} from "./ui.js";

const SIDES = ["the landlord", "the peasants"];

function winner(side) { return side === null ? "undecided" : `${SIDES[side]} win${side ? "" : "s"}`; }

export async function openRecord(text) {
  showError("");
  $("record-area").hidden = false;
  $("record-actions").replaceChildren();
  $("record-summary").textContent = "analysing…";
  let analyses;
  try {
    analyses = await ask("/api/analyse?timeout=20", {method: "POST", body: text}, tick);
  } catch (error) {
    $("record-summary").textContent = "";
    showError(error.message);
    return;
  }
  const game = analyses[0];
  if (!game || game.landlord === null) {
    $("record-summary").textContent = "a hand thrown in: nothing was played";
    return;
  }
  const seats = [0, 1, 2].map((s) => (s - game.landlord + 3) % 3);  // seat -> hand in turn order
  const roleOf = (seat) => ["landlord", "peasant 1", "peasant 2"][seats[seat]];
  const hands = [0, 1, 2].map((i) => game.hands[(game.landlord + i) % 3]);
  $("record-summary").textContent = `${game.id}: ${winner(game.result.side)}; ` +
    `${game.blunders} blunder${game.blunders === 1 ? "" : "s"}, ${game.undecided} positions undecided` +
    (analyses.length > 1 ? ` (the first of ${analyses.length} hands)` : "");
  const list = $("record-actions");
  game.actions.forEach((action) => {
    const entry = item(`${roleOf(action.seat)}: ${action.action} — before: ${winner(action.winner_before)}, ` +
      `after: ${winner(action.winner_after)}` + (action.blunder ? ` — blunder (better: ${action.better})` : ""));
    if (action.blunder) entry.classList.add("blunder");
    list.append(entry);
  });
  let step = 0;  // actions made
  const render = () => {
    [...list.children].forEach((entry, index) => entry.classList.toggle("current", index === step - 1));
    const moves = game.actions.slice(0, step).map((a) => a.action);
    $("record-picture").src = pictureUrl({hands: hands.join(","), turn: 0, moves: moves.join(",")});
    $("record-step").textContent = step === 0
      ? `as play began: ${winner(game.actions.length ? game.actions[0].winner_before : null)}`
      : `after action ${step}: ${game.actions[step - 1].action} by ${roleOf(game.actions[step - 1].seat)}; ` +
        winner(game.actions[step - 1].winner_after);
    $("record-prev").disabled = step === 0;
    $("record-next").disabled = step >= game.actions.length - 1;
  };
  $("record-prev").onclick = () => { if (step > 0) { step -= 1; render(); } };
  $("record-next").onclick = () => { if (step < game.actions.length - 1) { step += 1; render(); } };
  render();
}
