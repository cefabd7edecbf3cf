// The Stop table: seats, discard and draw piles, what is pending, your hand (sorted, the
// playable cards marked), the call toggle, interject/cancel/accept, the log and scores.
import { esc, render, announce, seatName } from "../dom.js";
import { stopCardSvg, stopCardName, stopSortKey, cardBackSvg, parseStop } from "../cards.js";

const PENDING_NAMES = { draw2: "Draw Two", skip: "Skip", drawx: "Draw X", exchange: "Card Exchange" };
const MODE_NAMES = { left: "everyone passes their hand to the left", right: "everyone passes their hand to the right", swap: "swap hands with one player" };

function cardsText(cards) {
  return (cards || []).map(stopCardName).join(" + ");
}

/** One line of the log for a public event (Event.for_seat). */
export function stopLogLine(ev, me) {
  const who = ev.seat !== undefined && ev.seat !== null ? seatName(ev.seat, me) : "";
  const calls = ev.calls && ev.calls.length ? ` (“${ev.calls.map((c) => (c === "achtung" ? "Achtung!" : "Stop!")).join(" ")}”)` : "";
  switch (ev.kind) {
    case "play":
      return `${who} plays ${cardsText(ev.cards)}${calls}`;
    case "interject":
      return `${who} interjects ${cardsText(ev.cards)}${calls}`;
    case "cancel":
      return `${who} cancels the exchange with ${cardsText(ev.cards)}`;
    case "draw":
      return `${who} draws ${ev.count}${ev.cards ? `: ${cardsText(ev.cards)}` : ""}`;
    case "accept":
      return `${who} accepts and draws ${ev.count ?? ""}`.trim();
    case "flip":
      return `${who} flips ${stopCardName(ev.turned)}: draws ${ev.count}`;
    case "skipped":
      return `${who} is skipped`;
    case "pass":
      return `${who} passes`;
    case "exchange":
      return `${who}'s Card Exchange: ${ev.mode === "swap" ? `swap with P${ev.target}` : `hands go ${ev.mode}`}`;
    case "reshuffle":
      return `The discard pile is shuffled into a new draw pile (${ev.count} cards)`;
    case "penalty":
      return `${who} forgot “${ev.missed === "achtung" ? "Achtung!" : "Stop!"}” (${ev.rule}): draws ${ev.count}`;
    case "round_end":
      return `Round over: ${ev.scores.map((s, k) => `P${k} +${s}`).join(", ")}`;
    case "deal":
      return `Round ${ev.round} is dealt (dealer P${ev.dealer})`;
    case "call":
      return `${who} calls “${ev.call === "stop" ? "Stop!" : "Achtung!"}”`;
    default: {
      const rest = Object.entries(ev).filter(([k]) => k !== "kind" && k !== "seat").map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", ");
      return `${who} ${ev.kind}${rest ? ` (${rest})` : ""}`;
    }
  }
}

function pendingText(p, me) {
  if (!p) return "";
  const name = PENDING_NAMES[p.kind] || p.kind;
  if (p.kind === "exchange") {
    const how = p.mode === "swap" ? `swap with P${p.target}` : `hands go ${p.mode}`;
    return `${name} by ${seatName(p.exchanger, me)} (${how}) — it can be cancelled with a 0 of the top colour`;
  }
  const count = p.count ? ` ×${p.count}` : "";
  return `${name}${count} on ${seatName(p.victim, me)}`;
}

