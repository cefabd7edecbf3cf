// Small DOM helpers: escaping, rendering that keeps keyboard focus, toasts, live region.
import { t, has } from "./i18n.js";

const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape any value for HTML text or a quoted attribute. */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESC[c]);
}

/** Replace the children of `el` with `html`, keeping focus on the element with the same
 * `data-focus` key as the focused one (re-rendering must not break keyboard play). */
export function render(el, html) {
  // The same markup again leaves the elements as they are: a button under the pointer is
  // not replaced between its press and its release (every click lands, issue 19).
  if (el.renderedHtml === html) return;
  el.renderedHtml = html;
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.getAttribute("data-focus") : null;
  el.innerHTML = html;
  if (key) {
    const again = el.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

export function $(sel, root = document) {
  return root.querySelector(sel);
}

/** Announce text to screen readers (the page has one polite live region). */
export function announce(text) {
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

/** A short message in the corner; `kind` is info, warn or error. */
export function toast(html, kind = "info", ms = 6000) {
  let box = document.getElementById("toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "toasts";
    box.setAttribute("aria-live", "assertive");
    document.body.append(box);
  }
  // The same message again (a second penalty for the same call) refreshes the one shown
  // instead of stacking copies over the page.
  for (const shown of box.querySelectorAll(".toast")) {
    if (shown.dataset.html === html) {
      clearTimeout(Number(shown.dataset.timer));
      if (ms) shown.dataset.timer = String(setTimeout(() => shown.remove(), ms));
      return shown;
    }
  }
  const item = document.createElement("div");
  item.dataset.html = html;
  item.className = `toast ${kind}`;
  item.setAttribute("role", kind === "error" ? "alert" : "status");
  item.innerHTML = html;
  const close = document.createElement("button");
  close.className = "toast-close";
  close.setAttribute("aria-label", t("toast.dismiss"));
  close.textContent = "×";
  close.addEventListener("click", () => item.remove());
  item.append(close);
  box.append(item);
  if (ms) item.dataset.timer = String(setTimeout(() => item.remove(), ms));
  return item;
}

// The table's players (protocol.md §8 `players`), set from every state: names are shown
// as text, never markup (every caller puts them through esc or textContent).
let players = [];

export function setPlayers(list) {
  if (Array.isArray(list)) players = list;
}

export function getPlayers() {
  return players;
}

/** A bot's name in this page's language: "Bot 2 (hard)", "ボット2（つよい）"; a bot asked
 * for by its algorithm (tests, tournaments) is just "Bot 2": algorithms are not strengths. */
export function botName(seat, bot) {
  const n = Number(seat) + 1;
  return has(`bot.level.${bot}`) ? t("bot.label", { n, level: t(`bot.level.${bot}`) }) : t("bot.plain", { n });
}

/** The name of `seat`: its person's as typed, a bot's (botName), or "Seat k" while free. */
export function playerName(seat) {
  const p = players[seat];
  if (p && p.bot) return botName(seat, p.bot);
  return p && p.name ? p.name : t("seat.free", { n: Number(seat) + 1 });
}

/** A name short enough for a table's column head: a bot is "Bot 2" there. */
export function shortName(seat) {
  const p = players[seat];
  return p && p.bot ? t("bot.plain", { n: Number(seat) + 1 }) : playerName(seat);
}

export function seatName(seat, me) {
  return seat === me ? t("seat.you", { name: playerName(seat) }) : playerName(seat);
}

/** mm:ss (or s.t under ten seconds) of a duration in ms. */
export function clockText(ms) {
  const v = Math.max(0, ms);
  if (v < 10000) return `${(v / 1000).toFixed(1)}s`;
  const s = Math.ceil(v / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
