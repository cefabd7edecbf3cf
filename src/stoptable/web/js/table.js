// The table page (/t/{id}): join a free seat or watch, then hand every message to the
// game's own view (games/*.js). Reconnects and resumes by itself.
import { api, loadSeat, saveSeat, forgetSeat, savedName, saveName } from "./api.js";
import { TableConnection } from "./conn.js";
import { esc, render, toast, announce, clockText, seatName, setPlayers, playerName } from "./dom.js";
import { t, num, localizePage } from "./i18n.js";
import { mountChat } from "./chat.js";
import { explain } from "./rules.js";
import { GAMES } from "./games/index.js";
import { sound, mountSoundSwitch } from "./sound.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const el = (id) => document.getElementById(id);

let info = null;
let conn = null;
let seat = null; // our seat, null when watching
let game = null; // the game view object
let last = null; // the last state message
let clockAt = 0; // when `last.clock` arrived (performance.now())
// A state gives the banks, not how much of the running seat's turn allowance is used: the
// turn counts from the first state that showed this seat running (mid-turn after a reload).
let turnSeat = null;
let turnSince = 0;
let overShown = false;
let chat = null;

function showError(html, ms = 7000) {
  const box = el("error");
  box.innerHTML = html;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => (box.hidden = true), ms);
}

/** Send an action line; a refusal is explained with its rule (never silently dropped). */
async function act(line) {
  if (!conn) return { ok: false };
  const ack = await conn.act(line);
  if (ack && ack.ok === false) {
    // In words, with the rule it cites; the reason code itself never reaches the screen.
    const [rule, text] = explain(info.game, ack.reason, ack.rule);
    const words = text || t("refused.unknown");
    const also = Array.isArray(ack.reasons) && ack.reasons.length > 1
      ? ack.reasons.slice(1).map((r) => explain(info.game, r, "")[1]).filter(Boolean)
      : [];
    showError(
      `<strong>${esc(t("refused.title"))}</strong>${rule ? ` <span class="rule">${esc(rule)}</span>` : ""} ${esc(words)}` +
        `${also.length ? `<br><span class="msg">${esc(t("refused.also", { list: also.join(" ") }))}</span>` : ""}`,
      ack.reason === "stale" ? 2500 : 7000, // losing a race for a card is part of Stop it!
    );
    announce(`${t("refused.title")} ${words}`);
  } else if (ack && ack.ok) {
    el("error").hidden = true;
  }
  return ack;
}

function setBanner(text, kind) {
  const b = el("banner");
  if (!text) {
    b.hidden = true;
    return;
  }
  b.className = `banner ${kind || ""}`;
  b.textContent = text;
  b.hidden = false;
}

function onStatus(status, text) {
  if (status === "online") {
    setBanner(text === "reconnected" ? "" : "", "");
    if (text === "reconnected") announce(t("conn.back"));
  } else if (status === "offline") {
    setBanner(t("conn.lost"), "warn");
  } else if (status === "refused") {
    if (seat !== null) {
      forgetSeat(tableId);
      toast(esc(t("conn.seat_lost")), "warn");
      seat = null;
      connect(null);
    } else {
      setBanner(t("conn.refused"), "error");
    }
  }
}

function updateWho() {
  el("who").textContent = seat === null ? t("table.watching") : t("table.you_are", { name: playerName(seat) });
  el("who").className = `who ${seat === null ? "watching" : "seated"}`;
}

function connect(token) {
  if (conn) conn.close();
  updateWho();
  conn = new TableConnection(tableId, token, { onState, onEvents, onStatus, onChat: (m) => chat && chat.add(m) });
  if (chat) chat.sync();
}

let myTurn = false;

/** Which sound, if any, an event makes: a Stop! call (Stop's call or a play calling it,
 * Stop it!'s Stop! or stop card), an evaluation (Stop it!) or a round's end (Stop). */
