// The reason codes of records.md with the rule each one cites and what that rule says, so a
// refused action is explained in words and not only by its code.

const STOP = {
  round_over: ["S-50", "The round is over: nothing can be played until the next deal."],
  closing: ["S-52", "The closing phase has started: no interjections and no normal turns."],
  not_your_turn: ["S-11", "It is not your turn (or you are not the player the effect is aimed at)."],
  nothing_pending: ["S-58", "There is nothing to accept or cancel right now."],
  not_eligible: ["S-39", "You may not cancel this Card Exchange."],
  not_in_hand: ["S-58", "That card is not in your hand."],
  response_required: ["S-35", "A Draw Two, Skip or Draw X is aimed at you: answer it or accept it."],
  wrong_defence_colour: ["S-31", "Only a 0 of the top card's colour defends (or cancels)."],
  fc_needs_colour_card: ["S-45", "A Free Choice is played together with a coloured card."],
  no_match: ["S-12", "A card must match the top card's colour or number (6 and 9 match)."],
  invalid_mode: ["S-38", "Pick a direction the rules allow for the Card Exchange."],
  symbol_not_interjectable: ["S-19", "Symbol cards are never interjected, and nothing goes on a symbol card."],
  not_identical: ["S-18", "You may only interject a card identical to the top card (colour and number)."],
  draw_unavailable: ["S-14", "You cannot draw now (nothing to draw, or you must play)."],
  pass_unavailable: ["S-17", "You may pass only when nothing can be drawn and you have no legal play."],
  window_closed: ["S-26", "There is no open call for you to make now."],
  not_a_number_card: ["S-44", "Reveal-and-play needs one of your number cards."],
};

const STOPIT = {
  game_over: ["I-20", "The game is over."],
  not_waiting: ["I-37", "Go is only for restarting a stopped game."],
  not_go_seat: ["I-15", "Only the player who stopped the game says Go."],
  not_running: ["I-31", "Wait for Go before grabbing, sorting or stopping."],
  interrupted: ["I-35", "The game is interrupted: only the card just grabbed may be sorted in."],
  held_full: ["I-6", "One hand only: sort in the card you hold first."],
  held_empty: ["I-32", "You are not holding a card to sort in."],
  empty_stack: ["I-31", "That stack is empty."],
  stale: ["I-31", "Someone was faster: the top card changed."],
  not_a_stop_card: ["I-33", "Only a stop or superstop card stops the game."],
  bad_position: ["I-32", "That is not a place in your hand."],
};

const STOPANDGO = {
  bad_start: ["G-6", "A path starts where your car stands."],
  too_far: ["G-7", "A path has at most as many steps as the die shows."],
  not_adjacent: ["G-7", "Each step must go to a neighbouring space."],
  passes_destination: ["G-9", "Entering the active destination ends the move."],
  occupied: ["G-8", "Another car stands on that space (only the market holds several)."],
  u_turn: ["G-10", "No U-turns (except on the market)."],
  compulsory_straight_or_right: ["G-12", "A sign says: straight on or right only."],
  no_turn: ["G-12", "A sign forbids that turn."],
  closed: ["G-12", "The road is closed to all vehicles."],
  no_entry: ["G-12", "No entry."],
  no_motor_vehicles: ["G-12", "No motor vehicles."],
  one_way: ["G-12", "One-way street: wrong direction."],
  red: ["G-13", "The light is red."],
  major_road_ahead: ["G-12", "Major road ahead: stop before entering."],
  stop: ["G-12", "Stop sign: the move must stop there."],
  stop_alt: ["G-13", "Stop: the move must stop there."],
  no_waiting: ["G-12", "No waiting: you may not end your move there."],
  not_your_turn: ["G-4", "It is not your turn."],
  game_over: ["G-19", "The game is over."],
};

const COMMON = {
  malformed: ["protocol §3", "The client sent something the server could not read."],
  spectator: ["protocol §3", "You are watching: take a free seat to play."],
  rate_limited: ["protocol §3", "Too many actions at once."],
  not_connected: ["protocol §3", "Not connected to the table."],
  unavailable: ["protocol §3", "The server could not take the action just now: try again."],
};

const BY_GAME = { stop: STOP, stopit: STOPIT, stopandgo: STOPANDGO };

/** [rule id, rule text] for a reason code of `game` (the ack's rule wins if given). */
export function explain(game, reason, rule) {
  const entry = (BY_GAME[game] || {})[reason] || COMMON[reason];
  const text = entry ? entry[1] : "";
  return [rule || (entry ? entry[0] : ""), text];
}
