// The lobby (/): create a table from each game's option table, list the tables.
import { api, saveSeat, savedName, saveName } from "./api.js";
import { esc, render, toast, announce, botName } from "./dom.js";
import { t, localizePage } from "./i18n.js";

const STRENGTHS = ["easy", "normal", "hard"];
/** The options people change most, shown up front; the rest fold under "All rules". */
const UP_FRONT = {
  stop: ["target_score"],
  stopit: ["minus_supply", "stack_count"],
  stopandgo: ["destination_count", "scoring"],
};
let games = [];
const form = document.getElementById("create");

function gameOf(name) {
  return games.find((g) => g.game === name);
}

/** An option's field, its label, help and choices from the catalogues (the option table's
 * own words are English and name things by their identifiers: never shown). */
function optionInput(o) {
  const id = `opt-${o.name}`;
  const label = `${esc(t(`opt.${o.name}`))} <span class="help-text">${esc(o.rule)} · ${esc(t(`opt.${o.name}.help`))}</span>`;
  const choice = (c) => esc(t(`opt.${o.name}.choice.${c}`));
  const d = o.default;
  if (o.kind === "bool") {
    return `<label class="opt" data-opt="${esc(o.name)}"><span>${label}</span><span><input type="checkbox" id="${id}" name="${id}" ${d ? "checked" : ""}> ${esc(t("lobby.yes"))}</span></label>`;
  }
  if (o.kind === "choice") {
    return `<label class="opt" data-opt="${esc(o.name)}"><span>${label}</span><select id="${id}" name="${id}">${o.choices.map((c) => `<option value="${esc(c)}" ${c === d ? "selected" : ""}>${choice(c)}</option>`).join("")}</select></label>`;
  }
  if (o.kind === "choice_set") {
    return `<fieldset class="opt" data-opt="${esc(o.name)}"><legend>${label}</legend>${o.choices
      .map((c) => `<label class="row"><input type="checkbox" name="${id}" value="${esc(c)}" ${d.includes(c) ? "checked" : ""}> ${choice(c)}</label>`)
      .join("")}</fieldset>`;
  }
  if (o.kind === "int" || o.kind === "optional_int") {
    const range = `${o.minimum !== undefined ? ` min="${o.minimum}"` : ""}${o.maximum !== undefined ? ` max="${o.maximum}"` : ""}`;
    return `<label class="opt" data-opt="${esc(o.name)}"><span>${label}</span><input id="${id}" name="${id}" inputmode="numeric" value="${d === null ? "" : esc(d)}" placeholder="${o.kind === "optional_int" ? esc(t("lobby.empty")) : ""}"${range}></label>`;
  }
  // int_set, optional_int_list: comma-separated numbers
  const text = d === null ? "" : d.join(", ");
  return `<label class="opt" data-opt="${esc(o.name)}"><span>${label}</span><input id="${id}" name="${id}" value="${esc(text)}" placeholder="${esc(t(o.kind === "optional_int_list" ? "lobby.empty" : "lobby.list_hint"))}"></label>`;
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
    form.innerHTML = `<p>${esc(t("lobby.no_games"))}</p>`;
    return;
  }
  const rsName = keep.ruleset && g.rulesets[keep.ruleset] ? keep.ruleset : g.default_ruleset;
  const rs = g.rulesets[rsName];
  const [low, high] = rs.seats;
  // A seat count out of range is kept and explained, never silently changed.
  const asked = keep.seats === undefined ? Math.min(high, Math.max(low, 4)) : keep.seats;
  const seats = Number.isInteger(asked) && asked >= low && asked <= high ? asked : null;
  const strengths = STRENGTHS.filter((s) => g.strengths && g.strengths[s]);
  const front = UP_FRONT[g.game] || [];
  const seatRows = [];
  for (let k = 0; k < (seats ?? 0); k++) {
    const def = k === 0 ? "" : strengths.includes("normal") ? "normal" : strengths[0] || "";
    seatRows.push(`<label>${esc(t("lobby.seat", { seat: k + 1 }))} <select name="bot-${k}" id="bot-${k}">
      <option value="" ${def === "" ? "selected" : ""}>${esc(t(k === 0 ? "lobby.you" : "lobby.person"))}</option>
      ${strengths.map((b) => `<option value="${esc(b)}" ${b === def ? "selected" : ""}>${esc(t(`bot.${b}`))}</option>`).join("")}</select></label>`);
  }
  render(
    form,
    `<div class="row">
      <label>${esc(t("lobby.game"))} <select id="game" name="game">${games.map((x) => `<option value="${x.game}" ${x.game === g.game ? "selected" : ""}>${esc(t(`game.${x.game}`))}</option>`).join("")}</select></label>
      <label>${esc(t("lobby.rules"))} <select id="ruleset" name="ruleset">${Object.keys(g.rulesets).map((r) => `<option value="${esc(r)}" ${r === rsName ? "selected" : ""}>${esc(t(`ruleset.${r}`))}</option>`).join("")}</select></label>
      <label>${esc(t("lobby.seats"))} <input id="seats" name="seats" type="number" value="${esc(asked)}" style="width:5em" aria-describedby="seats-note"></label>
      <label>${esc(t("join.name"))} <input id="creator-name" name="creator-name" maxlength="24" autocomplete="nickname" value="${esc(savedName())}"></label>
    </div>
    <p id="seats-note" class="small ${seats === null ? "bad-note" : ""}" role="status">${esc(seats === null ? t("lobby.seats_range", { low, high }) : "")}</p>
    <fieldset><legend>${esc(t("lobby.who"))}</legend><div class="seat-bots">${seatRows.join("")}</div>
      <p class="small">${esc(t("lobby.who_help"))}</p></fieldset>
    <div class="opts up-front">${rs.options.filter((o) => front.includes(o.name)).map(optionInput).join("")}</div>
    <details><summary>${esc(t("lobby.all_rules"))}</summary><div class="opts">${rs.options.filter((o) => !front.includes(o.name)).map(optionInput).join("")}</div></details>
    <div class="row">
      <label class="row"><input type="checkbox" id="clock-on"> ${esc(t("lobby.clock"))}</label>
      <label>${esc(t("lobby.turn_s"))} <input id="turn_s" inputmode="decimal" value="30" style="width:5em"></label>
      <label>${esc(t("lobby.bank_s"))} <input id="bank_s" inputmode="decimal" value="120" style="width:5em"></label>
    </div>
    <details><summary>${esc(t("lobby.more"))}</summary>
      <div class="row">
        <label>${esc(t("lobby.bot_delay"))} <input id="bot_delay_ms" inputmode="numeric" style="width:6em"></label>
        <label>${esc(t("lobby.seed"))} <input id="seed" inputmode="numeric" style="width:8em"></label>
      </div>
    </details>
    <div class="row"><button type="submit" id="create-btn">${esc(t("lobby.create"))}</button></div>`,
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
    const raw = e.target.value.trim();
    drawForm({ game: form.querySelector("#game").value, ruleset: form.querySelector("#ruleset").value, seats: /^\d+$/.test(raw) ? Number(raw) : raw });
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

/** The catalogue key of the field a server message names ("option 'x' must…",
 * "seats: …", "clock.turn_s: …"), so that the refusal is shown in this page's language
 * (the server's `detail` is English and names fields by their identifiers). */
const FIELDS = {
  game: "lobby.game",
  ruleset: "lobby.rules",
  seats: "lobby.seats",
  bots: "lobby.who",
  "creator.seat": "lobby.who",
  "creator.name": "join.name",
  name: "join.name",
  bot_delay_ms: "lobby.bot_delay",
  round_pause_ms: "lobby.bot_delay",
  seed: "lobby.seed",
  "clock.turn_s": "lobby.turn_s",
  "clock.bank_s": "lobby.bank_s",
  clock: "lobby.clock",
};

function createErrorText(err, rs) {
  if (err.status === 409) return t("join.name_taken");
  if (err.status === 429) return t("lobby.error.busy");
  const detail = String(err.message || "");
  const m = /^option '([a-z0-9_]+)'/.exec(detail) || /^(?:options\.)?([a-z0-9_.]+):/.exec(detail);
  const name = m ? m[1] : "";
  const option = rs && rs.options.find((o) => o.name === name);
  if (option) {
    const range = option.minimum !== undefined && option.maximum !== undefined ? ` ${t("lobby.error.range", { low: option.minimum, high: option.maximum })}` : "";
    return t("lobby.error.field", { field: t(`opt.${name}`) }) + range;
  }
  if (name === "seats" && rs) return t("lobby.seats_range", { low: rs.seats[0], high: rs.seats[1] });
  if (FIELDS[name]) return t("lobby.error.field", { field: t(FIELDS[name]) });
  return t("lobby.error.unknown", { status: err.status || 0 });
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
  const [low, high] = rs.seats;
  if (!Number.isInteger(seats) || seats < low || seats > high) {
    showCreateError(t("lobby.seats_range", { low, high }));
    form.querySelector("#seats").focus();
    return;
  }
  const body = { game: g.game, ruleset, options, seats, bots };
  // The person creating the table sits at the first seat left to a person, at once.
  const name = form.querySelector("#creator-name").value.trim();
  const mine = bots.indexOf(null);
  if (mine >= 0) {
    if (!name) {
      showCreateError(t("join.need_name"));
      form.querySelector("#creator-name").focus();
      return;
    }
    body.creator = { seat: mine, name };
  }
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
    if (res.token) {
      saveName(name);
      saveSeat(res.table, { seat: res.seat, token: res.token, name });
    }
    announce(t("lobby.created"));
    location.href = `/t/${encodeURIComponent(res.table)}`;
  } catch (err) {
    showCreateError(`${t("lobby.not_created")} ${createErrorText(err, rs)}`);
  }
});

