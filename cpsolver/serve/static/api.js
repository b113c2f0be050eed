// The board's calls to the server: every answer JSON, every refusal {"error": LINE}.
// One question runs at a time; cancel() aborts it, and the server ends its worker.

let running = null;

export class AskError extends Error {}

export function queryString(query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== null && value !== undefined && value !== "") params.set(key, String(value));
  }
  return params.toString().replaceAll("%2C", ",");  // hands=KK3,QQ4 reads as written
}

async function call(url, options = {}) {
  const response = await fetch(url, options);
  const text = await response.text();
  let body;
  try { body = JSON.parse(text); } catch { body = null; }
  if (!response.ok) {
    throw new AskError(body && body.error ? body.error : `${response.status} ${response.statusText}`);
  }
  return body;
}

export function getPosition(query) {
  return call(`/api/position?${queryString(query)}`);
}

export function pictureUrl(query) {
  return `/api/picture?${queryString(query)}`;
}

export function readFile(text) {
  return call("/api/read", {method: "POST", body: text, headers: {"content-type": "text/plain"}});
}

// A question for a worker: shows the elapsed time and the Cancel button while it runs.
export async function ask(path, options = {}, onTick = () => {}) {
  cancel();
  const controller = new AbortController();
  running = controller;
  const started = performance.now();
  const timer = setInterval(() => onTick((performance.now() - started) / 1000), 100);
  onTick(0);
  try {
    return await call(path, {...options, signal: controller.signal});
  } catch (error) {
    if (error.name === "AbortError") throw new AskError("cancelled");
    throw error;
  } finally {
    clearInterval(timer);
    if (running === controller) running = null;
    onTick(null);
  }
}

export function cancel() {
  if (running !== null) running.abort();
  running = null;
}
