// What every part of the page shares: finding elements, the error line, the clock of a solve.

export const $ = (id) => document.getElementById(id);

export function showError(message) { $("error").textContent = message || ""; }

export function tick(seconds) {
  $("working").hidden = seconds === null;
  if (seconds !== null) $("elapsed").textContent = `solving… ${seconds.toFixed(1)} s`;
}

// How a side is called: the landlord or the peasants, or hand 0 / hand 1.
export function sideWords(side, names) {
  if (names.length === 3) return side === 0 ? "the landlord" : "the peasants";
  return names[side === 0 ? 0 : 1];
}

export function wins(side, names) {
  return `${sideWords(side, names)} win${names.length === 3 && side ? "" : "s"}`;
}

export function button(text, onclick) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  element.onclick = onclick;
  return element;
}

export function item(text) {
  const element = document.createElement("li");
  element.textContent = text;
  return element;
}
