// The replay viewer (/t/{id}/replay): steps through a finished game as a spectator saw it.
import { api } from "./api.js";
import { esc, announce, setPlayers } from "./dom.js";
import { t, localizePage } from "./i18n.js";
import { recordLine } from "./lines.js";
import { mountChat } from "./chat.js";
import { TableConnection } from "./conn.js";
import { GAMES } from "./games/index.js";

const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const el = (id) => document.getElementById(id);
let info = null;
let game = null;
let lines = [];
let total = 0;
let pos = 0;
let timer = null;
let pending = 0;

async function show(n) {
  pos = Math.max(0, Math.min(total, n));
  const ticket = ++pending;
  let data;
  try {
    data = await api.replay(tableId, pos);
  } catch (err) {
    el("error").textContent = t("replay.cannot");
    el("error").hidden = false;
    stop();
    return;
  }
  if (ticket !== pending) return;
  el("pos").value = String(pos);
  el("count").textContent = `${pos} / ${total}`;
  el("event").textContent = pos ? t("replay.event", { n: pos, what: recordLine(info.game, lines[pos - 1]) }) : recordLine(info.game, null);
  if (!game) {
    game = GAMES[info.game](el("game"), {
      act: async () => ({ ok: false }),
      tableId,
      info,
      seat: () => null,
      replay: true,
      toast: () => {},
      mapUrl: (seq) => `${api.mapUrl(tableId)}?upto=${seq}`,
    });
  }
  game.update({ seq: pos, seat: null, view: data.view, legal: [], clock: null, result: null });
  announce(el("event").textContent);
}

function stop() {
  clearInterval(timer);
  timer = null;
}

function play() {
  if (timer) return stop();
  if (pos >= total) show(0);
  el("play").textContent = `❚❚ ${t("replay.pause")}`;
  timer = setInterval(() => {
    if (pos >= total) return stop();
    show(pos + 1);
  }, 600);
}

async function start() {
  try {
    info = await api.table(tableId);
  } catch (err) {
    el("game").innerHTML = `<p>${esc(t("table.missing"))}</p>`;
    return;
  }
  setPlayers(info.players);
  el("play").textContent = `▶ ${t("replay.play")}`;
  el("title").textContent = t("replay.title", { game: t(`game.${info.game}`), ruleset: t(`ruleset.${info.ruleset}`) });
  // The table's chat, read only: a watcher's connection gets its history (protocol.md §8).
  const chat = mountChat(el("chat"), {});
  new TableConnection(tableId, null, { onChat: (m) => chat.add(m) });
  el("download").href = api.recordUrl(tableId);
  el("download").setAttribute("download", `stoptable-${tableId}.jsonl`);
  const res = await fetch(api.recordUrl(tableId));
  if (!res.ok) {
    el("game").innerHTML = `<p class="card-panel">${esc(t("replay.not_yet"))} <a href="/t/${encodeURIComponent(tableId)}">${esc(t("replay.back"))}</a></p>`;
    return;
  }
  const text = await res.text();
  lines = text.split("\n").slice(1).filter((l) => l.trim()).map((l) => JSON.parse(l));
  total = lines.length;
  el("pos").max = String(total);
  el("first").addEventListener("click", () => show(0));
  el("prev").addEventListener("click", () => show(pos - 1));
  el("next").addEventListener("click", () => show(pos + 1));
  el("last").addEventListener("click", () => show(total));
  el("play").addEventListener("click", play);
  el("pos").addEventListener("input", () => show(Number(el("pos").value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") show(pos + 1);
    else if (e.key === "ArrowLeft") show(pos - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(total);
    else if (e.key === " ") {
      e.preventDefault();
      play();
    }
  });
  show(total);
}

localizePage();
el("play").textContent = `▶ ${t("replay.play")}`;
start();