function soundOf(ev) {
  const calls = Array.isArray(ev.calls) ? ev.calls : [];
  if (ev.kind === "call_stop" || ev.kind === "play_stop") return "stop";
  if (ev.kind === "call" ? ev.call === "stop" : calls.includes("stop")) return "stop";
  if (ev.kind === "evaluation" || ev.kind === "round_end") return "evaluation";
  return null;
}

function onState(msg) {
  const mine = seat !== null && !msg.result && msg.view.turn === seat;
  if (mine && !myTurn) sound("turn");
  myTurn = mine;
  last = msg;
  setPlayers(msg.players);
  updateWho();
  if (msg.players) info = { ...info, players: msg.players };
  clockAt = performance.now();
  const running = msg.clock ? msg.clock.running : null;
  if (running !== turnSeat) {
    turnSeat = running;
    turnSince = clockAt;
  }
  if (!game) {
    // A fresh host per game view: a view left from watching must not keep its listeners.
    const host = document.createElement("div");
    el("game").replaceChildren(host);
    game = GAMES[info.game](host, { act, tableId, info, seat: () => seat, toast, waiting: () => info.phase === "waiting" });
  }
  game.update(msg);
  const main = el("game");
  main.dataset.seq = msg.seq;
  main.dataset.phase = msg.view.phase;
  main.dataset.turn = msg.view.turn ?? "";
  main.dataset.over = msg.result ? "1" : "";
  drawClock();
  if (msg.result && !overShown) showOver(msg);
  else if (msg.result) updateAgain();
  refreshJoin();
}

function onEvents(msg) {
  const kinds = (msg.events || []).map(soundOf).filter(Boolean);
  if (kinds.length) sound(kinds.includes("evaluation") ? "evaluation" : kinds[0]);
  if (game && game.events) game.events(msg);
}

// ---------------------------------------------------------------- clock

function drawClock() {
  const box = el("clock");
  const c = last && last.clock;
  if (!c) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const now = performance.now();
  const turnEnd = turnSince + c.turn_s * 1000;
  const parts = c.banks_ms.map((ms, k) => {
    const running = c.running === k;
    // The running seat spends its turn allowance first, then its bank (the banks in a
    // state already lack what was spent up to then, so the bank runs from the later of the
    // state's arrival and the allowance's end).
    const turnLeft = running ? Math.max(0, turnEnd - now) : 0;
    const left = running ? ms - Math.max(0, now - Math.max(clockAt, turnEnd)) : ms;
    const absent = (c.absent || []).includes(k);
    const secs = (v) => Math.max(0, Math.ceil(v / 1000));
    const label = `${t("clock.bank", { name: seatName(k, seat), count: secs(left) })}${turnLeft > 0 ? ` ${t("clock.turn", { count: secs(turnLeft) })}` : ""}${absent ? ` ${t("clock.absent")}` : ""}`;
    const time = turnLeft > 0 ? `${clockText(turnLeft)} + ${clockText(left)}` : clockText(left);
    return `<span class="bank ${running ? "running" : ""} ${turnLeft + left < 10000 ? "low" : ""}" aria-label="${esc(label)}">
      ${esc(seatName(k, seat))} ${running ? "▶ " : ""}${time}${absent ? ` <em>${esc(t("clock.absent_short"))}</em>` : ""}</span>`;
  });
  box.innerHTML = `<span class="label">${esc(t("clock.label", { turn: c.turn_s, bank: c.bank_s }))}</span> ${parts.join(" ")}`;
}
setInterval(() => {
  if (last && last.clock && last.clock.running !== null) drawClock();
  if (game && game.tick) game.tick();
}, 200);

// ---------------------------------------------------------------- join

function showWaiting() {
  const w = el("waiting");
  w.hidden = info.phase !== "waiting";
  if (!w.hidden) {
    const seated = (info.players || []).filter((p) => p.name && !p.bot).map((p) => p.name);
    const free = info.free_seats.length;
    w.textContent = `${seated.length ? t("table.seated", { names: seated.join(", ") }) : ""} ${t("table.waiting", { count: free })}`.trim();
  }
}

