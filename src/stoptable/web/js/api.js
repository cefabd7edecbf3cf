// The HTTP part of the protocol (protocol.md §2) and the token kept in the browser.

async function call(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const detail = data && typeof data === "object" && data.detail ? data.detail : `${res.status}`;
    const err = new Error(typeof detail === "string" ? detail : JSON.stringify(detail));
    err.status = res.status;
    throw err;
  }
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  tables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (body) => call("POST", "/api/tables", body),
  claim: (id, seat, name) =>
    call("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}`, { name }),
  replay: (id, upto) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay?upto=${upto}`),
  recordUrl: (id) => `/api/tables/${encodeURIComponent(id)}/record`,
  mapUrl: (id) => `/api/tables/${encodeURIComponent(id)}/map.svg`,
};

const KEY = "stoptable:seat:";

/** The seat and token this browser holds at table `id`, or null. */
export function loadSeat(id) {
  try {
    const raw = localStorage.getItem(KEY + id);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

export function saveSeat(id, seat) {
  localStorage.setItem(KEY + id, JSON.stringify(seat));
}

export function forgetSeat(id) {
  localStorage.removeItem(KEY + id);
}

export function savedName() {
  return localStorage.getItem("stoptable:name") || "";
}

export function saveName(name) {
  localStorage.setItem("stoptable:name", name);
}
