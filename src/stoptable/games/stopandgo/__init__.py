"""Stop & Go: the dice race through a city map (rules/stop-and-go.md).

Public API:

* the game spec: ``stoptable.games.stopandgo.spec.SPEC`` (what front ends use);
* maps: :func:`load_default_map`, :func:`load_map` (data or path, the §6 format; raises
  :class:`MapError`), :func:`check_map` (every problem as a list of strings, for
  ``stoptable map check``), :func:`require_playable_map` (GM-9, for front ends that start
  games; raises :class:`UnplayableMap`), :class:`StopGoMap` (spaces, adjacency,
  coordinates, signs, dial, destinations);
* rules: :class:`Ruleset` (``Ruleset.preset("stopgo-standard", scoring="sum")``);
* play: :func:`new_game` / :class:`StopGoState` (``next_step``, ``run_step``,
  ``to_move``, ``actors``, ``legal_actions``, ``legal_paths``, ``legal_moves``, ``apply``,
  ``view``, ``seat_view``, ``result``, ``to_json``, ``copy``), the action :class:`Move`,
  the refusal :class:`MoveRejected`, and the cheap per-turn forms bots may be given:
  :class:`LegalMoves` and :class:`SeatView`;
* records: ``stoptable.games.stopandgo.records.REPLAYER``.

A typical driver loop (``core.driver.TurnDriver`` is this loop, writing a record)::

    state = new_game(seats=4, seed=1)
    while not state.over:
        while (step := state.next_step()) is not None:
            state.run_step(step)  # the die (G-5)
        state.apply(choose(state.legal_actions(state.to_move())))

No map is read at import time.
"""

from stoptable.games.stopandgo.actions import LegalMoves, Move
from stoptable.games.stopandgo.board import DialSign, StopGoMap
from stoptable.games.stopandgo.check import MapError, check_map, load_default_map, load_map
from stoptable.games.stopandgo.playable import UnplayableMap, require_playable_map
from stoptable.games.stopandgo.ruleset import Ruleset
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
    "UnplayableMap",
    "check_map",
    "load_default_map",
    "load_map",
    "new_game",
    "require_playable_map",
]
