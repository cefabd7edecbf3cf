"""Stop it!'s :class:`~stoptable.core.game.GameSpec`: what every front end needs, in one value.

Stop it! is real time (I-30): every request carries the arrival time ``t`` that its driver
stamps, so the action codec takes ``t`` from the driver like the seat (InvalidNotation
without it: no default time could be right). It has no driver of its own: the live table
machine (``stoptable.live``) runs it, with the bots scheduled as :data:`~.pacing.PACING`
says (I-50..I-54), on a simulator's virtual clock and on the server's wall clock alike.

>>> SPEC.seat_range()
(2, 6)
>>> SPEC.action_from_json({"type": "insert", "pos": 0}, seat=1, t=300)
Insert(seat=1, t=300, pos=0)
>>> SPEC.parse_action("grab S2 brown#4", 0, 250).to_json()["expect_id"]
'brown#4'
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final

from stoptable.core.game import GameSpec
from stoptable.core.protocol import JSON
from stoptable.games.stopit.actions import action_from_json, parse_action
from stoptable.games.stopit.cards import COLOURS, COMPOSITION, DECK_SIZE, KINDS, MINUS_CARDS
from stoptable.games.stopit.pacing import PACING
from stoptable.games.stopit.records import REPLAYER
from stoptable.games.stopit.ruleset import MAX_SEATS, MAX_STACKS, MIN_SEATS, Ruleset
from stoptable.games.stopit.state import StopItState
from stoptable.games.stopit.summary import replay_summary

FACTS: Final[Mapping[str, int]] = {
    "deck_size": DECK_SIZE,
    "card_kinds": len(KINDS),
    "colours": len(COLOURS),
    "colour_copies": COMPOSITION[COLOURS[0]],
    "stop_cards": sum(n for kind, n in COMPOSITION.items() if kind[0] == "S"),
    "max_evaluations": sum(n for kind, n in COMPOSITION.items() if kind[0] == "S"),
    "max_stacks": MAX_STACKS,
    "standard_stacks": Ruleset().stack_count,
    "max_hand_size": DECK_SIZE,
    "minus_cards": MINUS_CARDS,
    "min_seats": MIN_SEATS,
    "max_seats": MAX_SEATS,
}
"""The fixed sizes a research encoder builds its spaces from:

* ``deck_size`` (135): the cards dealt into the stacks (I-1, IA-1); ids are ``kind#tag``;
* ``card_kinds`` (15): the kinds in ``cards.KINDS`` order (7 colours, 7 stop kinds,
  SUPER), the index a kind one-hot uses;
* ``colours`` (7) and ``colour_copies`` (17): the colour cards, 7 x 17 = 119;
* ``stop_cards`` (16): stop and superstop cards, the only cards that can be called or
  played;
* ``max_evaluations`` (16): each evaluation takes one stop or superstop card out of the
  game (I-14), so no game has more (IA-16);
* ``max_stacks`` (9) and ``standard_stacks`` (5): the largest ``stack_count`` and the
  printed game's;
* ``max_hand_size`` (135): one seat may in principle take every card;
* ``minus_cards`` (15): the physical minus cards, the default ``minus_supply`` (I-3);
* ``min_seats``/``max_seats`` (2, 6): I-2.
"""


def new_state(rules: Ruleset, seats: int, seed: int, deck: list[str] | None = None) -> StopItState:
    """A seeded game (or one dealt from ``deck``, top first), waiting for the first Go."""
    return StopItState.new_game(rules, seats, seed, deck=deck)


def position_state(
    rules: Ruleset, seats: int, position: Mapping[str, JSON], base_dir: Path
) -> StopItState:
    """A game from a records.md §5.2 position (Stop it! positions name no files)."""
    return StopItState.from_position(rules, seats, dict(position))


SPEC: Final = GameSpec(
    name="stopit",
    title="Stop it!",
    rules="stop-it.md",
    ruleset_type=Ruleset,
    default_ruleset="stopit-standard",
    terminations=("supply_empty", "stacks_exhausted"),
    realtime=True,
    new_state=new_state,
    position_state=position_state,
    json_action=action_from_json,
    text_action=parse_action,
    replayer=REPLAYER,
    bot_module="stoptable.bots.stopit",
    pacing=PACING,
    summary=replay_summary,
    facts=FACTS,
)
"""The registry's entry for Stop it! (``stoptable.games.spec("stopit")``)."""
