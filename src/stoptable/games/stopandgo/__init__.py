"""Stop & Go: the dice race through a city map (rules/stop-and-go.md).

Public API:

* maps: :func:`load_default_map`, :func:`load_map` (data or path; raises :class:`MapError`),
  :func:`check_map` (every problem as a list of strings, for ``stoptable map check``),
  :class:`StopGoMap` (spaces, adjacency, coordinates, signs, dial, destinations);
* rules: :class:`Ruleset` (``Ruleset.preset("stopgo-standard", scoring="sum")``);
* play: :func:`new_game` / :class:`StopGoState` (``roll``, ``apply_roll``,
  ``legal_actions``, ``legal_paths``, ``legal_moves``, ``apply``, ``view``,
  ``seat_view``, ``result``, ``to_json``, ``copy``), the action :class:`Move`, the refusal
  :class:`MoveRejected`, and the cheap per-turn forms bots may be given:
  :class:`LegalMoves` and :class:`SeatView`;
* records: ``stoptable.games.stopandgo.records.REPLAYER``.

A typical driver loop::

    state = new_game(seats=4, seed=1)
    while not state.over:
        state.roll()
        state.apply(choose(state.legal_actions(state.turn)))

No map is read at import time.
"""

from stoptable.games.stopandgo.actions import LegalMoves, Move
from stoptable.games.stopandgo.board import DialSign, StopGoMap
from stoptable.games.stopandgo.check import MapError, check_map, load_default_map, load_map
from stoptable.games.stopandgo.rules import Ruleset
from stoptable.games.stopandgo.state import Car, MoveRejected, StopGoState, new_game
from stoptable.games.stopandgo.views import SeatView

__all__ = [
    "Car",
    "DialSign",
    "LegalMoves",
    "MapError",
    "Move",
    "MoveRejected",
    "Ruleset",
    "SeatView",
    "StopGoMap",
    "StopGoState",
    "check_map",
    "load_default_map",
    "load_map",
    "new_game",
]
