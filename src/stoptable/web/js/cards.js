// Our own card art as SVG strings: Stop cards (colour, symbol and text, readable without
// colour) and Stop it! cards (colour word and pattern, stop and superstop cards).
import { t } from "./i18n.js";
import { esc } from "./dom.js";

const STOP_COLOURS = {
  R: { name: "red", fill: "#c92a2a", ink: "#fff", shape: "circle" },
  B: { name: "blue", fill: "#1c64c8", ink: "#fff", shape: "square" },
  G: { name: "green", fill: "#2b8a3e", ink: "#fff", shape: "triangle" },
  Y: { name: "yellow", fill: "#f5c211", ink: "#222", shape: "diamond" },
};

const SYMBOLS = {
  Skip: { glyph: "⊘", word: "SKIP", name: "Skip" },
  Exch: { glyph: "⇄", word: "EXCH", name: "Card Exchange" },
  DrawX: { glyph: "+X", word: "DRAW X", name: "Draw X" },
};

function shape(kind, x, y, r, fill, stroke) {
  const s = `fill="${fill}" stroke="${stroke}" stroke-width="1.2"`;
  if (kind === "circle") return `<circle cx="${x}" cy="${y}" r="${r}" ${s}/>`;
  if (kind === "square") return `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" ${s}/>`;
  if (kind === "triangle")
    return `<polygon points="${x},${y - r * 1.1} ${x + r * 1.1},${y + r * 0.9} ${x - r * 1.1},${y + r * 0.9}" ${s}/>`;
  return `<polygon points="${x},${y - r * 1.25} ${x + r},${y} ${x},${y + r * 1.25} ${x - r},${y}" ${s}/>`;
}

/** Parse a Stop card code: {colour, rank, symbol, fc}. */
export function parseStop(code) {
  if (code === "FC") return { fc: true, colour: null, rank: null, symbol: null };
  const colour = code[0];
  const rest = code.slice(1);
  if (/^\d$/.test(rest)) return { fc: false, colour, rank: Number(rest), symbol: null };
  return { fc: false, colour, rank: null, symbol: rest };
}

/** Words for a Stop card ("red 4", "blue Skip", "Free Choice"). */
export function stopCardName(code) {
  const c = parseStop(code);
  if (c.fc) return t("card.fc");
  const colour = t(`colour.${STOP_COLOURS[c.colour]?.name ?? "red"}`);
  return c.symbol ? t("card.symbol", { colour, symbol: t(`card.${c.symbol}`) }) : t("card.number", { colour, rank: String(c.rank) });
}

const ORDER = { R: 0, B: 1, G: 2, Y: 3 };
const RANK_ORDER = { Skip: 10, Exch: 11, DrawX: 12 };

/** records.md §4.1 canonical order: R, B, G, Y, then FC; 0..9, Skip, Exch, DrawX. */
export function stopSortKey(code) {
  const c = parseStop(code);
  if (c.fc) return 99;
  return ORDER[c.colour] * 20 + (c.symbol ? RANK_ORDER[c.symbol] : c.rank);
}

/** The SVG of a Stop card (viewBox 60x90). */
export function stopCardSvg(code) {
  const c = parseStop(code);
  const label = stopCardName(code);
  if (c.fc) {
    return `<svg viewBox="0 0 60 90" class="card-svg" role="img" aria-label="${label}">
<rect x="1" y="1" width="58" height="88" rx="7" fill="#222" stroke="#000"/>
<path d="M30 45 L30 20 A25 25 0 0 1 55 45 Z" fill="${STOP_COLOURS.R.fill}"/>
<path d="M30 45 L55 45 A25 25 0 0 1 30 70 Z" fill="${STOP_COLOURS.B.fill}"/>
<path d="M30 45 L30 70 A25 25 0 0 1 5 45 Z" fill="${STOP_COLOURS.G.fill}"/>
<path d="M30 45 L5 45 A25 25 0 0 1 30 20 Z" fill="${STOP_COLOURS.Y.fill}"/>
<circle cx="30" cy="45" r="12" fill="#222"/>
<text x="30" y="49.5" text-anchor="middle" font-size="11" font-weight="700" fill="#fff">FC</text>
<text x="6" y="13" font-size="9" font-weight="700" fill="#fff">FREE</text>
<text x="54" y="84" font-size="9" font-weight="700" fill="#fff" text-anchor="end">CHOICE</text>
</svg>`;
  }
  const col = STOP_COLOURS[c.colour];
  const big = c.symbol ? SYMBOLS[c.symbol].glyph : String(c.rank);
  const corner = c.symbol ? c.colour : c.colour + c.rank;
  const under = c.rank === 6 || c.rank === 9 ? `<rect x="22" y="60" width="16" height="2.5" fill="${col.ink}"/>` : "";
  const bigSize = c.symbol ? (c.symbol === "DrawX" ? 22 : 28) : 34;
  const word = c.symbol
    ? `<text x="30" y="72" text-anchor="middle" font-size="8.5" font-weight="700" fill="${col.ink}">${SYMBOLS[c.symbol].word}</text>`
    : "";
  return `<svg viewBox="0 0 60 90" class="card-svg" role="img" aria-label="${label}">
<rect x="1" y="1" width="58" height="88" rx="7" fill="${col.fill}" stroke="#0006"/>
<ellipse cx="30" cy="44" rx="21" ry="27" fill="#fff3" />
${shape(col.shape, 10, 12, 4.5, col.ink, col.fill)}
<text x="17" y="15.5" font-size="10" font-weight="700" fill="${col.ink}">${corner}</text>
<text x="30" y="${(c.symbol ? 43 : 45) + bigSize * 0.35}" text-anchor="middle" font-size="${bigSize}" font-weight="800" fill="${col.ink}">${big}</text>
${under}${word}
${shape(col.shape, 50, 80, 4.5, col.ink, col.fill)}
<text x="43" y="83.5" text-anchor="end" font-size="10" font-weight="700" fill="${col.ink}">${corner}</text>
</svg>`;
}

