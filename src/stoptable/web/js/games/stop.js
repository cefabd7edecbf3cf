// The Stop table: seats, discard and draw piles, what is pending, your hand (sorted, the
// playable cards marked), the call toggle, interject/cancel/accept, the log and scores.
import { esc, render, announce, seatName, shortName } from "../dom.js";
import { stopCardSvg, stopCardName, stopSortKey, cardBackSvg, parseStop } from "../cards.js";
import { t, num } from "../i18n.js";

function cardsText(cards) {
  return (cards || []).map(stopCardName).join(" + ");
}

function callName(c) {
  return t(c === "achtung" ? "stop.achtung" : "stop.stop");
}

function modeText(mode, target, me) {
  return mode === "swap" ? t("stop.mode.swap_with", { name: seatName(target, me) }) : t(`stop.mode.${mode === "right" ? "right" : "left"}`);
}

/** One line of the log for a public event (Event.for_seat), in words: every event kind of
 * both rulesets has its own message; an unknown kind never shows its internal name. */
export function stopLogLine(ev, me) {
  const who = ev.seat !== undefined && ev.seat !== null ? seatName(ev.seat, me) : "";
  const calls = ev.calls && ev.calls.length ? ` ${t("stop.log.calling", { calls: ev.calls.map(callName).join(" ") })}` : "";
  const cards = cardsText(ev.cards);
  switch (ev.kind) {
    case "play":
    case "interject":
      return t(`stop.log.${ev.kind}`, { who, cards }) + calls;
    case "cancel":
      return t("stop.log.cancel", { who, cards });
    case "draw":
    case "accept":
    case "reveal_draw":
      return ev.cards ? t(`stop.log.${ev.kind}_seen`, { who, count: ev.count ?? 0, cards }) : t(`stop.log.${ev.kind}`, { who, count: ev.count ?? 0 });
    case "flip":
      return t("stop.log.flip", { who, card: stopCardName(ev.turned), count: ev.count ?? 0 });
    case "reveal":
      return t("stop.log.reveal", { who, cards: cardsText(ev.hand) });
    case "reveal_play":
      return t("stop.log.reveal_play", { who, cards });
    case "stalled":
      return t("stop.log.stalled", { count: ev.actions ?? 0 });
    case "skipped":
      return t("stop.log.skipped", { who });
    case "pass":
      return t("stop.log.pass", { who });
    case "exchange":
      return t("stop.log.exchange", { who, how: modeText(ev.mode, ev.target, me) });
    case "reshuffle":
      return t("stop.log.reshuffle", { count: ev.count ?? 0 });
    case "penalty":
      return t("stop.log.penalty", { who, call: callName(ev.missed), rule: ev.rule || "", count: ev.count ?? 0 });
    case "round_end":
      return t("stop.log.round_end", { scores: (ev.scores || []).map((x, k) => `${seatName(k, me)} +${num(x)}`).join(", ") });
    case "deal":
      return t("stop.log.deal", { round: ev.round, dealer: seatName(ev.dealer, me) });
    case "call":
      return t("stop.log.call", { who, call: callName(ev.call) });
    default:
      return t("stop.log.acts", { who });
  }
}