let refreshing = false;

async function refreshJoin() {
  const box = el("join");
  if (seat !== null && info.phase !== "waiting") {
    box.hidden = true;
    el("waiting").hidden = true;
    return;
  }
  if (refreshing) return;
  refreshing = true;
  const was = info.phase;
  try {
    info = { ...info, ...(await api.table(tableId)) };
  } catch {
    return;
  } finally {
    refreshing = false;
  }
  showWaiting();
  if (was !== info.phase && game && last) game.update(last);
  if (seat !== null) {
    box.hidden = true;
    return;
  }
  if (!info.free_seats.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (box.dataset.free === info.free_seats.join(",")) return;
  box.dataset.free = info.free_seats.join(",");
  render(
    box,
    `<h2>${esc(t("join.title"))}</h2>
    <p>${esc(t("join.intro", { count: info.free_seats.length }))}</p>
    <form id="join-form" class="row">
      <label>${esc(t("join.name"))} <input id="join-name" name="name" required maxlength="24" autocomplete="nickname" value="${esc(savedName())}"></label>
      ${info.free_seats.map((k) => `<button type="submit" name="seat" value="${k}" data-focus="sit-${k}">${esc(t("join.sit", { seat: k + 1 }))}</button>`).join("")}
    </form>`,
  );
  el("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = el("join-name").value.trim();
    if (!name) {
      showError(esc(t("join.need_name")));
      el("join-name").focus();
      return;
    }
    const k = Number(e.submitter ? e.submitter.value : info.free_seats[0]);
    try {
      const res = await api.claim(tableId, k, name);
      saveName(name);
      saveSeat(tableId, { seat: res.seat, token: res.token, name });
      seat = res.seat;
      el("error").hidden = true;
      box.hidden = true;
      box.dataset.free = "";
      game = null;
      el("game").innerHTML = "";
      // the watcher's state is gone: nothing may read its seq or turn as this seat's
      for (const k of ["seq", "phase", "turn", "over"]) delete el("game").dataset[k];
      connect(res.token);
      announce(t("join.done", { seat: seat + 1 }));
    } catch (err) {
      const why = err.status === 409 ? (/name/.test(err.message) ? "join.name_taken" : "join.taken") : err.status === 422 ? "join.bad_name" : "join.refused";
      showError(esc(t(why, { seat: k + 1 })));
      box.dataset.free = "";
      refreshJoin();
    }
  });
}

// ---------------------------------------------------------------- game over

function termination(r) {
  return r.termination ? t(`over.why.${r.termination}`) : "";
}

function showOver(msg) {
  overShown = true;
  const r = msg.result;
  const dlg = el("over");
  const n = r.scores.length;
  const rows = [];
  for (let k = 0; k < n; k++) {
    rows.push(`<tr class="${r.winners.includes(k) ? "winner" : ""}"><th scope="row">${esc(seatName(k, seat))}</th><td>${esc(num(r.scores[k]))}</td><td>${esc(r.ranks ? num(r.ranks[k]) : "")}</td><td>${r.winners.includes(k) ? `<strong>${esc(t("over.wins"))}</strong>` : ""}</td></tr>`);
  }
  const mine = seat !== null && r.winners.includes(seat);
  dlg.innerHTML = `<h2 id="over-title">${esc(t(mine ? "over.title_won" : "over.title"))}</h2>
    <p>${esc(termination(r))}</p>
    <table class="scores"><thead><tr><th>${esc(t("over.player"))}</th><th>${esc(t("over.score"))}</th><th>${esc(t("over.rank"))}</th><th><span class="sr-only">${esc(t("over.result"))}</span></th></tr></thead><tbody>${rows.join("")}</tbody></table>
    <p id="again-note" class="small" role="status"></p>
    <p class="row">
      ${seat !== null ? `<button type="button" id="play-again">${esc(t("over.again"))}</button>` : ""}
      <a class="button ghost" id="download-record" href="${api.recordUrl(tableId)}" download="stoptable-${esc(tableId)}.jsonl">${esc(t("over.record"))}</a>
      <a class="button ghost" href="/t/${encodeURIComponent(tableId)}/replay">${esc(t("over.replay"))}</a>
      <a class="button ghost" href="/">${esc(t("over.lobby"))}</a>
      <button type="button" id="over-close" class="ghost">${esc(t("over.close"))}</button>
    </p>`;
  el("over-close").addEventListener("click", () => dlg.close());
  const btn = el("play-again");
  if (btn) btn.addEventListener("click", playAgain);
  updateAgain();
  // Not modal: the chat beside it stays usable, so people can say goodbye.
  if (!dlg.open) dlg.show();
  (el("play-again") || el("over-close")).focus();
  announce(t("over.title"));
}