function tableItem(x) {
  const url = `/t/${encodeURIComponent(x.table)}`;
  const players = x.players || [];
  const label = (p) => (p.bot ? botName(p.seat, p.bot) : p.name);
  const names = players.filter((p) => p.name).map(label);
  const who = names.length ? t("lobby.at_table", { names: names.join(", ") }) : "";
  const free = x.free_seats.length ? t("lobby.free", { count: x.free_seats.length }) : "";
  return `<li data-table="${esc(x.table)}"><span class="t-title">${esc(t(`game.${x.game}`))} <span class="small">${esc(t(`ruleset.${x.ruleset}`))} · ${esc(t("lobby.n_seats", { count: x.seats }))}${who ? ` · ${esc(who)}` : ""}${free ? ` · ${esc(free)}` : ""}</span></span>
    <span class="phase ${esc(x.phase)}">${esc(t(`phase.${x.phase}`))}</span>
    ${x.free_seats.length ? `<a class="button" href="${url}" data-focus="join-${esc(x.table)}">${esc(t("lobby.join"))}</a>` : ""}
    ${x.phase === "over" ? `<a class="button ghost" href="${url}/replay">${esc(t("over.replay"))}</a>` : `<a class="button ghost" href="${url}?watch" data-focus="watch-${esc(x.table)}">${esc(t("lobby.watch"))}</a>`}
    <button type="button" class="ghost copy" data-url="${url}" data-focus="copy-${esc(x.table)}">${esc(t("lobby.copy"))}</button></li>`;
}

