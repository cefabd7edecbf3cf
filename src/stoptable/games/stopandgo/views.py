"""The JSON shape of a state: the records.md §6.3 fields that every seat may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stoptable.core.protocol import JSON

if TYPE_CHECKING:
    from stoptable.games.stopandgo.state import StopGoState


def public_state(state: StopGoState) -> dict[str, JSON]:
    """Everything of §6.3 but ``deck`` (built for every view, so kept lean)."""
    ids = state.game_map.ids
    space = state.active_space()
    over = state.over
    winners = None
    if over:
        outcome = state.result()
        winners = list(outcome.winners) if outcome else []
    cars: list[JSON] = [
        {
            "pos": ids[c.pos],
            "prev": None if c.prev < 0 else ids[c.prev],
            "reverse_ok": c.reverse_ok,
            "tickets": c.tickets,
            "missed_turns": c.missed_turns,
            "collected": list(c.collected),
        }
        for c in state.cars
    ]
    return {
        "game": "stopandgo",
        "ruleset": state.ruleset.name,
        "phase": "game_over" if over else "playing",
        "seats": state.seats,
        "turn": None if over else state.turn,
        "roll": state.rolled,
        "dial": state.dial,
        "active": state.active,
        "active_space": None if space is None else ids[space],
        "cars": cars,
        "last_move": None if state.last_move is None else dict(state.last_move),
        "scores": state.scores(),
        "winners": winners,
    }
