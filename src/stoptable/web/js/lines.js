// A game record's lines (records.md) in words, for the replay: every action and chance
// line of each game has its own message; a line of a kind this client does not know still
// reads as words ("{who} acts"), never as its field names or JSON.
import { playerName } from "./dom.js";
import { t, has } from "./i18n.js";
import { stopCardName, stopItName } from "./cards.js";

/** The record line `line` of a `game` game in words; null: the position before any line. */
export function recordLine(game, line) {
  if (!line) return t("replay.start");
  if (line.chance !== undefined) {
    const key = `replay.chance.${line.chance}`;
    return has(key) ? t(key, { value: line.value ?? "" }) : t("replay.chance.unknown");
  }
  if (line.clock !== undefined) return t("replay.clock", { time: (Number(line.clock) / 1000).toFixed(1) });
  const who = line.seat !== undefined ? playerName(line.seat) : "";
  const cards = (line.cards || (line.card ? [line.card] : [])).map(stopCardName).join(" + ");
  const params = {
    who,
    cards,
    card: line.card_id ? stopItName(line.card_id) : cards,
    stack: String(line.stack || "").replace(/^S/, ""),
    pos: Number(line.pos ?? line.to ?? 0) + 1,
    path: Array.isArray(line.path) ? line.path.join(" → ") : "",
  };
  const key = `replay.${game}.${line.type}`;
  return has(key) ? t(key, params) : t("replay.someone", params);
}