/** What the dialog says about the next table: who has already asked to play again. */
async function updateAgain() {
  const note = el("again-note");
  if (!note || !last || !last.next) return;
  try {
    const next = await api.table(last.next);
    const names = (next.players || []).filter((p) => p.name && !p.bot).map((p) => p.name);
    note.textContent = names.length ? t("over.again_joined", { names: names.join(", ") }) : "";
  } catch {
    note.textContent = "";
  }
}

/** One click: our seat at the next table (made by the first to ask), then go there. */
async function playAgain() {
  const btn = el("play-again");
  if (btn) btn.disabled = true;
  const ack = conn ? await conn.rematch() : null;
  if (!ack || !ack.ok) {
    if (btn) btn.disabled = false;
    el("again-note").textContent = t(ack && ack.reason === "taken" ? "over.again_taken" : "over.again_failed");
    return;
  }
  saveSeat(ack.table, { seat: ack.seat, token: ack.token, name: playerName(seat) });
  location.assign(`/t/${encodeURIComponent(ack.table)}`);
}

// ---------------------------------------------------------------- keys, share, start

document.addEventListener("keydown", (e) => {
  const t = e.target;
  const typing = t && (t.tagName === "SELECT" || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !["checkbox", "radio", "button"].includes(t.type)));
  if (typing) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "?") {
    el("help-btn").click();
    return;
  }
  if (game && game.key) game.key(e);
});

el("error").addEventListener("click", () => (el("error").hidden = true));

el("help-btn").addEventListener("click", () => {
  const h = el("help");
  h.hidden = !h.hidden;
  el("help-btn").setAttribute("aria-expanded", String(!h.hidden));
  h.innerHTML = `<h2>${esc(t("keys.title"))}</h2>${game && game.help ? game.help() : ""}<p>${esc(t("keys.common"))}</p>`;
});

el("share").addEventListener("click", async () => {
  const url = `${location.origin}/t/${encodeURIComponent(tableId)}`;
  try {
    await navigator.clipboard.writeText(url);
    toast(esc(t("share.copied", { url })));
  } catch {
    toast(`${esc(t("share.send"))} <code>${esc(url)}</code>`, "info", 15000);
  }
});

async function start() {
  try {
    info = await api.table(tableId);
  } catch (err) {
    el("game").innerHTML = `<p class="error-box">${esc(t("table.missing"))} <a href="/">${esc(t("table.back"))}</a></p>`;
    return;
  }
  const title = t(`game.${info.game}`);
  el("title").textContent = `${title} · ${t(`ruleset.${info.ruleset}`)}`;
  document.title = t("table.doc_title", { game: title });
  setPlayers(info.players);
  chat = mountChat(el("chat"), { say: (text) => (conn ? conn.say(text) : Promise.resolve(null)), canSay: () => seat !== null });
  const saved = loadSeat(tableId);
  const watch = new URLSearchParams(location.search).has("watch");
  if (saved && !watch) {
    seat = saved.seat;
    connect(saved.token);
  } else {
    seat = null;
    connect(null);
  }
  refreshJoin();
}

localizePage();
mountSoundSwitch(document.querySelector("header.bar"));
start();
