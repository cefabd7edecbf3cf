// The lobby (/): create a table from each game's option table, list the tables.
import { api } from "./api.js";
import { esc, render, toast, announce } from "./dom.js";

const TITLES = { stop: "Stop", stopit: "Stop it!", stopandgo: "Stop & Go" };
let games = [];
const form = document.getElementById("create");

function gameOf(name) {
  return games.find((g) => g.game === name);
}

function optionInput(o) {
  const id = `opt-${o.name}`;
  const label = `${esc(o.name.replaceAll("_", " "))} <span class="help-text">${esc(o.rule)} · ${esc(o.help)}</span>`;
  const d = o.default;
  if (o.kind === "bool") {
    return `<label class="opt" data-opt="${esc(o.name)}"><span>${label}</span><span><input type="checkbox" id="${id}" name="${id}" ${d ? "checked" : ""}> yes</span></label>`;
  }
  if (o.kind === "choice") {
    return `<label class="opt" data-opt="${esc(o.name)}"><span>${label}</span><select id="${id}" name="${id}">${o.choices.map((c) => `<option ${c === d ? "selected" : ""}>${esc(c)}</option>`).join("")}</select></label>`;
  }
  if (o.kind === "choice_set") {
    return `<fieldset class="opt" data-opt="${esc(o.name)}"><legend>${label}</legend>${o.choices
      .map((c) => `<label class="row"><input type="checkbox" name="${id}" value="${esc(c)}" ${d.includes(c) ? "checked" : ""}> ${esc(c)}</label>`)
      .join("")}</fieldset>`;
  }
  if (o.kind === "int" || o.kind === "optional_int") {
    const range = `${o.minimum !== undefined ? ` min="${o.minimum}"` : ""}${o.maximum !== undefined ? ` max="${o.maximum}"` : ""}`;
    return `<label class="opt" data-opt="${esc(o.name)}"><span>${label}</span><input id="${id}" name="${id}" inputmode="numeric" value="${d === null ? "" : esc(d)}" placeholder="${o.kind === "optional_int" ? "none" : ""}"${range}></label>`;
  }
  // int_set, optional_int_list: comma-separated numbers
  const text = d === null ? "" : d.join(", ");
  return `<label class="opt" data-opt="${esc(o.name)}"><span>${label}</span><input id="${id}" name="${id}" value="${esc(text)}" placeholder="${o.kind === "optional_int_list" ? "none" : "e.g. 1, 2"}"></label>`;
}

/** The JSON value of an option's field; a value that is not a number stays text, so the
 * server names the option in its error. */
function readOption(o) {
  const id = `opt-${o.name}`;
  if (o.kind === "bool") return form.querySelector(`#${id}`).checked;
  if (o.kind === "choice") return form.querySelector(`#${id}`).value;
  if (o.kind === "choice_set") return [...form.querySelectorAll(`input[name="${id}"]:checked`)].map((x) => x.value);
  const raw = form.querySelector(`#${id}`).value.trim();
  const num = (s) => (/^-?\d+$/.test(s.trim()) ? Number(s.trim()) : s.trim());
  if (o.kind === "int") return num(raw);
  if (o.kind === "optional_int") return raw === "" ? null : num(raw);
  if (raw === "") return o.kind === "optional_int_list" ? null : [];
  return raw.split(/[,\s]+/).filter(Boolean).map(num);
}

function same(a, b) {
  const norm = (x) => (Array.isArray(x) ? JSON.stringify([...x].sort()) : JSON.stringify(x));
  return norm(a) === norm(b);
}

function drawForm(keep = {}) {
  const g = gameOf(keep.game || (games[0] && games[0].game));
  if (!g) {
    form.innerHTML = "<p>No games available.</p>";
    return;
  }
  const rsName = keep.ruleset && g.rulesets[keep.ruleset] ? keep.ruleset : g.default_ruleset;
  const rs = g.rulesets[rsName];
  const [low, high] = rs.seats;
  const seats = Math.min(high, Math.max(low, keep.seats || Math.min(high, 4)));
  const bots = g.bots;
  const seatRows = [];
  for (let k = 0; k < seats; k++) {
    const def = k === 0 ? "" : bots.includes("heuristic") ? "heuristic" : bots[0] || "";
    seatRows.push(`<label>P${k} <select name="bot-${k}" id="bot-${k}" aria-label="Seat P${k}: a person or a bot">
      <option value="" ${def === "" ? "selected" : ""}>a person</option>
      ${bots.map((b) => `<option value="${esc(b)}" ${b === def ? "selected" : ""}>bot: ${esc(b)}</option>`).join("")}</select></label>`);
  }
  render(
    form,
    `<div class="row">
      <label>Game <select id="game" name="game">${games.map((x) => `<option value="${x.game}" ${x.game === g.game ? "selected" : ""}>${esc(x.title || TITLES[x.game] || x.game)}</option>`).join("")}</select></label>
      <label>Rules <select id="ruleset" name="ruleset">${Object.keys(g.rulesets).map((r) => `<option ${r === rsName ? "selected" : ""}>${esc(r)}</option>`).join("")}</select></label>
      <label>Seats <input id="seats" name="seats" type="number" min="${low}" max="${high}" value="${seats}" style="width:5em"></label>
    </div>
    <fieldset><legend>Who sits where</legend><div class="seat-bots">${seatRows.join("")}</div>
      <p class="small">Seats for people stay free until someone joins with the table's link; play starts when the last one is taken.</p></fieldset>
    <details><summary>Rule options (${esc(rsName)} defaults shown)</summary><div class="opts">${rs.options.map(optionInput).join("")}</div></details>
    <details><summary>Turn clock and more</summary>
      <div class="row">
        <label class="row"><input type="checkbox" id="clock-on"> turn clock</label>
        <label>seconds per turn <input id="turn_s" inputmode="decimal" value="30" style="width:5em"></label>
        <label>bank seconds <input id="bank_s" inputmode="decimal" value="120" style="width:5em"></label>
      </div>
      <div class="row">
        <label>bots' thinking time (ms, empty: human-like) <input id="bot_delay_ms" inputmode="numeric" style="width:6em"></label>
        <label>seed (empty: random) <input id="seed" inputmode="numeric" style="width:8em"></label>
      </div>
    </details>
    <div class="row"><button type="submit" id="create-btn">Create table</button></div>`,
  );
  for (const o of rs.options) {
    const box = form.querySelector(`[data-opt="${o.name}"]`);
    box.addEventListener("change", () => box.classList.toggle("changed", !same(readOption(o), o.default)));
  }
}

