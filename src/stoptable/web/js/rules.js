// The reason codes of records.md with the rule each one cites, and the rule's words from
// the message catalogues, so a refused action is explained in words (in both languages)
// and never by its code.
import { t } from "./i18n.js";

const STOP = {
  round_over: ["S-50", () => t("rule.stop.round_over")],
  closing: ["S-52", () => t("rule.stop.closing")],
  not_your_turn: ["S-11", () => t("rule.stop.not_your_turn")],
  nothing_pending: ["S-58", () => t("rule.stop.nothing_pending")],
  not_eligible: ["S-39", () => t("rule.stop.not_eligible")],
  not_in_hand: ["S-58", () => t("rule.stop.not_in_hand")],
  response_required: ["S-35", () => t("rule.stop.response_required")],
  wrong_defence_colour: ["S-31", () => t("rule.stop.wrong_defence_colour")],
  fc_needs_colour_card: ["S-45", () => t("rule.stop.fc_needs_colour_card")],
  no_match: ["S-12", () => t("rule.stop.no_match")],
  invalid_mode: ["S-38", () => t("rule.stop.invalid_mode")],
  symbol_not_interjectable: ["S-19", () => t("rule.stop.symbol_not_interjectable")],
  not_identical: ["S-18", () => t("rule.stop.not_identical")],
  draw_unavailable: ["S-14", () => t("rule.stop.draw_unavailable")],
  pass_unavailable: ["S-17", () => t("rule.stop.pass_unavailable")],
  window_closed: ["S-26", () => t("rule.stop.window_closed")],
  not_a_number_card: ["S-44", () => t("rule.stop.not_a_number_card")],
};

const STOPIT = {
  game_over: ["I-20", () => t("rule.stopit.game_over")],
  not_waiting: ["I-37", () => t("rule.stopit.not_waiting")],
  not_go_seat: ["I-15", () => t("rule.stopit.not_go_seat")],
  not_running: ["I-31", () => t("rule.stopit.not_running")],
  interrupted: ["I-35", () => t("rule.stopit.interrupted")],
  held_full: ["I-6", () => t("rule.stopit.held_full")],
  held_empty: ["I-32", () => t("rule.stopit.held_empty")],
  empty_stack: ["I-31", () => t("rule.stopit.empty_stack")],
  stale: ["I-31", () => t("rule.stopit.stale")],
  not_a_stop_card: ["I-33", () => t("rule.stopit.not_a_stop_card")],
  bad_position: ["I-32", () => t("rule.stopit.bad_position")],
};

const STOPANDGO = {
  bad_start: ["G-6", () => t("rule.stopandgo.bad_start")],
  too_far: ["G-7", () => t("rule.stopandgo.too_far")],
  not_adjacent: ["G-7", () => t("rule.stopandgo.not_adjacent")],
  passes_destination: ["G-9", () => t("rule.stopandgo.passes_destination")],
  occupied: ["G-8", () => t("rule.stopandgo.occupied")],
  u_turn: ["G-10", () => t("rule.stopandgo.u_turn")],
  compulsory_straight_or_right: ["G-12", () => t("rule.stopandgo.compulsory_straight_or_right")],
  no_turn: ["G-12", () => t("rule.stopandgo.no_turn")],
  closed: ["G-12", () => t("rule.stopandgo.closed")],
  no_entry: ["G-12", () => t("rule.stopandgo.no_entry")],
  no_motor_vehicles: ["G-12", () => t("rule.stopandgo.no_motor_vehicles")],
  one_way: ["G-12", () => t("rule.stopandgo.one_way")],
  red: ["G-13", () => t("rule.stopandgo.red")],
  major_road_ahead: ["G-12", () => t("rule.stopandgo.major_road_ahead")],
  stop: ["G-12", () => t("rule.stopandgo.stop")],
  stop_alt: ["G-13", () => t("rule.stopandgo.stop_alt")],
  no_waiting: ["G-12", () => t("rule.stopandgo.no_waiting")],
  not_your_turn: ["G-4", () => t("rule.stopandgo.not_your_turn")],
  game_over: ["G-19", () => t("rule.stopandgo.game_over")],
};

const COMMON = {
  malformed: [() => t("rule.common.where"), () => t("rule.common.malformed")],
  spectator: [() => t("rule.common.where"), () => t("rule.common.spectator")],
  rate_limited: [() => t("rule.common.where"), () => t("rule.common.rate_limited")],
  not_connected: [() => t("rule.common.where"), () => t("rule.common.not_connected")],
  unavailable: [() => t("rule.common.where"), () => t("rule.common.unavailable")],
};

const BY_GAME = { stop: STOP, stopit: STOPIT, stopandgo: STOPANDGO };

/** [rule id, rule text] for a reason code of `game` (the ack's rule wins if given). */
export function explain(game, reason, rule) {
  const entry = (BY_GAME[game] || {})[reason] || COMMON[reason];
  const text = entry ? entry[1]() : "";
  const id = entry ? (typeof entry[0] === "function" ? entry[0]() : entry[0]) : "";
  return [rule && rule.startsWith("protocol") ? id : rule || id, text];
}
