// Play either side against the solver: it answers with best play (the line's first move),
// and says the moment a move of yours throws a win away (a move not among the winning ones).
import {ask, queryString} from "./api.js";
import {$, button, item, showError, tick, wins} from "./ui.js";

let game = null;

export function stopPlay() {
  game = null;
  $("play-area").hidden = true;
}

// Start a game from `view`; the person plays side `side`; `show` draws a position (and gives its view).
export async function startPlay(view, side, show) {
  if (!view) return;
  const current = {side, show};
  game = current;
  $("play-area").hidden = false;
  $("play-area").dataset.over = "no";
  $("play-log").replaceChildren();
  $("play-message").textContent = "";
  $("play-warning").textContent = "";
  await turn(view, current);
}

async function turn(view, current) {
  if (game !== current) return;
  $("play-moves").replaceChildren();
  let answer;
  try {
    answer = await ask(`/api/endgame?${queryString(view.query)}`, {}, tick);
  } catch (error) {
    showError(error.message);
    return;
  }
  if (game !== current) return;
  const mover = view.names[view.position.turn];
  if (view.side_of_turn === current.side) {
    const outlook = answer.winner === null
      ? "the solver has no verdict in time"
      : answer.winner === current.side ? "you win with best play" : "you lose against best play";
    $("play-message").textContent = `Your move, as ${mover}: ${outlook}.`;
    for (const move of view.moves) {
      $("play-moves").append(button(move.move, () => played(view, move, answer, current, true)));
    }
    return;
  }
  $("play-message").textContent = `The solver plays ${mover}…`;
  const choice = answer.line.length ? answer.line[0].move : view.moves[0].move;
  const move = view.moves.find((m) => m.move === choice) || view.moves[0];
  await played(view, move, answer, current, false);
}

async function played(view, move, answer, current, byPerson) {
  if (game !== current) return;
  $("play-moves").replaceChildren();
  const names = view.names;
  const mover = names[view.position.turn];
  const entry = item(`${mover} (${byPerson ? "you" : "the solver"}): ${move.move}`);
  if (byPerson) {
    $("play-warning").textContent = "";
    if (answer.winner === current.side && !answer.moves.includes(move.move)) {
      const warning = `${move.move} throws the win away: ${wins(1 - current.side, names)} with best play now ` +
        `(winning moves were ${answer.moves.join(", ")})`;
      $("play-warning").textContent = warning;
      entry.textContent += ` (${warning})`;
      entry.className = "blunder";
    }
  }
  $("play-log").append(entry);
  if (move.next === null) {
    const side = view.side_of_turn;
    $("play-message").textContent = `${mover} is out of cards: ${wins(side, names)}. ` +
      (side === current.side ? "You won." : "The solver won.");
    $("play-area").dataset.over = "yes";
    return;
  }
  const next = await current.show(move.next, false);
  if (next) await turn(next, current);
}
