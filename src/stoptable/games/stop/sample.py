"""Determinization for search bots: a full state consistent with one seat's view.

A bot sees only ``state.view(seat)``. ``sample_state`` deals every card the seat cannot
see (112 minus its own hand and the discard pile) at random into the other hands, with
their public sizes, and into the draw pile; cards left over (a position may have put some
out of play) stay out. Everything public (pending effect, obligations, turn, totals) is
copied, so the sampled state accepts exactly the actions the real one would from ``seat``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from stoptable.core.rng import Rng
from stoptable.games.stop.cards import DECK_COUNTS, Card, parse_card
from stoptable.games.stop.ruleset import Ruleset
from stoptable.games.stop.state import StopState


def sample_state(view: dict[str, Any], rng: Rng, seed: int = 0) -> StopState:
    """A random state that ``view`` (from ``seat_view``) cannot tell from the real one."""
    if view["phase"] not in ("playing", "closing"):
        raise ValueError("only a view of a round in play can be sampled")
    seat = view["seat"]
    if seat is None:
        raise ValueError("a spectator view has no hand to keep")
    own = [parse_card(c) for c in view["hand"]]
    discard = [parse_card(c) for c in view["discard"]]
    unseen = Counter(DECK_COUNTS)
    unseen.subtract(Counter(own) + Counter(discard))
    pool: list[Card] = sorted(unseen.elements())
    rng.shuffle(pool)
    hands: list[list[str]] = []
    for s, size in enumerate(view["hand_sizes"]):
        if s == seat:
            hands.append(list(view["hand"]))
        else:
            hands.append([c.code for c in pool[:size]])
            pool = pool[size:]
    position = {
        "hands": hands,
        "discard": list(view["discard"]),
        "draw_pile": [c.code for c in pool[: view["draw_size"]]],
        "turn": view["turn"],
        "dealer": view["dealer"],
        "round": view["round"],
        "pending": view["pending"],
        "obligations": view["obligations"],
        "totals": view["totals"],
        "consecutive_passes": view["consecutive_passes"],
        "phase": view["phase"],
    }
    rules = Ruleset.from_options(view["ruleset"], view["options"])
    return StopState.from_position(rules, len(hands), position, seed=seed)


def determinize(view: dict[str, Any], seat: int, rng: Rng) -> StopState:
    """:func:`sample_state` of ``seat``'s view, with a fresh seed for the sample's own
    reshuffles drawn from ``rng`` (the search bots' entry point, alike in every game).

    ValueError if ``view`` is not ``seat``'s.
    """
    if view["seat"] != seat:
        raise ValueError(f"the view is seat {view['seat']}'s, not seat {seat}'s")
    return sample_state(view, rng, seed=rng.below(2**31))
