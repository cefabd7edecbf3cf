"""Determinization for search bots: a full Stop & Go state consistent with one seat's view.

The only hidden thing in Stop & Go is the order of the face-down destination deck (the
view gives ``deck_size`` only). :func:`determinize` deals the destinations that are in
play and neither collected nor face up, at random, into a deck of that size; everything
else (cars, dial, roll, turn, G-22 count, the last move) is copied from the view. The
sampled state gets its own seeded generator, so the rolls after it are fresh chance, not
the real game's.

The map and the ruleset are public but a plain view dict names only the map and the
ruleset preset; pass ``game_map`` and ``ruleset`` for anything but the default map and
the preset's own options (a :class:`~stoptable.games.stopandgo.views.SeatView` carries
both).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stoptable.core.rng import Rng
from stoptable.games.stopandgo.board import StopGoMap
from stoptable.games.stopandgo.check import load_default_map
from stoptable.games.stopandgo.ruleset import Ruleset
from stoptable.games.stopandgo.state import StopGoState
from stoptable.games.stopandgo.views import SeatView

_CAR_KEYS = ("pos", "prev", "reverse_ok", "tickets", "missed_turns", "collected")


def determinize(
    view: Mapping[str, Any],
    seat: int | None,
    rng: Rng,
    game_map: StopGoMap | None = None,
    ruleset: Ruleset | None = None,
) -> StopGoState:
    """A random state that ``view`` (of ``seat``) cannot tell from the real one.

    ValueError for a view of a finished game or one on a map other than ``game_map``.
    """
    if type(view) is SeatView:
        game_map = game_map or view.game_map
        ruleset = ruleset or view.ruleset
        data: Mapping[str, Any] = view.to_dict()
    else:
        data = view
    if data["phase"] == "game_over":
        raise ValueError("a finished game has nothing hidden to sample")
    the_map = game_map if game_map is not None else load_default_map()
    if data.get("map") is not None and data["map"] != the_map.name:
        raise ValueError(f"the view is on map {data['map']!r}, not {the_map.name!r}")
    rules = ruleset if ruleset is not None else Ruleset.preset(str(data["ruleset"]))
    cars = [{k: car[k] for k in _CAR_KEYS} for car in data["cars"]]
    seen = {n for car in cars for n in car["collected"]}
    if data["active"] is not None:
        seen.add(data["active"])
    if rules.destination_list is not None:
        pool = [n for n in rules.destination_list if n not in seen]
    else:
        pool = sorted(n for n in the_map.destination_space if n not in seen)
    rng.shuffle(pool)
    size = int(data["deck_size"])
    if size > len(pool):
        raise ValueError(f"the view's deck has {size} cards, only {len(pool)} are unseen")
    position = {
        "cars": cars,
        "dial": data["dial"],
        "active": data["active"],
        "deck": pool[:size],
        "turn": data["turn"],
        "roll": data["roll"],
        "still_turns": data["still_turns"],
    }
    seed = rng.below(2**31)
    del seat  # the whole view but the deck is public: every seat's sample is alike
    state = StopGoState.from_position(rules, len(cars), position, the_map, seed)
    last = data.get("last_move")
    state.last_move = None if last is None else dict(last)
    return state