function pendingText(p, me) {
  if (!p) return "";
  const name = t(`stop.pending.${["draw2", "skip", "drawx", "exchange"].includes(p.kind) ? p.kind : "effect"}`);
  if (p.kind === "exchange") {
    return t("stop.pending.exchange_by", { name, who: seatName(p.exchanger, me), how: modeText(p.mode, p.target, me) });
  }
  return p.count ? t("stop.pending.on_count", { name, count: p.count, who: seatName(p.victim, me) }) : t("stop.pending.on", { name, who: seatName(p.victim, me) });
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

  root.innerHTML = `<section class="stop" aria-label="${esc(t("game.stop"))}">
    <div class="seats" id="st-seats" aria-label="${esc(t("stop.players"))}"></div>
    <div class="table-centre">
      <div class="piles" id="st-piles"></div>
      <div class="status" id="st-status" aria-live="polite"></div>
    </div>
    <div class="controls" id="st-controls" role="toolbar" aria-label="${esc(t("stop.actions"))}"></div>
    <div class="picker" id="st-picker" hidden></div>
    <div class="hand-wrap"><h2 class="sr-only">${esc(t("stop.your_hand"))}</h2><div class="hand" id="st-hand" aria-label="${esc(t("stop.your_hand"))}"></div></div>
    <div class="side">
      <section aria-labelledby="st-log-h"><h2 id="st-log-h">${esc(t("stop.log_title"))}</h2><ol class="log" id="st-log" tabindex="0"></ol></section>
      <section aria-labelledby="st-score-h"><h2 id="st-score-h">${esc(t("stop.match"))}</h2><div id="st-scores"></div></section>
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
      announce(label || t("stop.done"));
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
          let label = t("stop.play", { cards: cardsText(a.cards) });
          if (a.mode) label += `: ${modeText(a.mode, a.target, me())}`;
          opts.push({ label, line: a, card: coloured });
        }
      } else if ((a.type === "interject" || a.type === "cancel") && a.card === code) {
        opts.push({ label: t(a.type === "cancel" ? "stop.cancel_with" : "stop.interject_card", { card: stopCardName(code) }), line: a });
      } else if (a.type === "accept" && a.reveal_play === code) {
        opts.push({ label: t("stop.accept_reveal", { card: stopCardName(code) }), line: a });
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
      title: code === "FC" ? t("stop.fc_pick") : t("stop.how", { card: stopCardName(code) }),
      options: chosen,
      fc: code === "FC",
    };
    draw();
  }

  function seatsHtml(v) {
    const out = [];
    for (let k = 0; k < v.seats; k++) {
      const turn = v.turn === k;
      const obl = (v.obligations || []).filter((o) => o.seat === k).map((o) => t(o.kind === "achtung" ? "stop.achtung_due" : "stop.late_stop"));
      const cards = t("stop.n_cards", { count: v.hand_sizes[k] });
      const points = t("stop.n_points", { count: v.totals[k] });
      out.push(`<div class="seat ${turn ? "turn" : ""} ${k === me() ? "me" : ""}" aria-label="${esc(seatName(k, me()))}: ${esc(cards)}, ${esc(points)}${turn ? `, ${esc(t("stop.to_act"))}` : ""}">
        <div class="seat-name">${esc(seatName(k, me()))}${v.dealer === k ? ` <span class="badge" title="${esc(t("stop.dealer"))}">${esc(t("stop.dealer_badge"))}</span>` : ""}${turn ? ` <span class="badge turn-badge">${esc(t("stop.to_act"))}</span>` : ""}</div>
        <div class="seat-cards"><span class="mini-back" aria-hidden="true"></span> ${esc(cards)}</div>
        <div class="seat-score">${esc(points)}</div>
        ${obl.length ? `<div class="seat-obl">${esc(obl.join(", "))}</div>` : ""}
      </div>`);
    }
    return out.join("");
  }

  function statusHtml(v) {
    const mine = me();
    const parts = [];
    if (ctx.waiting && ctx.waiting()) {
      parts.push(`<strong>${esc(t("stop.waiting"))}</strong> ${esc(t("stop.waiting_more"))}`);
    } else if (v.phase === "round_over") {
      const scores = v.round_scores ? v.round_scores.map((x, k) => `${seatName(k, mine)} +${num(x)}`).join(", ") : "";
      parts.push(`<strong>${esc(t("stop.round_over", { round: v.round }))}</strong> ${esc(scores)} ${esc(t("stop.next_round"))}`);
    } else if (v.phase === "game_over") {
      parts.push(`<strong>${esc(t("stop.match_over"))}</strong> ${esc(t("stop.winner", { names: (v.winners || []).map((k) => seatName(k, mine)).join(", ") }))}`);
    } else if (v.pending) {
      parts.push(`<span class="pending">${esc(pendingText(v.pending, mine))}</span>`);
      if (mine !== null && v.pending.victim === mine) {
        const answers = legal().filter((a) => a.type === "play").map((a) => cardsText(a.cards));
        parts.push(esc(answers.length ? t("stop.answer_with", { cards: [...new Set(answers)].join(t("stop.or")) }) : t("stop.cannot_answer")));
      }
    } else if (v.turn !== null && v.turn !== undefined) {
      parts.push(v.turn === mine ? `<strong>${esc(t("stop.your_turn"))}</strong> ${esc(t("stop.your_turn_more"))}` : esc(t("stop.to_play", { name: seatName(v.turn, mine) })));
    }
    if (v.phase === "closing") parts.push(esc(t("stop.closing")));
    const live = v.phase === "playing" || v.phase === "closing";
    if (live && mine !== null && v.turn === mine && !legal().length && !(ctx.waiting && ctx.waiting())) {
      parts.push(`<span class="note">${esc(t("stop.grace"))}</span>`);
    }
    if (mine === null) parts.push(`<span class="note">${esc(t("stop.watching"))}</span>`);
    return parts.join(" ");
  }

  function pilesHtml(v) {
    const canDraw = legal().some((a) => a.type === "draw");
    return `<button type="button" class="pile draw-pile" data-act="draw" data-focus="draw" ${canDraw ? "" : "aria-disabled=\"true\""}><span class="sr-only">${esc(t(canDraw ? "stop.draw_pile_can" : "stop.draw_pile_n", { count: v.draw_size }))}</span>
        <span aria-hidden="true">${cardBackSvg()}</span><span class="count" aria-hidden="true">${v.draw_size}</span></button>
      <div class="pile discard" role="img" aria-label="${esc(t("stop.top_card", { card: v.top ? stopCardName(v.top) : t("stop.none"), count: v.discard_size }))}">
        ${v.top ? stopCardSvg(v.top) : ""}<span class="count">${v.discard_size}</span></div>
      ${v.last_reveal ? `<div class="reveal">${esc(t("stop.revealed", { who: seatName(v.last_reveal.seat, me()), cards: cardsText(v.last_reveal.hand) }))}</div>` : ""}`;
  }

  function controlsHtml(v) {
    const L = legal();
    const has = (type) => L.some((a) => a.type === type);
    const b = [];
    if (me() === null) return "";
    b.push(`<button type="button" class="toggle call ${call ? "on" : ""}" data-act="call" data-focus="call" aria-pressed="${call}" title="${esc(t("stop.call_hint"))}">${esc(t(call ? "stop.call_on" : "stop.call_off"))} <kbd>A</kbd></button>`);
    const inter = L.filter((a) => a.type === "interject");
    if (inter.length) {
      const label = t("stop.interject_card", { card: stopCardName(inter[0].card) });
      b.push(`<button type="button" class="interject lit" data-act="interject" data-focus="interject" aria-label="${esc(label)} (I)">${esc(label)} <kbd>I</kbd></button>`);
    } else {
      b.push(`<button type="button" class="interject" disabled aria-label="${esc(t("stop.interject_none"))}">${esc(t("stop.interject"))}</button>`);
    }
    const cancels = L.filter((a) => a.type === "cancel");
    if (cancels.length) b.push(`<button type="button" class="lit" data-act="cancel" data-focus="cancel">${esc(t("stop.cancel_exchange", { card: stopCardName(cancels[0].card) }))}</button>`);
    const accepts = L.filter((a) => a.type === "accept");
    if (accepts.length) {
      const p = v.pending;
      const what = p && p.kind === "draw2" ? t("stop.accept_draw", { count: 2 * (p.count || 1) }) : p && p.kind === "skip" ? t("stop.accept_skip") : t("stop.accept_take");
      b.push(`<button type="button" data-act="accept" data-focus="accept">${esc(t("stop.accept", { what }))} <kbd>X</kbd></button>`);
    }
    if (has("draw")) b.push(`<button type="button" data-act="draw" data-focus="draw-btn">${esc(t("stop.draw"))} <kbd>D</kbd></button>`);
    if (has("pass")) b.push(`<button type="button" data-act="pass" data-focus="pass">${esc(t("stop.pass"))} <kbd>P</kbd></button>`);
    if (has("call_achtung")) b.push(`<button type="button" class="lit" data-act="call_achtung" data-focus="call_achtung">${esc(t("stop.call", { call: callName("achtung") }))}</button>`);
    if (has("call_stop")) b.push(`<button type="button" class="lit" data-act="call_stop" data-focus="call_stop">${esc(t("stop.call", { call: callName("stop") }))}</button>`);
    return b.join("");
  }

  function handHtml(v) {
    if (v.hand === null || v.hand === undefined) return `<p class="watching-note">${esc(t("stop.no_hand"))}</p>`;
    const hand = [...v.hand].sort((a, b) => stopSortKey(a) - stopSortKey(b));
    if (!hand.length) return `<p>${esc(t("stop.empty_hand"))}</p>`;
    const playable = new Set();
    for (const a of legal()) {
      if (a.type === "play") playable.add(a.cards[0]);
      if (a.type === "interject" || a.type === "cancel") playable.add(a.card);
    }
    return hand
      .map((c, i) => {
        const ok = playable.has(c);
        const drawn = v.drawn === c;
        return `<button type="button" class="card ${ok ? "playable" : ""} ${drawn ? "drawn" : ""}" data-card="${esc(c)}" data-focus="card-${i}-${esc(c)}" data-index="${i}"><span class="sr-only">${esc(stopCardName(c))}${ok ? `, ${esc(t("stop.playable"))}` : ""}${drawn ? `, ${esc(t("stop.just_drawn"))}` : ""}</span><span aria-hidden="true">${stopCardSvg(c)}</span></button>`;
      })
      .join("");
  }

  function scoresHtml(v) {
    const n = v.seats;
    // Short names in the headers ("Bot 2", no "(you)"): long ones made the columns wrap
    // letter by letter in Japanese on a narrow table (the seats above say the rest).
    const head = Array.from({ length: n }, (_, k) => `<th scope="col">${esc(shortName(k))}</th>`).join("");
    const rows = [...rounds.entries()].sort((a, b) => a[0] - b[0]).map(([r, s]) => `<tr><th scope="row">${esc(t("stop.round", { round: r }))}</th>${s.map((x) => `<td>${num(x)}</td>`).join("")}</tr>`);
    // After a reload the view's log may no longer reach back to the first rounds: the rounds
    // it does not show are summed into one row, the totals less the rounds we know.
    const done = v.phase === "round_over" || v.phase === "game_over" ? v.round : v.round - 1;
    const missing = Array.from({ length: Math.max(done, 0) }, (_, i) => i + 1).filter((r) => !rounds.has(r));
    if (missing.length) {
      const known = [...rounds.values()];
      const rest = v.totals.map((total, k) => total - known.reduce((sum, s) => sum + (s[k] || 0), 0));
      const label = missing.length === 1 ? t("stop.round", { round: missing[0] }) : t("stop.rounds", { from: missing[0], to: missing[missing.length - 1] });
      rows.unshift(`<tr class="earlier"><th scope="row">${esc(label)}</th>${rest.map((x) => `<td>${num(x)}</td>`).join("")}</tr>`);
    }
    const target = v.target_score ?? (v.options && v.options.target_score) ?? 500;
    return `<table class="scores"><thead><tr><th></th>${head}</tr></thead><tbody>${rows.join("")}
      <tr class="total"><th scope="row">${esc(t("stop.total"))}</th>${v.totals.map((x) => `<td>${num(x)}</td>`).join("")}</tr></tbody></table>
      <p class="small">${esc(t("stop.round", { round: v.round }))} · ${esc(t("stop.target", { target }))}</p>`;
  }

  function pickerHtml() {
    if (!picker) return "";
    return `<h3>${esc(picker.title)}</h3><div class="row">${picker.options
      .map((o, i) => `<button type="button" data-pick="${i}" data-focus="pick-${i}" class="pick">${o.card && picker.fc ? `<span class="mini">${stopCardSvg(o.card)}</span>` : ""}${esc(o.label)}</button>`)
      .join("")}<button type="button" data-pick="close" class="ghost" data-focus="pick-close">${esc(t("stop.back"))} <kbd>Esc</kbd></button></div>`;
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
      announce(t(call ? "stop.call_armed" : "stop.call_none"));
      draw();
      return;
    }
    if (what === "interject" || what === "cancel") {
      const a = L.find((x) => x.type === what);
      if (a) send(a, t(what === "cancel" ? "stop.cancel_with" : "stop.interject_card", { card: stopCardName(a.card) }));
      return;
    }
    if (what === "accept") {
      const acc = L.filter((x) => x.type === "accept");
      if (acc.length === 1) send(acc[0], t("stop.accepted"));
      else if (acc.length > 1) {
        picker = { title: t("stop.reveal_pick"), options: acc.map((a) => ({ label: a.reveal_play ? t("stop.play", { cards: stopCardName(a.reveal_play) }) : t("stop.accept_plain"), line: a, card: a.reveal_play })), fc: true };
        draw();
      }
      return;
    }
    const a = L.find((x) => x.type === what);
    send(a || { type: what, ...(what === "draw" ? { calls: [] } : {}) }, t(`stop.done_${what === "pass" ? "pass" : what === "draw" ? "draw" : "other"}`));
  }

  root.addEventListener("click", (e) => {
    const btn = e.target.closest("button");
    if (!btn || !root.contains(btn)) return;
    if (btn.dataset.card) return clickCard(btn.dataset.card);
    if (btn.dataset.pick !== undefined) {
      if (btn.dataset.pick === "close") {
        picker = null;
        draw();
        return;
      }
      const o = picker.options[Number(btn.dataset.pick)];
      return send(o.line, o.label);
    }
    if (btn.dataset.act) doAct(btn.dataset.act);
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
      // The replay draws a position at a time: its log and match table follow the position
      // (from the view at that point), never what the page saw before.
      if (first || ctx.replay) {
        if (ctx.replay) rounds.clear();
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
          const why = t(ev.missed === "achtung" ? "stop.forgot_achtung" : "stop.forgot_stop", { count: ev.count });
          ctx.toast(`<strong>${esc(t("stop.forgot", { call: callName(ev.missed) }))}</strong> <span class="rule">${esc(ev.rule)}</span> ${esc(why)}`, "warn", 10000);
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
      return `<ul><li>${esc(t("stop.keys.hand"))}</li><li>${esc(t("stop.keys.calls"))}</li><li>${esc(t("stop.keys.turn"))}</li></ul>`;
    },
  };
}
