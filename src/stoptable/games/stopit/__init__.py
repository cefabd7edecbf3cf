"""Stop it!: the real-time grabbing game (rules/stop-it.md), as a pure state machine.

>>> state = StopItState.new_game(Ruleset.preset("stopit-standard"), seats=2, seed=1)
>>> _ = state.apply(Go(seat=0, t=0))
>>> state.phase
'running'
"""

from __future__ import annotations

from stoptable.games.stopit.actions import (
    CallStop,
    Go,
    Grab,
    Insert,
    Move,
    PlayStop,
    Request,
    action_from_json,
    parse_request,
    parse_stack,
    request_from_json,
    stack_name,
)
from stoptable.games.stopit.cards import (
    COLOURS,
    COMPOSITION,
    DECK_SIZE,
    KINDS,
    MINUS_CARDS,
    STOP_KINDS,
    SUPER,
    colour_of,
    is_stop_kind,
    kind_of,
    parse_card,
    standard_deck,
)
from stoptable.games.stopit.evaluation import is_sorted
from stoptable.games.stopit.ruleset import Ruleset
from stoptable.games.stopit.state import PHASES, StopItState

__all__ = [
    "COLOURS",
    "COMPOSITION",
    "DECK_SIZE",
    "KINDS",
    "MINUS_CARDS",
    "PHASES",
    "STOP_KINDS",
    "SUPER",
    "CallStop",
    "Go",
    "Grab",
    "Insert",
    "Move",
    "PlayStop",
    "Request",
    "Ruleset",
    "StopItState",
    "action_from_json",
    "colour_of",
    "is_sorted",
    "is_stop_kind",
    "kind_of",
    "parse_card",
    "parse_request",
    "parse_stack",
    "request_from_json",
    "stack_name",
    "standard_deck",
]