form.addEventListener("change", (e) => {
  const id = e.target.id;
  if (id === "game") drawForm({ game: e.target.value });
  else if (id === "ruleset") drawForm({ game: form.querySelector("#game").value, ruleset: e.target.value, seats: Number(form.querySelector("#seats").value) });
  else if (id === "seats") {
    const keepBots = [...form.querySelectorAll("[id^=bot-]")].map((s) => s.value);
    drawForm({ game: form.querySelector("#game").value, ruleset: form.querySelector("#ruleset").value, seats: Number(e.target.value) });
    keepBots.forEach((v, k) => {
      const s = form.querySelector(`#bot-${k}`);
      if (s) s.value = v;
    });
  }
});

function showCreateError(text) {
  const box = document.getElementById("create-error");
  if (!text) {
    box.hidden = true;
    return;
  }
  box.textContent = text;
  box.hidden = false;
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const g = gameOf(form.querySelector("#game").value);
  const ruleset = form.querySelector("#ruleset").value;
  const rs = g.rulesets[ruleset];
  const seatsRaw = form.querySelector("#seats").value.trim();
  const seats = /^\d+$/.test(seatsRaw) ? Number(seatsRaw) : seatsRaw;
  const options = {};
  for (const o of rs.options) {
    const v = readOption(o);
    if (!same(v, o.default)) options[o.name] = v;
  }
  const bots = [];
  for (let k = 0; k < seats; k++) {
    const s = form.querySelector(`#bot-${k}`);
    bots.push(s && s.value ? s.value : null);
  }
  const body = { game: g.game, ruleset, options, seats, bots };
  if (form.querySelector("#clock-on").checked) {
    body.clock = { turn_s: Number(form.querySelector("#turn_s").value), bank_s: Number(form.querySelector("#bank_s").value) };
  }
  const delay = form.querySelector("#bot_delay_ms").value.trim();
  if (delay !== "") body.bot_delay_ms = /^\d+$/.test(delay) ? Number(delay) : delay;
  const seed = form.querySelector("#seed").value.trim();
  if (seed !== "") body.seed = /^-?\d+$/.test(seed) ? Number(seed) : seed;
  showCreateError("");
  try {
    const res = await api.create(body);
    announce("Table created");
    location.href = `/t/${encodeURIComponent(res.table)}`;
  } catch (err) {
    showCreateError(`The table was not created: ${err.message}`);
  }
});

async function drawTables() {
  const box = document.getElementById("tables");
  let list;
  try {
    list = await api.tables();
  } catch (err) {
    render(box, `<p class="error-box" style="position:static;transform:none">Cannot list tables: ${esc(err.message)}</p>`);
    return;
  }
  if (!list.length) {
    render(box, "<p>No tables yet: create one.</p>");
    return;
  }
  render(
    box,
    `<ul class="table-list">${list
      .map((t) => {
        const url = `/t/${encodeURIComponent(t.table)}`;
        const free = t.free_seats.length ? `free: ${t.free_seats.map((k) => `P${k}`).join(", ")}` : "no free seat";
        return `<li data-table="${esc(t.table)}"><span class="t-title">${esc(TITLES[t.game] || t.game)} <span class="small">${esc(t.ruleset)} · ${t.seats} seats · ${free}</span></span>
          <span class="phase ${esc(t.phase)}">${esc(t.phase)}</span>
          ${t.free_seats.length ? `<a class="button" href="${url}" data-focus="join-${esc(t.table)}">Join</a>` : ""}
          <a class="button ghost" href="${url}?watch" data-focus="watch-${esc(t.table)}">${t.phase === "over" ? "See" : "Watch"}</a>
          ${t.phase === "over" ? `<a class="button ghost" href="${url}/replay">Replay</a>` : ""}
          <button type="button" class="ghost copy" data-url="${url}" data-focus="copy-${esc(t.table)}" aria-label="Copy the link to this table">Copy link</button></li>`;
      })
      .join("")}</ul>`,
  );
}

document.getElementById("tables").addEventListener("click", async (e) => {
  const b = e.target.closest("button.copy");
  if (!b) return;
  const url = location.origin + b.dataset.url;
  try {
    await navigator.clipboard.writeText(url);
    toast(`Link copied: ${esc(url)}`);
  } catch {
    toast(`Send this link: <code>${esc(url)}</code>`, "info", 15000);
  }
});

async function start() {
  try {
    games = await api.games();
  } catch (err) {
    form.innerHTML = `<p>Cannot load the games: ${esc(err.message)}</p>`;
  }
  drawForm();
  drawTables();
  setInterval(drawTables, 4000);
}

start();