function sameLine(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function mountStop(root, ctx) {
  let msg = null;
  let call = false; // the Achtung!/Stop! toggle
  let picker = null; // {title, options: [{label, line}]}
  const rounds = new Map(); // round number -> scores
  let logLines = [];

  root.innerHTML = `<section class="stop" aria-label="Stop table">
    <div class="seats" id="st-seats" aria-label="Players"></div>
    <div class="table-centre">
      <div class="piles" id="st-piles"></div>
      <div class="status" id="st-status" aria-live="polite"></div>
    </div>
    <div class="controls" id="st-controls" role="toolbar" aria-label="Actions"></div>
    <div class="picker" id="st-picker" hidden></div>
    <div class="hand-wrap"><h2 class="sr-only">Your hand</h2><div class="hand" id="st-hand" aria-label="Your hand"></div></div>
    <div class="side">
      <section aria-labelledby="st-log-h"><h2 id="st-log-h">Log</h2><ol class="log" id="st-log"></ol></section>
      <section aria-labelledby="st-score-h"><h2 id="st-score-h">Match</h2><div id="st-scores"></div></section>
    </div>
  </section>`;
  const $ = (id) => root.querySelector(`#${id}`);

  const me = () => ctx.seat();
  const legal = () => (msg ? msg.legal : []);
  const withCalls = (line) => {
    if (!("calls" in line)) return line;
    return { ...line, calls: call ? ["achtung", "stop"] : [] };
  };

  async function send(line, label) {
    picker = null;
    const sent = withCalls(line);
    const ack = await ctx.act(sent);
    if (ack && ack.ok) {
      if ("calls" in line && call) call = false;
      announce(label || "Done");
    }
    draw();
  }

  /** What clicking `code` in the hand may do: [{label, line}]. */
  function optionsFor(code) {
    const opts = [];
    for (const a of legal()) {
      if (a.type === "play") {
        const pair = a.cards.length === 2;
        const coloured = a.cards[a.cards.length - 1];
        if (code === "FC" ? pair : !pair && coloured === code) {
          let label = `Play ${cardsText(a.cards)}`;
          if (a.mode) label += `: ${a.mode === "swap" ? `swap with P${a.target}` : `hands go ${a.mode}`}`;
          opts.push({ label, line: a, card: coloured });
        }
      } else if ((a.type === "interject" || a.type === "cancel") && a.card === code) {
        opts.push({ label: `${a.type === "cancel" ? "Cancel with" : "Interject"} ${stopCardName(code)}`, line: a });
      } else if (a.type === "accept" && a.reveal_play === code) {
        opts.push({ label: `Accept, revealing and playing ${stopCardName(code)}`, line: a });
      }
    }
    return opts;
  }

  function clickCard(code) {
    const opts = optionsFor(code);
    if (!opts.length) {
      // Not playable: let the server say why (rule id and text), as a table would.
      send({ type: "play", cards: [code], calls: [] }, "");
      return;
    }
    const plays = opts.filter((o) => o.line.type === "play");
    const chosen = plays.length ? plays : opts;
    if (chosen.length === 1) {
      send(chosen[0].line, chosen[0].label);
      return;
    }
    picker = {
      title: code === "FC" ? "Free Choice: which coloured card goes with it?" : `${stopCardName(code)}: how?`,
      options: chosen,
      fc: code === "FC",
    };
    draw();
  }

  function seatsHtml(v) {
    const out = [];
    for (let k = 0; k < v.seats; k++) {
      const turn = v.turn === k;
      const obl = (v.obligations || []).filter((o) => o.seat === k).map((o) => (o.kind === "achtung" ? "Achtung! due" : "late Stop possible"));
      out.push(`<div class="seat ${turn ? "turn" : ""} ${k === me() ? "me" : ""}" aria-label="${esc(seatName(k, me()))}: ${v.hand_sizes[k]} cards, ${v.totals[k]} points${turn ? ", to act" : ""}">
        <div class="seat-name">${esc(seatName(k, me()))}${v.dealer === k ? ' <span class="badge" title="dealer">D</span>' : ""}${turn ? ' <span class="badge turn-badge">to act</span>' : ""}</div>
        <div class="seat-cards"><span class="mini-back" aria-hidden="true"></span> ${v.hand_sizes[k]} card${v.hand_sizes[k] === 1 ? "" : "s"}</div>
        <div class="seat-score">${v.totals[k]} pts</div>
        ${obl.length ? `<div class="seat-obl">${obl.join(", ")}</div>` : ""}
      </div>`);
    }
    return out.join("");
  }

  function statusHtml(v) {
    const mine = me();
    const parts = [];
    if (ctx.waiting && ctx.waiting()) {
      parts.push("<strong>Waiting for players.</strong> The round starts when every seat is taken.");
    } else if (v.phase === "round_over") {
      parts.push(`<strong>Round ${v.round} is over.</strong> ${v.round_scores ? v.round_scores.map((s, k) => `${esc(seatName(k, mine))} +${s}`).join(", ") : ""}. The next round is dealt in a moment.`);
    } else if (v.phase === "game_over") {
      parts.push(`<strong>The match is over.</strong> Winner: ${(v.winners || []).map((k) => esc(seatName(k, mine))).join(", ")}`);
    } else if (v.pending) {
      parts.push(`<span class="pending">${esc(pendingText(v.pending, mine))}</span>`);
      if (mine !== null && v.pending.victim === mine) {
        const answers = legal().filter((a) => a.type === "play").map((a) => cardsText(a.cards));
        parts.push(answers.length ? `Answer with ${esc([...new Set(answers)].join(" or "))}, or accept.` : "You cannot answer it: accept.");
      }
    } else if (v.turn !== null && v.turn !== undefined) {
      parts.push(v.turn === mine ? "<strong>Your turn.</strong> Play a matching card or draw." : `${esc(seatName(v.turn, mine))} to play.`);
    }
    if (v.phase === "closing") parts.push("Closing phase: the last card's effect resolves.");
    const live = v.phase === "playing" || v.phase === "closing";
    if (live && mine !== null && v.turn === mine && !legal().length && !(ctx.waiting && ctx.waiting())) {
      parts.push('<span class="small">(a moment for interjections first, S-62)</span>');
    }
    if (mine === null) parts.push('<span class="watching-note">You are watching: hands are hidden.</span>');
    return parts.join(" ");
  }

  function pilesHtml(v) {
    const canDraw = legal().some((a) => a.type === "draw");
    return `<button type="button" class="pile draw-pile" data-act="draw" data-focus="draw" ${canDraw ? "" : "aria-disabled=\"true\""} aria-label="Draw pile, ${v.draw_size} cards${canDraw ? ": draw a card (D)" : ""}">
        ${cardBackSvg()}<span class="count">${v.draw_size}</span></button>
      <div class="pile discard" aria-label="Top card: ${v.top ? esc(stopCardName(v.top)) : "none"}, ${v.discard_size} cards in the discard pile">
        ${v.top ? stopCardSvg(v.top) : ""}<span class="count">${v.discard_size}</span></div>
      ${v.last_reveal ? `<div class="reveal">P${v.last_reveal.seat} revealed: ${esc(cardsText(v.last_reveal.hand))}</div>` : ""}`;
  }

  function controlsHtml(v) {
    const L = legal();
    const has = (t) => L.some((a) => a.type === t);
    const b = [];
    if (me() === null) return "";
    b.push(`<button type="button" class="toggle call ${call ? "on" : ""}" data-act="call" data-focus="call" aria-pressed="${call}" title="Say it with your next card (A)">Call “Achtung!/Stop!”: ${call ? "ON" : "off"} <kbd>A</kbd></button>`);
    const inter = L.filter((a) => a.type === "interject");
    if (inter.length) {
      b.push(`<button type="button" class="interject lit" data-act="interject" data-focus="interject" aria-label="Interject ${esc(stopCardName(inter[0].card))} (I)">Interject ${esc(inter[0].card)} <kbd>I</kbd></button>`);
    } else {
      b.push(`<button type="button" class="interject" disabled aria-label="Interject (nothing identical in your hand)">Interject</button>`);
    }
    const cancels = L.filter((a) => a.type === "cancel");
    if (cancels.length) b.push(`<button type="button" class="lit" data-act="cancel" data-focus="cancel">Cancel the exchange (${esc(cancels[0].card)})</button>`);
    const accepts = L.filter((a) => a.type === "accept");
    if (accepts.length) {
      const p = v.pending;
      const what = p && p.kind === "draw2" ? `draw ${2 * (p.count || 1)}` : p && p.kind === "skip" ? "be skipped" : "take it";
      b.push(`<button type="button" data-act="accept" data-focus="accept">Accept (${what}) <kbd>X</kbd></button>`);
    }
    if (has("draw")) b.push(`<button type="button" data-act="draw" data-focus="draw-btn">Draw <kbd>D</kbd></button>`);
    if (has("pass")) b.push(`<button type="button" data-act="pass" data-focus="pass">Pass <kbd>P</kbd></button>`);
    if (has("call_achtung")) b.push(`<button type="button" class="lit" data-act="call_achtung" data-focus="call_achtung">Call “Achtung!”</button>`);
    if (has("call_stop")) b.push(`<button type="button" class="lit" data-act="call_stop" data-focus="call_stop">Call “Stop!”</button>`);
    return b.join("");
  }

  function handHtml(v) {
    if (v.hand === null || v.hand === undefined) return `<p class="watching-note">Watching: no hand is shown.</p>`;
    const hand = [...v.hand].sort((a, b) => stopSortKey(a) - stopSortKey(b));
    if (!hand.length) return `<p>No cards in your hand.</p>`;
    const playable = new Set();
    for (const a of legal()) {
      if (a.type === "play") playable.add(a.cards[0]);
      if (a.type === "interject" || a.type === "cancel") playable.add(a.card);
    }
    return hand
      .map((c, i) => {
        const ok = playable.has(c);
        const drawn = v.drawn === c;
        return `<button type="button" class="card ${ok ? "playable" : ""} ${drawn ? "drawn" : ""}" data-card="${esc(c)}" data-focus="card-${i}-${esc(c)}" data-index="${i}" aria-label="${esc(stopCardName(c))}${ok ? ", playable" : ""}${drawn ? ", just drawn" : ""}">${stopCardSvg(c)}</button>`;
      })
      .join("");
  }

  function scoresHtml(v) {
    const n = v.seats;
    const head = Array.from({ length: n }, (_, k) => `<th scope="col">${esc(seatName(k, me()))}</th>`).join("");
    const rows = [...rounds.entries()].sort((a, b) => a[0] - b[0]).map(([r, s]) => `<tr><th scope="row">Round ${r}</th>${s.map((x) => `<td>${x}</td>`).join("")}</tr>`);
    // After a reload the view's log may no longer reach back to the first rounds: the rounds
    // it does not show are summed into one row, the totals less the rounds we know.
    const done = v.phase === "round_over" || v.phase === "game_over" ? v.round : v.round - 1;
    const missing = Array.from({ length: Math.max(done, 0) }, (_, i) => i + 1).filter((r) => !rounds.has(r));
    if (missing.length) {
      const known = [...rounds.values()];
      const rest = v.totals.map((t, k) => t - known.reduce((sum, s) => sum + (s[k] || 0), 0));
      const label = missing.length === 1 ? `Round ${missing[0]}` : `Rounds ${missing[0]}–${missing[missing.length - 1]}`;
      rows.unshift(`<tr class="earlier"><th scope="row">${label}</th>${rest.map((x) => `<td>${x}</td>`).join("")}</tr>`);
    }
    const target = v.target_score ?? (v.options && v.options.target_score) ?? 500;
    return `<table class="scores"><thead><tr><th></th>${head}</tr></thead><tbody>${rows.join("")}
      <tr class="total"><th scope="row">Total</th>${v.totals.map((x) => `<td>${x}</td>`).join("")}</tr></tbody></table>
      <p class="small">Round ${v.round}. Lowest total wins once someone reaches ${esc(target)}.</p>`;
  }

  function pickerHtml() {
    if (!picker) return "";
    return `<h3>${esc(picker.title)}</h3><div class="row">${picker.options
      .map((o, i) => `<button type="button" data-pick="${i}" data-focus="pick-${i}" class="pick">${o.card && picker.fc ? `<span class="mini">${stopCardSvg(o.card)}</span>` : ""}${esc(o.label)}</button>`)
      .join("")}<button type="button" data-pick="close" class="ghost" data-focus="pick-close">Back <kbd>Esc</kbd></button></div>`;
  }

  function draw() {
    if (!msg) return;
    const v = msg.view;
    render($("st-seats"), seatsHtml(v));
    render($("st-piles"), pilesHtml(v));
    render($("st-status"), statusHtml(v));
    render($("st-controls"), controlsHtml(v));
    render($("st-hand"), handHtml(v));
    $("st-picker").hidden = !picker;
    render($("st-picker"), pickerHtml());
    if (picker) {
      const first = $("st-picker").querySelector("button");
      if (first && !$("st-picker").contains(document.activeElement)) first.focus();
    }
    render($("st-scores"), scoresHtml(v));
    render($("st-log"), logLines.slice(-30).map((l) => `<li>${esc(l)}</li>`).join(""));
    const log = $("st-log");
    log.scrollTop = log.scrollHeight;
  }

  function doAct(what) {
    const L = legal();
    if (what === "call") {
      call = !call;
      announce(call ? "Your next card comes with Achtung!/Stop!" : "No call");
      draw();
      return;
    }
    if (what === "interject" || what === "cancel") {
      const a = L.find((x) => x.type === what);
      if (a) send(a, `${what} ${a.card}`);
      return;
    }
    if (what === "accept") {
      const acc = L.filter((x) => x.type === "accept");
      if (acc.length === 1) send(acc[0], "Accepted");
      else if (acc.length > 1) {
        picker = { title: "Reveal and play which number card?", options: acc.map((a) => ({ label: a.reveal_play ? `Play ${stopCardName(a.reveal_play)}` : "Accept", line: a, card: a.reveal_play })), fc: true };
        draw();
      }
      return;
    }
    const a = L.find((x) => x.type === what);
    send(a || { type: what, ...(what === "draw" ? { calls: [] } : {}) }, what);
  }

  root.addEventListener("click", (e) => {
    const t = e.target.closest("button");
    if (!t || !root.contains(t)) return;
    if (t.dataset.card) return clickCard(t.dataset.card);
    if (t.dataset.pick !== undefined) {
      if (t.dataset.pick === "close") {
        picker = null;
        draw();
        return;
      }
      const o = picker.options[Number(t.dataset.pick)];
      return send(o.line, o.label);
    }
    if (t.dataset.act) doAct(t.dataset.act);
  });

  function takeLog(list) {
    for (const ev of list) {
      if (ev.kind === "round_end") {
        const r = msg ? msg.view.round : rounds.size + 1;
        rounds.set(r, ev.scores);
      }
    }
  }

  return {
    update(m) {
      const first = msg === null;
      msg = m;
      if (first) {
        logLines = (m.view.log || []).map((ev) => stopLogLine(ev, me()));
        takeLog(m.view.log || []);
      }
      if (m.view.round_scores && (m.view.phase === "round_over" || m.view.phase === "game_over")) rounds.set(m.view.round, m.view.round_scores);
      if (picker && !m.legal.some((a) => picker.options.some((o) => sameLine(o.line, a)))) picker = null;
      draw();
    },
    events(m) {
      for (const ev of m.events) {
        logLines.push(stopLogLine(ev, me()));
        if (ev.kind === "penalty" && ev.seat === me()) {
          const callName = ev.missed === "achtung" ? "Achtung!" : "Stop!";
          const why = ev.missed === "achtung"
            ? "You placed your second-to-last card without calling it"
            : "You placed your last card without calling it";
          ctx.toast(`<strong>You forgot “${callName}”</strong> <span class="rule">${esc(ev.rule)}</span>: ${why}, so you draw ${ev.count} card${ev.count === 1 ? "" : "s"}. Turn on the call toggle (A) before playing.`, "warn", 10000);
        }
        if (ev.kind === "round_end" && msg) rounds.set(msg.view.round, ev.scores);
      }
      if (logLines.length > 200) logLines = logLines.slice(-200);
      draw();
    },
    key(e) {
      const k = e.key;
      if (k === "Escape" && picker) {
        picker = null;
        draw();
        e.preventDefault();
        return;
      }
      if (k === "ArrowLeft" || k === "ArrowRight") {
        const cards = [...root.querySelectorAll("#st-hand .card")];
        if (!cards.length) return;
        let i = cards.indexOf(document.activeElement);
        i = i < 0 ? 0 : (i + (k === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
        cards[i].focus();
        e.preventDefault();
        return;
      }
      const map = { d: "draw", p: "pass", a: "call", i: "interject", c: "cancel", x: "accept" };
      const what = map[k.toLowerCase()];
      if (what) {
        e.preventDefault();
        doAct(what);
      }
    },
    help() {
      return `<ul><li><kbd>←</kbd> <kbd>→</kbd> move along your hand, <kbd>Enter</kbd> plays the card</li>
        <li><kbd>A</kbd> Achtung!/Stop! toggle · <kbd>I</kbd> interject · <kbd>C</kbd> cancel an exchange</li>
        <li><kbd>D</kbd> draw · <kbd>P</kbd> pass · <kbd>X</kbd> accept · <kbd>Esc</kbd> close a picker</li></ul>`;
    },
  };
}
