// The board: the position is the URL (?hands=...&turn=...&table=...&by=..., or
// ?landlord=...&peasant1=...&peasant2=...); it is drawn by the server with show's SVG code.
import {AskError, ask, cancel, getPosition, pictureUrl, queryString, readFile} from "./api.js";
import {startPlay, stopPlay} from "./play.js";
import {openProof} from "./proof.js";
import {openRecord} from "./record.js";
import {$, showError, tick, wins} from "./ui.js";

const POSITION_KEYS = ["hands", "landlord", "peasant1", "peasant2", "turn", "table", "by", "moves"];
const state = {query: null, view: null};

function queryFromUrl() {
  const params = new URLSearchParams(location.search);
  const query = {};
  for (const key of POSITION_KEYS) if (params.has(key)) query[key] = params.get(key);
  return query.hands || query.landlord ? query : null;
}

// Show the position `query`; `push` records it in the history (and the URL).
async function showPosition(query, push = true) {
  showError("");
  let view;
  try {
    view = await getPosition(query);
  } catch (error) {
    showError(error.message);
    return null;
  }
  state.query = view.query;
  state.view = view;
  const url = `/?${queryString(view.query)}`;
  if (push) history.pushState(view.query, "", url); else history.replaceState(view.query, "", url);
  $("share").href = url;
  $("share").textContent = location.origin + url;
  $("hands").value = view.query.hands;
  $("turn").value = view.query.turn;
  $("table").value = view.query.table || "";
  $("by").value = view.query.by ?? "";
  $("picture").src = pictureUrl(view.query);
  const mover = view.names[view.position.turn];
  const table = view.position.table;
  $("summary").textContent = table
    ? `${view.names[table.by]} played ${table.cards}; ${mover} to answer.`
    : `${mover} to lead.`;
  const isDeal = view.names.length === 3 && view.position.turn === 0 && !table;
  $("ask-spring").disabled = !isDeal;
  $("ask-odds").disabled = view.names.length !== 3;
  $("verdict").textContent = "";
  $("line").replaceChildren();
  $("board").hidden = false;
  return view;
}

async function askEndgame() {
  showError("");
  const view = state.view;
  try {
    const answer = await ask(`/api/endgame?${queryString(state.query)}`, {}, tick);
    const mover = view.names[view.position.turn];
    if (answer.winner === null) {
      $("verdict").textContent = "unknown: the time limit was reached before a verdict";
    } else if (answer.moves.length) {
      $("verdict").textContent =
        `${wins(answer.winner, view.names)}: ` +
        `${mover} to move wins with ${answer.moves.join(", ")}`;
    } else {
      $("verdict").textContent =
        `${wins(answer.winner, view.names)}: ` +
        `${mover} to move loses, whatever it plays`;
    }
    showLine(answer.line, view);
  } catch (error) {
    showError(error.message);
  }
}

// The principal line: each move a link to the position after it.
function showLine(line, view) {
  const list = $("line");
  list.replaceChildren();
  const base = state.query;
  line.forEach((step, index) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${view.names[step.hand]}: ${step.move}`;
    const moves = line.slice(0, index + 1).map((s) => s.move);
    if (index === line.length - 1) {
      button.disabled = true; // the last move ends the hand: nothing left to show
    } else {
      button.onclick = () => showPosition({...base, moves: moves.join(",")});
    }
    item.append(button);
    list.append(item);
  });
}

async function askSpring() {
  showError("");
  const [landlord, peasant1, peasant2] = state.view.position.hands;
  const text = `landlord: ${landlord}\npeasant1: ${peasant1}\npeasant2: ${peasant2}\n`;
  try {
    const answer = await ask("/api/solve", {method: "POST", body: text}, tick);
    if (answer.verdict === "spring") {
      $("verdict").textContent = `spring: the landlord plays out alone in ${answer.plan.length} plays: ` +
        answer.plan.map((step) => step.cards).join(", ");
    } else if (answer.verdict === "no_spring") {
      $("verdict").textContent = "no spring: every split of the landlord's hand has two or more answerable plays";
    } else {
      $("verdict").textContent = "unknown: the time limit was reached before a verdict";
    }
  } catch (error) {
    showError(error.message);
  }
}

async function askOdds() {
  showError("");
  const landlord = state.view.position.hands[0];
  try {
    const odds = await ask(`/api/odds?${queryString({landlord, timeout: 30})}`, {}, tick);
    $("verdict").textContent = `spring odds of ${landlord}: about ${(100 * odds.value).toFixed(1)}% ` +
      `(${odds.springs} springs in ${odds.splits} sampled splits of the unseen cards)`;
  } catch (error) {
    showError(error.message);
  }
}

async function openFile(file) {
  showError("");
  const text = await file.text();
  let parsed = null;
  try { parsed = JSON.parse(text); } catch { parsed = null; }
  const format = parsed && typeof parsed === "object" ? parsed.format : undefined;
  if (format === "cpsolver-strategy" || format === "cpsolver-proof" || format === "cpsolver-certificate") {
    openProof(text, parsed);
  } else if (format === "cpsolver-game" || (parsed === null && /"actions"/.test(text))) {
    openRecord(text);
  } else {
    try {
      const view = await readFile(text);
      showPosition(view.query);
    } catch (error) {
      showError(error instanceof AskError ? error.message : String(error));
    }
  }
}

function setUp() {
  $("setup").addEventListener("submit", (event) => {
    event.preventDefault();
    stopPlay();
    showPosition({hands: $("hands").value, turn: $("turn").value, table: $("table").value, by: $("by").value});
  });
  $("ask-endgame").onclick = askEndgame;
  $("ask-spring").onclick = askSpring;
  $("ask-odds").onclick = askOdds;
  $("cancel").onclick = cancel;
  $("play").onclick = () => startPlay(state.view, Number($("play-side").value), showPosition);
  $("file").addEventListener("change", () => { if ($("file").files[0]) openFile($("file").files[0]); });
  document.body.addEventListener("dragover", (event) => event.preventDefault());
  document.body.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer.files[0]) openFile(event.dataTransfer.files[0]);
  });
  window.addEventListener("popstate", () => {
    const query = queryFromUrl();
    if (query) showPosition(query, false);
  });
  const query = queryFromUrl();
  if (query) showPosition(query, false);
  document.body.dataset.ready = "yes";
}

setUp();