export function cardBackSvg(label = t("stop.draw_pile")) {
  return `<svg viewBox="0 0 60 90" class="card-svg" role="img" aria-label="${label}">
<rect x="1" y="1" width="58" height="88" rx="7" fill="#34495e" stroke="#000"/>
<rect x="6" y="6" width="48" height="78" rx="5" fill="none" stroke="#fff8" stroke-width="2"/>
<text x="30" y="50" text-anchor="middle" font-size="13" font-weight="800" fill="#fff">STOP</text>
</svg>`;
}

// ---------------------------------------------------------------- Stop it!

export const STOPIT_COLOURS = {
  red: { fill: "#d62828", ink: "#fff", abbr: "RED" },
  blue: { fill: "#1d5fc2", ink: "#fff", abbr: "BLU" },
  yellow: { fill: "#f4c90f", ink: "#222", abbr: "YEL" },
  green: { fill: "#2b8a3e", ink: "#fff", abbr: "GRN" },
  purple: { fill: "#7b3fb5", ink: "#fff", abbr: "PUR" },
  orange: { fill: "#f08c00", ink: "#222", abbr: "ORA" },
  brown: { fill: "#7a4a24", ink: "#fff", abbr: "BRN" },
};

/** {kind, colour, stop, superstop} of a Stop it! card id (records.md §5.1). */
export function parseStopIt(id) {
  const kind = String(id).split("#")[0];
  if (kind === "SUPER") return { kind, colour: null, stop: true, superstop: true };
  if (kind.startsWith("STOP-")) return { kind, colour: kind.slice(5), stop: true, superstop: false };
  return { kind, colour: kind, stop: false, superstop: false };
}

export function stopItName(id) {
  const c = parseStopIt(id);
  if (c.superstop) return t("stopit.superstop");
  if (c.stop) return t("stopit.stop_card", { colour: t(`colour.${c.colour}`) });
  return t(`colour.${c.colour}`);
}

/** The SVG of a Stop it! card (viewBox 40x56). */
export function stopItCardSvg(id) {
  if (id === null || id === undefined) {
    return `<svg viewBox="0 0 40 56" class="card-svg" role="img" aria-label="${t("stopit.empty")}">
<rect x="1" y="1" width="38" height="54" rx="5" fill="none" stroke="#999" stroke-dasharray="3 3"/></svg>`;
  }
  const c = parseStopIt(id);
  const label = stopItName(id);
  if (c.superstop) {
    const cols = Object.values(STOPIT_COLOURS);
    const bands = cols
      .map((col, i) => `<rect x="1" y="${1 + i * 7.7}" width="38" height="7.8" fill="${col.fill}"/>`)
      .join("");
    return `<svg viewBox="0 0 40 56" class="card-svg" role="img" aria-label="${label}">
<clipPath id="r"><rect x="1" y="1" width="38" height="54" rx="5"/></clipPath><g clip-path="url(#r)">${bands}</g>
<polygon points="12,18 28,18 34,24 34,32 28,38 12,38 6,32 6,24" fill="#111" stroke="#fff" stroke-width="1.5"/>
<text x="20" y="31" text-anchor="middle" font-size="7.5" font-weight="800" fill="#fff">SUPER</text></svg>`;
  }
  const col = STOPIT_COLOURS[c.colour] || { fill: "#888", ink: "#fff", abbr: c.colour };
  // The colour's short word in this page's language (the same chips as the players' list).
  const abbr = STOPIT_COLOURS[c.colour] ? t(`stopit.abbr.${c.colour}`) : col.abbr;
  if (c.stop) {
    return `<svg viewBox="0 0 40 56" class="card-svg" role="img" aria-label="${label}">
<rect x="1" y="1" width="38" height="54" rx="5" fill="#fff" stroke="${col.fill}" stroke-width="3"/>
<polygon points="13,14 27,14 34,21 34,33 27,40 13,40 6,33 6,21" fill="${col.fill}" stroke="#111" stroke-width="1"/>
<text x="20" y="30" text-anchor="middle" font-size="9" font-weight="800" fill="${col.ink}">STOP</text>
<text x="20" y="51" text-anchor="middle" font-size="7" font-weight="700" fill="#111">${esc(abbr)}</text></svg>`;
  }
  return `<svg viewBox="0 0 40 56" class="card-svg" role="img" aria-label="${label}">
<rect x="1" y="1" width="38" height="54" rx="5" fill="${col.fill}" stroke="#0006"/>
<circle cx="20" cy="28" r="11" fill="#fff4"/>
<text x="20" y="32" text-anchor="middle" font-size="10" font-weight="800" fill="${col.ink}">${esc(abbr)}</text></svg>`;
}
