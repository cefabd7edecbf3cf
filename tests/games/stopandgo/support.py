"""Helpers of the Stop & Go tests: fixture maps, positions and a seeded random driver."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from stoptable.games.stopandgo import Move, StopGoMap, StopGoState, load_default_map, load_map

MAPS = Path(__file__).parent / "maps"


@cache
def fixture(name: str) -> StopGoMap:
    """A fixture map of tests/games/stopandgo/maps (see base.json for the layout).

    Layout (x east, y south): a ring A-n-B / w-X-e / C-M-D with one road space between
    junctions; X is a 4-way crossroads with arms n1 (N), e1 (E), s1 (S, to the market M),
    w1 (W). Destinations: an = 1, be = 2, wc = 3, md = 4.
    """
    return load_map(MAPS / f"{name}.json")


def car(pos: str, prev: str | None = None, **more: Any) -> dict[str, Any]:
    """A §6.1 car object."""
    return {"pos": pos, "prev": prev, **more}


def position(
    game_map: StopGoMap,
    cars: list[dict[str, Any]],
    roll: int | None = None,
    active: int | None = 1,
    deck: list[int] | None = None,
    dial: int = 0,
    turn: int = 0,
    **options: Any,
) -> StopGoState:
    """A state from an explicit position on ``game_map``; ``options`` are ruleset options."""
    data: dict[str, Any] = {"cars": cars, "active": active, "dial": dial, "turn": turn}
    data["deck"] = deck if deck is not None else []
    data["roll"] = roll
    return StopGoState.from_position("stopgo-standard", len(cars), data, game_map, 0, options)


def default_position(cars: list[dict[str, Any]], **kwargs: Any) -> StopGoState:
    """:func:`position` on the default map."""
    return position(load_default_map(), cars, **kwargs)


def codes(state: StopGoState, seat: int, *path: str) -> list[str]:
    """Every reason code the path breaks now (hard first, then traffic)."""
    hard, traffic = state.reasons(Move(seat, tuple(path)))
    return hard + traffic


def is_legal(state: StopGoState, seat: int, *path: str) -> bool:
    """Whether the engine lists ``path`` among the legal paths."""
    return tuple(path) in set(state.legal_paths(seat))


def drive(state: StopGoState, rnd: random.Random, greed: float = 0.7) -> Move:
    """One turn of a seeded driver: roll, then mostly head for the active destination."""
    if state.needs_roll:
        state.roll()
    m = state.game_map
    paths = state.legal_paths(state.turn, distinct_ends=True)
    target = state.active_space()
    if target is None or rnd.random() > greed:
        choice = rnd.choice(paths)
    else:
        dist = m.distances_to(target)
        choice = min(paths, key=lambda p: (dist[m.index[p[-1]]], rnd.random()))
    move = Move(state.turn, choice)
    state.apply(move)
    return move


def play_out(state: StopGoState, rnd: random.Random, max_turns: int = 20_000) -> int:
    """Drive until the game is over; the number of moves (fails past ``max_turns``)."""
    turns = 0
    while not state.over:
        drive(state, rnd)
        turns += 1
        assert turns < max_turns, "the game did not end"
    return turns
