// The Stop it! table: its stacks to grab from (click or keys 1-9), the held card and where
// it goes in your hand, Stop! on a stop card, playing a held stop card, the phase and its
// timers, the last evaluation with every hand.
import { esc, render, announce, seatName, clockText } from "../dom.js";
import { stopItCardSvg, stopItName, parseStopIt, STOPIT_COLOURS } from "../cards.js";
import { t, num } from "../i18n.js";

const PHASES = ["waiting_go", "running", "interrupted", "evaluating", "game_over"];

/** Where `id` keeps the hand sorted (I-8): after the last card of its colour, else at the end. */
export function sortedPos(hand, id) {
  const c = parseStopIt(id);
  if (c.stop) return hand.length;
  let last = -1;
  hand.forEach((h, i) => {
    const k = parseStopIt(h);
    if (!k.stop && k.colour === c.colour) last = i;
  });
  return last >= 0 ? last + 1 : hand.length;
}

export function mountStopIt(root, ctx) {
  let msg = null;
  let at = 0; // performance.now() when msg arrived
  let auto = localStorage.getItem("stoptable:stopit:auto") !== "0"; // sort grabs in for me
  let cursor = null; // insert position chosen with the keys
  let moving = null; // index of a hand card picked up to move

  root.innerHTML = `<section class="stopit" aria-label="${esc(t("game.stopit"))}">
    <div class="phasebar" id="si-phase"></div>
    <div class="stacks" id="si-stacks" role="group" aria-label="${esc(t("stopit.stacks"))}"></div>
    <section class="hand-wrap" aria-labelledby="si-hand-h"><h2 id="si-hand-h">${esc(t("stop.your_hand"))}</h2>
      <label class="small auto-label" id="si-auto-wrap"><input type="checkbox" id="si-auto"> ${esc(t("stopit.auto"))} <kbd>T</kbd></label>
      <div class="held" id="si-held"></div><div class="si-hand" id="si-hand"></div>
      <div class="row" id="si-stops"></div></section>
    <div class="side">
      <section aria-labelledby="si-players-h"><h2 id="si-players-h">${esc(t("stop.players"))}</h2><div class="others" id="si-others"></div></section>
      <section aria-labelledby="si-eval-h"><h2 id="si-eval-h">${esc(t("stopit.last_eval"))}</h2><div class="eval" id="si-eval"></div></section>
    </div>
  </section>`;
  const $ = (id) => root.querySelector(`#${id}`);
  const me = () => ctx.seat();
  $("si-auto").checked = auto;
  $("si-auto-wrap").hidden = me() === null;
  const legal = () => (msg ? msg.legal : []);
  const now = () => (msg ? msg.view.clock + (performance.now() - at) : 0);

  // Every press is sent (none is dropped while an earlier one waits for its ack): the
  // server takes them in arrival order and a refusal is shown with its rule.
  async function send(line, label) {
    const ack = await ctx.act(line);
    if (ack && ack.ok) announce(label);
  }

  function grab(k) {
    const v = msg && msg.view;
    if (!v) return;
    const top = v.tops[k];
    const line = { type: "grab", stack: `S${k + 1}`, expect_id: top };
    if (auto && top && v.hand && !v.held) line.pos = sortedPos(v.hand, top);
    send(line, top ? t("stopit.grabbed", { card: stopItName(top) }) : "");
  }

  function callStop(k) {
    const v = msg.view;
    send({ type: "call_stop", stack: `S${k + 1}`, expect_id: v.tops[k] }, t("stopit.stop"));
  }

  function insert(pos) {
    cursor = null;
    send({ type: "insert", pos }, t("stopit.sorted_in"));
  }

  // The phase bar is drawn on each state; its timers count down in place (tick), so the
  // Go! button under the pointer is never rebuilt between a press and its release.
  function timer(until, key, rule) {
    return `<span class="timer" data-until="${until}" data-key="${key}" title="${rule}">${esc(t(key, { time: clockText(until - now()) }))}</span>`;
  }

  function phaseHtml(v) {
    const name = t(`stopit.phase.${PHASES.includes(v.phase) ? v.phase : "unknown"}`);
    const parts = [`<span class="phase-name">${esc(name)}</span>`];
    const at = now();
    if (v.phase === "waiting_go") {
      const goSeat = v.go_seat;
      const canGo = legal().some((a) => a.type === "go");
      if (v.go_after !== null && v.go_after > at) parts.push(timer(v.go_after, "stopit.go_in", "I-37"));
      if (v.go_deadline !== null) parts.push(timer(v.go_deadline, "stopit.auto_go", "I-37"));
      parts.push(canGo ? `<button type="button" data-act="go" data-focus="go" class="lit">${esc(t("stopit.go"))} <kbd>G</kbd></button>` : `<span>${esc(t("stopit.says_go", { name: seatName(goSeat, me()) }))}</span>`);
    }
    if (v.phase === "interrupted" && v.interrupt) {
      parts.push(`<span>${esc(t("stopit.stopped_with", { name: seatName(v.interrupt.by, me()), card: stopItName(v.interrupt.card) }))}</span>`);
      parts.push(timer(v.interrupt.deadline, "stopit.sort_in_time", "I-35"));
    }
    parts.push(`<span class="timer" title="I-19">${esc(t("stopit.supply", { count: v.supply }))}</span>`);
    return parts.join(" ");
  }

  function tickTimers() {
    for (const span of $("si-phase").querySelectorAll(".timer[data-until]")) {
      const text = t(span.dataset.key, { time: clockText(Number(span.dataset.until) - now()) });
      if (span.textContent !== text) span.textContent = text;
    }
  }

  function stacksHtml(v) {
    const L = legal();
    return v.tops
      .map((top, k) => {
        const c = top ? parseStopIt(top) : null;
        const canGrab = L.some((a) => a.type === "grab" && a.stack === `S${k + 1}`);
        const canStop = L.some((a) => a.type === "call_stop" && a.stack === `S${k + 1}`);
        return `<div class="stack">
          <button type="button" class="grab" data-grab="${k}" data-focus="grab-${k}" ${me() === null ? "disabled" : ""} ${canGrab ? "" : 'aria-disabled="true"'}
><span class="sr-only">${esc(t("stopit.stack_label", { n: k + 1, card: top ? stopItName(top) : t("stopit.empty"), count: v.stack_sizes[k] }))}</span>
            <span class="key" aria-hidden="true">${k + 1}</span><span aria-hidden="true">${stopItCardSvg(top)}</span></button>
          <span class="size">${esc(t("stopit.left", { count: v.stack_sizes[k] }))}</span>
          ${c && c.stop && me() !== null ? `<button type="button" class="stop-call ${canStop ? "lit" : ""}" data-stop="${k}" data-focus="stop-${k}"><span aria-hidden="true">${esc(t("stopit.stop_button"))}</span><span class="sr-only">${esc(t("stopit.call_stop_on", { n: k + 1, card: stopItName(top) }))}</span></button>` : ""}
        </div>`;
      })
      .join("");
  }

  function heldHtml(v) {
    if (v.hand === null) return `<p class="watching-note">${esc(t("stopit.watching"))}</p>`;
    if (!v.held) return `<span class="small">${esc(t(moving !== null ? "stopit.pick_gap" : "stopit.nothing_held"))}</span>`;
    return `<span class="slot">${stopItCardSvg(v.held)}</span><span>${esc(t("stopit.holding", { card: stopItName(v.held) }))}</span>`;
  }

  function handHtml(v) {
    if (v.hand === null) return "";
    const holding = !!v.held;
    const gaps = holding || moving !== null;
    const target = cursor ?? (holding ? sortedPos(v.hand, v.held) : null);
    const out = [];
    const gap = (i) =>
      gaps
        ? `<button type="button" class="gap ${target === i ? "target" : ""}" data-gap="${i}" data-focus="gap-${i}" aria-label="${esc(t("stopit.put_at", { n: i + 1 }))}">${i + 1}</button>`
        : "";
    v.hand.forEach((id, i) => {
      out.push(gap(i));
      out.push(`<button type="button" class="sicard ${moving === i ? "selected" : ""}" data-card="${i}" data-focus="si-${esc(id)}"><span class="sr-only">${esc(t(holding ? "stopit.card_at" : "stopit.card_move", { card: stopItName(id), n: i + 1 }))}</span><span aria-hidden="true">${stopItCardSvg(id)}</span></button>`);
    });
    out.push(gap(v.hand.length));
    if (!v.hand.length && !gaps) out.push(`<span class="small">${esc(t("stop.empty_hand"))}</span>`);
    return out.join("");
  }

  function stopsHtml(v) {
    const plays = legal().filter((a) => a.type === "play_stop");
    return plays
      .map((a) => `<button type="button" class="lit" data-play="${esc(a.card_id)}" data-focus="play-${esc(a.card_id)}">${esc(t("stopit.play", { card: stopItName(a.card_id) }))} <kbd>P</kbd></button>`)
      .join("");
  }

  function kindsHtml(kinds) {
    return Object.entries(kinds || {})
      .map(([kind, n]) => {
        const c = parseStopIt(kind);
        const col = STOPIT_COLOURS[c.colour] || { fill: "#111", ink: "#fff", abbr: "SUP" };
        const label = c.stop ? (c.superstop ? t("stopit.chip_super") : t("stopit.chip_stop", { colour: t(`stopit.abbr.${c.colour}`) })) : t(`stopit.abbr.${c.colour}`);
        return `<span class="kind-chip" style="background:${c.stop ? "#111" : col.fill};color:${c.stop ? "#fff" : col.ink}" title="${esc(stopItName(kind))}">${esc(label)}×${num(n)}</span>`;
      })
      .join("");
  }

  function othersHtml(v) {
    const out = [];
    for (let k = 0; k < v.seats; k++) {
      const cards = t("stop.n_cards", { count: v.hand_sizes[k] });
      const minus = t("stopit.minus", { count: v.scores[k] });
      const detail = v.extra_points[k] ? t("stopit.minus_detail_extra", { count: v.minus_cards[k], extra: v.extra_points[k] }) : t("stopit.minus_detail", { count: v.minus_cards[k] });
      out.push(`<div class="other ${k === me() ? "me" : ""}">
        <strong>${esc(seatName(k, me()))}</strong> · ${esc(cards)} · <strong>${esc(minus)}</strong> ${esc(detail)}
        ${v.held_cards[k] ? ` · ${esc(t("stopit.holds", { card: stopItName(v.held_cards[k]) }))}` : ""}
        <div class="kinds">${kindsHtml(v.hand_kinds[k])}</div></div>`);
    }
    return out.join("");
  }

  function evalHtml(v) {
    const e = v.last_evaluation;
    if (!e) return `<p class="small">${esc(t("stopit.no_eval"))}</p>`;
    const what = e.colour ? t("stopit.eval_colour", { colour: t(`colour.${e.colour}`), card: stopItName(e.card) }) : t("stopit.eval_super");
    const rows = e.counts.map((n, k) => {
      const notes = [];
      if (e.minimum.includes(k)) notes.push(t("stopit.fewest"));
      if (e.unsorted.includes(k)) notes.push(t("stopit.unsorted"));
      if (e.fumbled && e.fumbled.includes(k)) notes.push(t("stopit.fumbled"));
      const hand = v.revealed && v.revealed[k] ? `<div class="kinds">${v.revealed[k].map((id) => `<span class="mini" style="width:1.1rem">${stopItCardSvg(id)}</span>`).join("")}</div>` : "";
      return `<tr><th scope="row">${esc(seatName(k, me()))}</th><td>${num(n)}</td><td>${esc(notes.join(", "))}</td><td>${e.awarded[k] ? `−${num(e.awarded[k])}` : ""}</td></tr><tr><td colspan="4">${hand}</td></tr>`;
    });
    return `<p>${esc(t("stopit.stopped", { name: seatName(e.caller, me()), what }))}</p>
      <table class="scores"><thead><tr><th>${esc(t("over.player"))}</th><th>${esc(t("stopit.count"))}</th><th><span class="sr-only">${esc(t("stopit.notes"))}</span></th><th>${esc(t("stopit.minus_head"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  function draw() {
    if (!msg) return;
    const v = msg.view;
    render($("si-phase"), phaseHtml(v));
    render($("si-stacks"), stacksHtml(v));
    render($("si-held"), heldHtml(v));
    render($("si-hand"), handHtml(v));
    render($("si-stops"), stopsHtml(v));
    render($("si-others"), othersHtml(v));
    render($("si-eval"), evalHtml(v));
  }

  root.addEventListener("change", (e) => {
    if (e.target.id === "si-auto") {
      auto = e.target.checked;
      localStorage.setItem("stoptable:stopit:auto", auto ? "1" : "0");
    }
  });

  // Presses that race the game (grab, Stop!, Go!, play a stop card) act on pointerdown:
  // the stacks and the phase bar are redrawn on every state, and a click needs the same
  // button under the pointer at release, so a press of 30-250 ms across a redraw was lost.
  // Keyboard presses arrive as clicks with detail 0 and act there.
  function quick(btn) {
    if (btn.dataset.grab !== undefined) return grab(Number(btn.dataset.grab)), true;
    if (btn.dataset.stop !== undefined) return callStop(Number(btn.dataset.stop)), true;
    if (btn.dataset.play) return send({ type: "play_stop", card_id: btn.dataset.play }, t("stopit.stop")), true;
    if (btn.dataset.act === "go") return send({ type: "go" }, t("stopit.go")), true;
    return false;
  }

  root.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !msg) return;
    const btn = e.target.closest("button");
    if (!btn || !root.contains(btn) || btn.disabled) return;
    if (quick(btn)) e.preventDefault(); // no focus move, no second action on click
  });

  root.addEventListener("click", (e) => {
    const btn = e.target.closest("button");
    if (!btn || !root.contains(btn) || !msg) return;
    const v = msg.view;
    if (e.detail === 0 && quick(btn)) return; // a keyboard press
    if (btn.dataset.grab !== undefined || btn.dataset.stop !== undefined || btn.dataset.play || btn.dataset.act === "go") return;
    if (btn.dataset.gap !== undefined) {
      const pos = Number(btn.dataset.gap);
      if (v.held) return insert(pos);
      if (moving !== null) {
        const from = moving;
        moving = null;
        const to = pos > from ? pos - 1 : pos;
        if (to === from) return draw();
        return send({ type: "move", from, to }, t("stopit.moved"));
      }
    }
    if (btn.dataset.card !== undefined && !v.held) {
      const i = Number(btn.dataset.card);
      moving = moving === i ? null : i;
      draw();
    }
  });

  return {
    update(m) {
      msg = m;
      at = performance.now();
      if (!m.view.held) cursor = null;
      if (m.view.hand && moving !== null && moving >= m.view.hand.length) moving = null;
      draw();
    },
    tick() {
      if (msg && (msg.view.phase === "waiting_go" || msg.view.phase === "interrupted")) tickTimers();
    },
    key(e) {
      if (!msg) return;
      const v = msg.view;
      const k = e.key;
      if (/^[1-9]$/.test(k) && Number(k) <= v.tops.length) {
        e.preventDefault();
        return grab(Number(k) - 1);
      }
      if (v.held && (k === "ArrowLeft" || k === "ArrowRight")) {
        e.preventDefault();
        const base = cursor ?? sortedPos(v.hand, v.held);
        cursor = Math.max(0, Math.min(v.hand.length, base + (k === "ArrowRight" ? 1 : -1)));
        return draw();
      }
      if (v.held && k === "Enter") {
        e.preventDefault();
        return insert(cursor ?? sortedPos(v.hand, v.held));
      }
      const low = k.toLowerCase();
      if (low === "g") return send({ type: "go" }, t("stopit.go"));
      if (low === "s") {
        const a = legal().find((x) => x.type === "call_stop");
        if (a) send(a, t("stopit.stop"));
        return;
      }
      if (low === "p") {
        const a = legal().find((x) => x.type === "play_stop");
        if (a) send(a, t("stopit.stop"));
        return;
      }
      if (low === "t") {
        auto = !auto;
        $("si-auto").checked = auto;
        localStorage.setItem("stoptable:stopit:auto", auto ? "1" : "0");
        draw();
      }
    },
    help() {
      return `<ul><li>${esc(t("stopit.keys.grab"))}</li><li>${esc(t("stopit.keys.sort"))}</li></ul>`;
    },
  };
}
