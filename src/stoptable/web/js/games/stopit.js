// The Stop it! table: its stacks to grab from (click or keys 1-9), the held card and where
// it goes in your hand, Stop! on a stop card, playing a held stop card, the phase and its
// timers, the last evaluation with every hand.
import { esc, render, announce, seatName, clockText } from "../dom.js";
import { stopItCardSvg, stopItName, parseStopIt, STOPIT_COLOURS } from "../cards.js";

const PHASES = {
  waiting_go: "Waiting for Go",
  running: "Grab!",
  interrupted: "Stop! Sort in the card you hold",
  evaluating: "Evaluating",
  game_over: "Game over",
};

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
  let busy = false;

  root.innerHTML = `<section class="stopit" aria-label="Stop it! table">
    <div class="phasebar" id="si-phase" aria-live="polite"></div>
    <div class="stacks" id="si-stacks" role="group" aria-label="Stacks"></div>
    <section class="hand-wrap" aria-labelledby="si-hand-h"><h2 id="si-hand-h">Your hand</h2>
      <label class="small auto-label" id="si-auto-wrap"><input type="checkbox" id="si-auto"> sort grabbed cards in for me (next to their colour) <kbd>T</kbd></label>
      <div class="held" id="si-held"></div><div class="si-hand" id="si-hand"></div>
      <div class="row" id="si-stops"></div></section>
    <div class="side">
      <section aria-labelledby="si-players-h"><h2 id="si-players-h">Players</h2><div class="others" id="si-others"></div></section>
      <section aria-labelledby="si-eval-h"><h2 id="si-eval-h">Last evaluation</h2><div class="eval" id="si-eval"></div></section>
    </div>
  </section>`;
  const $ = (id) => root.querySelector(`#${id}`);
  const me = () => ctx.seat();
  $("si-auto").checked = auto;
  $("si-auto-wrap").hidden = me() === null;
  const legal = () => (msg ? msg.legal : []);
  const now = () => (msg ? msg.view.clock + (performance.now() - at) : 0);

  async function send(line, label) {
    if (busy && line.type === "grab") return;
    busy = line.type === "grab";
    try {
      const ack = await ctx.act(line);
      if (ack && ack.ok) announce(label);
    } finally {
      busy = false;
    }
  }

  function grab(k) {
    const v = msg && msg.view;
    if (!v) return;
    const top = v.tops[k];
    const line = { type: "grab", stack: `S${k + 1}`, expect_id: top };
    if (auto && top && v.hand && !v.held) line.pos = sortedPos(v.hand, top);
    send(line, top ? `Grabbed ${stopItName(top)}` : "");
  }

  function callStop(k) {
    const v = msg.view;
    send({ type: "call_stop", stack: `S${k + 1}`, expect_id: v.tops[k] }, "Stop!");
  }

  function insert(pos) {
    cursor = null;
    send({ type: "insert", pos }, "Sorted in");
  }

  function phaseHtml(v) {
    const parts = [`<span class="phase-name">${esc(PHASES[v.phase] || v.phase)}</span>`];
    const t = now();
    if (v.phase === "waiting_go") {
      const goSeat = v.go_seat;
      const canGo = legal().some((a) => a.type === "go");
      if (v.go_after !== null && v.go_after > t) parts.push(`<span class="timer">Go allowed in ${clockText(v.go_after - t)}</span>`);
      if (v.go_deadline !== null) parts.push(`<span class="timer" title="I-37">automatic Go in ${clockText(v.go_deadline - t)}</span>`);
      parts.push(canGo ? `<button type="button" data-act="go" data-focus="go" class="lit">Go! <kbd>G</kbd></button>` : `<span>${esc(seatName(goSeat, me()))} says Go</span>`);
    }
    if (v.phase === "interrupted" && v.interrupt) {
      parts.push(`<span>${esc(seatName(v.interrupt.by, me()))} stopped with ${esc(stopItName(v.interrupt.card))}</span>`);
      parts.push(`<span class="timer" title="I-35">${clockText(v.interrupt.deadline - t)} to sort in</span>`);
    }
    parts.push(`<span class="timer" title="I-19">minus cards left: ${v.supply}</span>`);
    return parts.join(" ");
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
            aria-label="Stack ${k + 1}: ${top ? esc(stopItName(top)) : "empty"}, ${v.stack_sizes[k]} cards${canGrab ? `; grab (${k + 1})` : ""}">
            <span class="key" aria-hidden="true">${k + 1}</span>${stopItCardSvg(top)}</button>
          <span class="size">${v.stack_sizes[k]} left</span>
          ${c && c.stop && me() !== null ? `<button type="button" class="stop-call ${canStop ? "lit" : ""}" data-stop="${k}" data-focus="stop-${k}" aria-label="Call Stop on stack ${k + 1} (${esc(stopItName(top))})">STOP!</button>` : ""}
        </div>`;
      })
      .join("");
  }

  function heldHtml(v) {
    if (v.hand === null) return `<p class="watching-note">Watching: the order of each hand stays hidden until an evaluation shows it.</p>`;
    if (!v.held) return `<span class="small">Nothing held. ${moving !== null ? "Pick the gap to move the card to." : "Grab with a click or a stack's number key."}</span>`;
    return `<span class="slot">${stopItCardSvg(v.held)}</span><span>Holding ${esc(stopItName(v.held))}: pick a gap in your hand (or <kbd>←</kbd><kbd>→</kbd> and <kbd>Enter</kbd>).</span>`;
  }

  function handHtml(v) {
    if (v.hand === null) return "";
    const holding = !!v.held;
    const gaps = holding || moving !== null;
    const target = cursor ?? (holding ? sortedPos(v.hand, v.held) : null);
    const out = [];
    const gap = (i) =>
      gaps
        ? `<button type="button" class="gap ${target === i ? "target" : ""}" data-gap="${i}" data-focus="gap-${i}" aria-label="Put it at place ${i + 1}">${i + 1}</button>`
        : "";
    v.hand.forEach((id, i) => {
      out.push(gap(i));
      out.push(`<button type="button" class="sicard ${moving === i ? "selected" : ""}" data-card="${i}" data-focus="si-${esc(id)}" aria-label="${esc(stopItName(id))}, place ${i + 1}${holding ? "" : "; pick up to move"}">${stopItCardSvg(id)}</button>`);
    });
    out.push(gap(v.hand.length));
    if (!v.hand.length && !gaps) out.push(`<span class="small">Your hand is empty.</span>`);
    return out.join("");
  }

  function stopsHtml(v) {
    const plays = legal().filter((a) => a.type === "play_stop");
    return plays
      .map((a) => `<button type="button" class="lit" data-play="${esc(a.card_id)}" data-focus="play-${esc(a.card_id)}">Play ${esc(stopItName(a.card_id))} <kbd>P</kbd></button>`)
      .join("");
  }

  function kindsHtml(kinds) {
    return Object.entries(kinds || {})
      .map(([kind, n]) => {
        const c = parseStopIt(kind);
        const col = STOPIT_COLOURS[c.colour] || { fill: "#111", ink: "#fff", abbr: "SUP" };
        const label = c.stop ? `${c.superstop ? "SUPER" : "STOP " + col.abbr}` : col.abbr;
        return `<span class="kind-chip" style="background:${c.stop ? "#111" : col.fill};color:${c.stop ? "#fff" : col.ink}" title="${esc(stopItName(kind))}">${esc(label)}×${n}</span>`;
      })
      .join("");
  }

  function othersHtml(v) {
    const out = [];
    for (let k = 0; k < v.seats; k++) {
      out.push(`<div class="other ${k === me() ? "me" : ""}" aria-label="${esc(seatName(k, me()))}: ${v.hand_sizes[k]} cards, ${v.scores[k]} minus points">
        <strong>${esc(seatName(k, me()))}</strong> · ${v.hand_sizes[k]} card${v.hand_sizes[k] === 1 ? "" : "s"} · <strong>${v.scores[k]}</strong> minus (${v.minus_cards[k]} cards${v.extra_points[k] ? ` + ${v.extra_points[k]} extra` : ""})
        ${v.held_cards[k] ? ` · holds ${esc(stopItName(v.held_cards[k]))}` : ""}
        <div class="kinds">${kindsHtml(v.hand_kinds[k])}</div></div>`);
    }
    return out.join("");
  }

  function evalHtml(v) {
    const e = v.last_evaluation;
    if (!e) return `<p class="small">No evaluation yet. A stop card on top of a stack can be called (Stop!) or grabbed and played later.</p>`;
    const what = e.colour ? `${e.colour} (${esc(stopItName(e.card))})` : "superstop: all colour cards";
    const rows = e.counts.map((n, k) => {
      const notes = [];
      if (e.minimum.includes(k)) notes.push("fewest");
      if (e.unsorted.includes(k)) notes.push("unsorted");
      if (e.fumbled && e.fumbled.includes(k)) notes.push("fumbled");
      const hand = v.revealed && v.revealed[k] ? `<div class="kinds">${v.revealed[k].map((id) => `<span class="mini" style="width:1.1rem">${stopItCardSvg(id)}</span>`).join("")}</div>` : "";
      return `<tr><th scope="row">${esc(seatName(k, me()))}</th><td>${n}</td><td>${notes.join(", ")}</td><td>${e.awarded[k] ? `−${e.awarded[k]}` : ""}</td></tr><tr><td colspan="4">${hand}</td></tr>`;
    });
    return `<p>${esc(seatName(e.caller, me()))} stopped: ${what}</p>
      <table class="scores"><thead><tr><th>Seat</th><th>count</th><th></th><th>minus</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
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

  root.addEventListener("click", (e) => {
    const t = e.target.closest("button");
    if (!t || !root.contains(t) || !msg) return;
    const v = msg.view;
    if (t.dataset.grab !== undefined) return grab(Number(t.dataset.grab));
    if (t.dataset.stop !== undefined) return callStop(Number(t.dataset.stop));
    if (t.dataset.play) return send({ type: "play_stop", card_id: t.dataset.play }, "Stop!");
    if (t.dataset.act === "go") return send({ type: "go" }, "Go!");
    if (t.dataset.gap !== undefined) {
      const pos = Number(t.dataset.gap);
      if (v.held) return insert(pos);
      if (moving !== null) {
        const from = moving;
        moving = null;
        const to = pos > from ? pos - 1 : pos;
        if (to === from) return draw();
        return send({ type: "move", from, to }, "Moved");
      }
    }
    if (t.dataset.card !== undefined && !v.held) {
      const i = Number(t.dataset.card);
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
      if (msg && (msg.view.phase === "waiting_go" || msg.view.phase === "interrupted")) render($("si-phase"), phaseHtml(msg.view));
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
      if (low === "g") return send({ type: "go" }, "Go!");
      if (low === "s") {
        const a = legal().find((x) => x.type === "call_stop");
        if (a) send(a, "Stop!");
        return;
      }
      if (low === "p") {
        const a = legal().find((x) => x.type === "play_stop");
        if (a) send(a, "Stop!");
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
      return `<ul><li><kbd>1</kbd>…<kbd>5</kbd> grab from that stack · <kbd>S</kbd> Stop! on a stop card · <kbd>P</kbd> play a stop card from your hand</li>
        <li><kbd>←</kbd> <kbd>→</kbd> choose where the held card goes, <kbd>Enter</kbd> sorts it in · <kbd>T</kbd> sort grabs in for me on/off · <kbd>G</kbd> Go!</li></ul>`;
    },
  };
}
