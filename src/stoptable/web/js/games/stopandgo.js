// The Stop & Go table: the map exactly as `stoptable map render` draws it (fetched from the
// server with the public view on it), made clickable: build a path space by space (legal
// continuations highlighted) or pick a listed move; die, dial, destination, fines.
import { esc, announce, seatName, render } from "../dom.js";
import { api } from "../api.js";
import { t, num, has } from "../i18n.js";
import { explain } from "../rules.js";

const SVGNS = "http://www.w3.org/2000/svg";

function startsWith(path, prefix) {
  if (path.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

export function mountStopAndGo(root, ctx) {
  let msg = null;
  let path = [];
  let mapSeq = -1;
  let loading = null;
  let scrolled = false;
  let tickets = 0;
  root.innerHTML = `<section class="stopandgo" aria-label="${esc(t("game.stopandgo"))}">
    <div>
      <div class="status" id="sg-status" aria-live="polite"></div>
      <div class="map-wrap" id="sg-map" role="region" tabindex="0" aria-label="${esc(t("sg.map_label"))}"></div>
      <div class="zoom row" role="group" aria-label="${esc(t("sg.map"))}">
        <button type="button" class="ghost" data-zoom="out" aria-label="${esc(t("sg.zoom_out"))}">−</button>
        <button type="button" class="ghost" data-zoom="fit">${esc(t("sg.zoom_fit"))}</button>
        <button type="button" class="ghost" data-zoom="in" aria-label="${esc(t("sg.zoom_in"))}">+</button>
      </div>
    </div>
    <div class="sg-panel">
      <section aria-labelledby="sg-move-h"><h2 id="sg-move-h">${esc(t("sg.turn"))}</h2><div id="sg-move"></div></section>
      <section aria-labelledby="sg-moves-h"><h2 id="sg-moves-h">${esc(t("sg.legal_moves"))}</h2><div class="moves" id="sg-moves"></div></section>
      <section aria-labelledby="sg-cars-h"><h2 id="sg-cars-h">${esc(t("sg.cars"))}</h2><div id="sg-cars"></div></section>
      <section aria-labelledby="sg-last-h"><h2 id="sg-last-h">${esc(t("sg.last_move"))}</h2><div id="sg-last"></div></section>
    </div>
  </section>`;
  const $ = (id) => root.querySelector(`#${id}`);
  const me = () => ctx.seat();
  const legalPaths = () => (msg ? msg.legal.filter((a) => a.type === "move").map((a) => a.path) : []);
  const myTurn = () => msg && me() !== null && msg.view.turn === me() && msg.view.phase !== "game_over";

  function resetPath() {
    const v = msg && msg.view;
    path = myTurn() && v.cars[me()] ? [v.cars[me()].pos] : [];
  }

  function continuations() {
    const next = new Set();
    let complete = false;
    for (const p of legalPaths()) {
      if (!startsWith(p, path)) continue;
      if (p.length === path.length) complete = true;
      else next.add(p[path.length]);
    }
    return { next, complete };
  }

  async function loadMap(seq) {
    if (loading === seq) return;
    loading = seq;
    const ticket = ++tickets;
    let text;
    try {
      const res = await fetch(ctx.mapUrl ? ctx.mapUrl(seq) : `${api.mapUrl(ctx.tableId)}?seq=${seq}`);
      if (!res.ok) throw new Error(`${res.status}`);
      text = await res.text();
    } catch (err) {
      $("sg-map").textContent = t("sg.no_map");
      loading = null;
      return;
    }
    if (ticket !== tickets) return; // a newer map was asked for meanwhile
    mapSeq = seq;
    loading = null;
    const box = $("sg-map");
    const scroll = [box.scrollLeft, box.scrollTop];
    box.innerHTML = text;
    box.dataset.seq = String(seq); // which position the map shows (the replay's slider)
    [box.scrollLeft, box.scrollTop] = scroll;
    const svg = box.querySelector("svg");
    if (!svg) return;
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", t("sg.map"));
    // The board's own words (places, the key of signs) in this page's language.
    for (const node of svg.querySelectorAll("[data-text]")) {
      const key = node.getAttribute("data-text");
      if (has(key)) node.textContent = t(key);
    }
    const hits = document.createElementNS(SVGNS, "g");
    hits.setAttribute("id", "sg-hits");
    svg.append(hits);
    for (const g of svg.querySelectorAll("g.space[data-space]")) {
      const id = g.getAttribute("data-space");
      const b = g.getBBox();
      const c = document.createElementNS(SVGNS, "circle");
      c.setAttribute("cx", b.x + b.width / 2);
      c.setAttribute("cy", b.y + b.height / 2);
      c.setAttribute("r", Math.max(13, Math.min(28, Math.max(b.width, b.height) / 2 + 4)));
      c.setAttribute("class", "hit");
      c.setAttribute("data-space", id);
      c.setAttribute("tabindex", "-1");
      c.setAttribute("role", "button");
      c.setAttribute("aria-label", t("sg.space", { id }));
      hits.append(c);
    }
    paint();
    if (!scrolled) scrollToCar();
  }

  /** On a narrow screen the map scrolls: bring our car (or the one to move) into view. */
  function scrollToCar() {
    const v = msg && msg.view;
    const box = $("sg-map");
    if (!v || box.scrollWidth <= box.clientWidth + 4) return;
    const who = me() ?? v.turn ?? 0;
    const car = v.cars[who];
    const hit = car && box.querySelector(`.hit[data-space="${CSS.escape(car.pos)}"]`);
    if (!hit) return;
    const r = hit.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    box.scrollLeft += r.left - b.left - box.clientWidth / 2;
    box.scrollTop += r.top - b.top - box.clientHeight / 2;
    scrolled = true;
  }

  function paint() {
    const box = $("sg-map");
    const { next } = myTurn() ? continuations() : { next: new Set() };
    const on = new Set(path);
    const last = path[path.length - 1];
    for (const c of box.querySelectorAll(".hit")) {
      const id = c.getAttribute("data-space");
      c.classList.toggle("next", next.has(id));
      c.classList.toggle("onpath", on.has(id));
      c.classList.toggle("end", id === last && path.length > 1);
      c.setAttribute("tabindex", next.has(id) || on.has(id) ? "0" : "-1");
      const what = next.has(id) ? "sg.space_next" : on.has(id) ? "sg.space_on_path" : "sg.space";
      c.setAttribute("aria-label", t(what, { id }));
    }
  }

  function clickSpace(id) {
    if (!myTurn()) return;
    if (!path.length) resetPath();
    const at = path.indexOf(id);
    if (at >= 0) path = path.slice(0, at + 1);
    else if (!continuations().next.has(id)) {
      // Not a green space: no legal move goes there from this path. The server says which
      // rule forbids it at once (the path as it would be is refused and changes nothing).
      ctx.act({ type: "move", path: [...path, id] });
      return;
    } else path.push(id);
    draw();
    const { next, complete } = continuations();
    const parts = [t("sg.path_announce", { path: path.join(" ") })];
    if (complete) parts.push(t("sg.a_legal_move"));
    if (next.size) parts.push(t("sg.next", { list: [...next].join(", ") }));
    announce(parts.join(" "));
  }

  async function sendPath(p) {
    const ack = await ctx.act({ type: "move", path: p });
    if (ack && ack.ok) {
      announce(t("sg.moved", { id: p[p.length - 1] }));
      path = [];
    }
  }

  function statusHtml(v) {
    const parts = [];
    if (ctx.waiting && ctx.waiting()) parts.push(`<strong>${esc(t("stop.waiting"))}</strong>`);
    else if (v.phase === "game_over") parts.push(`<strong>${esc(t("over.title"))}</strong> ${esc(v.termination ? t(`over.why.${v.termination}`) : "")}`);
    else if (v.turn !== null) parts.push(v.turn === me() ? `<strong>${esc(t("stop.your_turn"))}</strong> ${esc(t("sg.your_turn"))}` : esc(t("sg.driving", { name: seatName(v.turn, me()) })));
    if (me() === null) parts.push(`<span class="watching-note">${esc(t("sg.watching"))}</span>`);
    return parts.join(" ");
  }

  function moveHtml(v) {
    const roll = v.roll;
    const dest = v.active === null ? t("sg.none_left") : t("sg.dest", { card: v.active, id: v.active_space });
    const head = `<p class="row"><span class="die" role="img" aria-label="${esc(roll ? t("sg.die", { roll }) : t("sg.die_none"))}">${roll ?? "–"}</span>
      <span>${esc(t("sg.roll"))} <strong>${roll ?? "–"}</strong> · ${esc(t("sg.dial"))} <strong>${v.dial}</strong> · ${esc(t("sg.destination"))} <strong>${esc(dest)}</strong> · ${esc(t("sg.cards_left", { count: v.deck_size ?? 0 }))}</span></p>`;
    if (!myTurn()) return head;
    const { complete } = continuations();
    const steps = Math.max(0, path.length - 1);
    // Moving needs a step; standing still (when the rules allow it) is its own choice.
    const moving = complete && steps > 0;
    const stay = complete && steps === 0;
    const of = roll ? t("sg.steps_of", { count: steps, roll }) : t("sg.steps", { count: steps });
    return `${head}<p class="path" aria-live="polite">${esc(t("sg.path", { path: path.join(" → ") || "–" }))} (${esc(of)})${moving ? ` ${esc(t("sg.legal_mark"))}` : ""}</p>
      <p class="row"><button type="button" data-act="move" data-focus="sg-go" class="${moving ? "lit" : ""}" ${steps ? "" : "disabled"}>${esc(t("sg.move"))} <kbd>Enter</kbd></button>
      ${stay ? `<button type="button" data-act="move" data-focus="sg-stay">${esc(t("sg.stay"))}</button>` : ""}
      <button type="button" class="ghost" data-act="undo" data-focus="sg-undo" ${steps ? "" : "disabled"}>${esc(t("sg.undo"))} <kbd>⌫</kbd></button>
      <button type="button" class="ghost" data-act="clear" data-focus="sg-clear" ${steps ? "" : "disabled"}>${esc(t("sg.clear"))} <kbd>Esc</kbd></button></p>`;
  }

  function movesHtml(v) {
    if (!myTurn()) return `<p class="small">${esc(t(me() === null ? "sg.watching" : "sg.not_your_turn"))}</p>`;
    const paths = legalPaths();
    if (!paths.length) return `<p class="small">${esc(t("sg.no_moves"))}</p>`;
    const byEnd = new Map();
    for (const p of paths) {
      const end = p[p.length - 1];
      const best = byEnd.get(end);
      if (!best || p.length < best.length) byEnd.set(end, p);
    }
    const ends = [...byEnd.entries()].sort((a, b) => (a[0] === v.active_space ? -1 : b[0] === v.active_space ? 1 : b[1].length - a[1].length));
    return ends
      .slice(0, 60)
      .map(([end, p], i) => `<button type="button" data-path="${esc(JSON.stringify(p))}" data-focus="sgm-${i}">${end === v.active_space ? "★ " : ""}${esc(t("sg.to", { id: end }))} <span class="small">(${esc(t("sg.steps", { count: p.length - 1 }))}: ${esc(p.slice(1).join(" "))})</span></button>`)
      .join("");
  }

  function carsHtml(v) {
    const rows = v.cars.map(
      (c, k) => `<tr class="${v.turn === k ? "winner" : ""}"><th scope="row">${esc(seatName(k, me()))}</th><td>${esc(c.pos)}</td><td>${c.tickets}</td><td>${c.missed_turns}</td><td>${esc(c.collected.join(", ") || "–")}</td><td>${num(v.scores[k])}</td></tr>`,
    );
    return `<table class="scores cars"><thead><tr><th>${esc(t("sg.car"))}</th><th>${esc(t("sg.at"))}</th><th title="G-16">${esc(t("sg.fines"))}</th><th title="G-17">${esc(t("sg.missed"))}</th><th>${esc(t("sg.collected"))}</th><th>${esc(t("over.score"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  function lastHtml(v) {
    const m = v.last_move;
    if (!m) return `<p class="small">${esc(t("sg.no_move"))}</p>`;
    const why = (m.reasons || []).map((r) => explain("stopandgo", r, "")[1] || t("sg.a_rule")).join(" ");
    const fine = m.result === "violation" ? ` <strong class="seat-obl">${esc(t("sg.ticket", { why }))}</strong>` : "";
    return `<p>${esc(t("sg.rolled", { name: seatName(m.seat, me()), roll: m.roll, path: m.path.join(" → ") }))}${fine}</p>`;
  }

  function draw() {
    if (!msg) return;
    const v = msg.view;
    if (myTurn() && !path.length) resetPath();
    if (!myTurn()) path = [];
    render($("sg-status"), statusHtml(v));
    render($("sg-move"), moveHtml(v));
    render($("sg-moves"), movesHtml(v));
    render($("sg-cars"), carsHtml(v));
    render($("sg-last"), lastHtml(v));
    paint();
  }

  // The whole map fits the screen; on a phone it is small, so it zooms (buttons here,
  // pinching the page too) and scrolls within its box while zoomed.
  let zoom = 1;
  function setZoom(z) {
    zoom = Math.max(1, Math.min(4, z));
    const box = $("sg-map");
    box.style.setProperty("--zoom", String(zoom));
    box.classList.toggle("zoomed", zoom > 1);
    scrolled = false;
    if (zoom > 1) scrollToCar();
  }

  root.addEventListener("click", (e) => {
    const z = e.target.closest("button[data-zoom]");
    if (z) return setZoom(z.dataset.zoom === "in" ? zoom * 1.5 : z.dataset.zoom === "out" ? zoom / 1.5 : 1);
    const hit = e.target.closest(".hit");
    if (hit) return clickSpace(hit.getAttribute("data-space"));
    const btn = e.target.closest("button");
    if (!btn || !root.contains(btn)) return;
    if (btn.dataset.path) return sendPath(JSON.parse(btn.dataset.path));
    if (btn.dataset.act === "move") return sendPath(path);
    if (btn.dataset.act === "undo" && path.length > 1) path.pop();
    if (btn.dataset.act === "clear") resetPath();
    draw();
  });
  window.addEventListener("resize", () => {
    scrolled = false;
    scrollToCar();
  });
  root.addEventListener("keydown", (e) => {
    const hit = e.target.closest && e.target.closest(".hit");
    if (hit && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      e.stopPropagation();
      clickSpace(hit.getAttribute("data-space"));
    }
  });

  return {
    update(m) {
      const turnChanged = !msg || msg.view.turn !== m.view.turn || msg.seq !== m.seq;
      msg = m;
      if (turnChanged) path = [];
      if (m.seq !== mapSeq) loadMap(m.seq);
      draw();
    },
    key(e) {
      if (!myTurn()) return;
      if (e.key === "Enter" && !(e.target.closest && e.target.closest("button"))) {
        e.preventDefault();
        sendPath(path);
      } else if (e.key === "Backspace") {
        e.preventDefault();
        if (path.length > 1) path.pop();
        draw();
      } else if (e.key === "Escape") {
        resetPath();
        draw();
      } else if (/^[1-9]$/.test(e.key)) {
        const { next } = continuations();
        const list = [...next].sort();
        const id = list[Number(e.key) - 1];
        if (id) clickSpace(id);
      }
    },
    help() {
      return `<ul><li>${esc(t("sg.keys.click"))}</li><li>${esc(t("sg.keys.keys"))}</li></ul>`;
    },
  };
}