async function drawTables() {
  const box = document.getElementById("tables");
  let list;
  try {
    list = await api.tables();
  } catch {
    render(box, `<p class="error-box" style="position:static;transform:none">${esc(t("lobby.cannot_list"))}</p>`);
    return;
  }
  // Waiting tables first (people are needed there), then those being played; finished
  // games go to "Recent games" with their replay.
  const order = { waiting: 0, playing: 1 };
  const open = list.filter((x) => x.phase !== "over").sort((a, b) => order[a.phase] - order[b.phase]);
  const over = list.filter((x) => x.phase === "over").slice(0, 12);
  render(
    box,
    `${open.length ? `<ul class="table-list">${open.map(tableItem).join("")}</ul>` : `<p>${esc(t("lobby.no_tables"))}</p>`}
    ${over.length ? `<h3 class="recent">${esc(t("lobby.recent"))}</h3><ul class="table-list recent-list">${over.map(tableItem).join("")}</ul>` : ""}`,
  );
}

document.getElementById("tables").addEventListener("click", async (e) => {
  const b = e.target.closest("button.copy");
  if (!b) return;
  const url = location.origin + b.dataset.url;
  try {
    await navigator.clipboard.writeText(url);
    toast(esc(t("share.copied", { url })));
  } catch {
    toast(`${esc(t("share.send"))} <code>${esc(url)}</code>`, "info", 15000);
  }
});

async function start() {
  try {
    games = await api.games();
  } catch (err) {
    form.innerHTML = `<p>${esc(t("lobby.no_games"))}</p>`;
  }
  drawForm();
  drawTables();
  setInterval(drawTables, 4000);
}

localizePage();
start();
