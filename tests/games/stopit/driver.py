"""A simple seeded random request driver for Stop it! property tests.

It is deliberately naive (not the simulator): at each step it moves the time forward by a
random amount, then sends either one of the seat's legal requests or a random, often
illegal one (stale ids, bad positions, wrong phases). Every step is reported to a callback,
and the accepted requests and clock lines form a record that replays to the same state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stoptable.core.errors import IllegalAction
from stoptable.games.stopit import (
    CallStop,
    Go,
    Grab,
    Insert,
    Move,
    PlayStop,
    Request,
    Ruleset,
    StopItState,
    standard_deck,
)

ALL_IDS = standard_deck()


@dataclass
class Step:
    """One request the driver sent: the state before (after the clock advance) and after."""

    request: Request
    before: StopItState
    accepted: bool
    error: IllegalAction | None


@dataclass
class Game:
    """A finished (or cut off) random game."""

    header: dict[str, Any]
    state: StopItState
    events: list[dict[str, Any]] = field(default_factory=list)
    steps: int = 0


def random_request(state: StopItState, rng: random.Random, seat: int, t: int) -> Request:
    """Any request, legal or not, with plausible but random arguments."""
    stacks = len(state.stacks)
    size = len(state.hands[seat]) + 1
    kind = rng.randrange(6)
    if kind == 0:
        return Go(seat, t)
    if kind == 1:
        expect = None if rng.random() < 0.1 else rng.choice(ALL_IDS)
        pos = None if rng.random() < 0.5 else rng.randrange(-1, size + 1)
        return Grab(seat, t, rng.randrange(stacks), expect, pos)
    if kind == 2:
        return Insert(seat, t, rng.randrange(-1, size + 1))
    if kind == 3:
        return Move(seat, t, rng.randrange(-1, size + 1), rng.randrange(-1, size + 1))
    if kind == 4:
        return CallStop(seat, t, rng.randrange(stacks), rng.choice(ALL_IDS))
    return PlayStop(seat, t, rng.choice(ALL_IDS))


def legal_request(
    state: StopItState, rng: random.Random, seat: int, stop_weight: float = 0.3
) -> Request | None:
    """A legal request of ``seat`` now, choosing the request type first (so that the many
    moves do not crowd out grabs; stops weigh ``stop_weight``), or None if it has none."""
    legal = state.legal_actions(seat, exhaustive=rng.random() < 0.2)
    if not legal:
        return None
    by_type: dict[type, list[Request]] = {}
    for action in legal:
        by_type.setdefault(type(action), []).append(action)
    kinds = list(by_type)
    weights = [stop_weight if k is CallStop or k is PlayStop else 1.0 for k in kinds]
    chosen = rng.choices(kinds, weights)[0]
    return rng.choice(by_type[chosen])


def _time(event: dict[str, Any]) -> int:
    return int(event["clock"] if "clock" in event else event["t"])


def play(
    seed: int,
    seats: int = 4,
    options: dict[str, Any] | None = None,
    max_steps: int = 4000,
    illegal_share: float = 0.25,
    stop_weight: float = 0.3,
    on_step: Callable[[Step, StopItState], None] | None = None,
) -> Game:
    """Play one random game from a seeded setup; ``on_step(step, state_after)`` checks."""
    rng = random.Random(seed)
    ruleset = Ruleset.from_options("stopit-standard", {"min_pause_ms": 0, **(options or {})})
    header: dict[str, Any] = {"game": "stopit", "ruleset": "stopit-standard", "seats": seats}
    if options:
        header["options"] = options
    header["seed"] = seed
    state = StopItState.new_game(ruleset, seats, seed)
    game = Game(header, state)
    while state.phase != "game_over" and game.steps < max_steps:
        game.steps += 1
        roll = rng.random()
        delta = 0 if roll < 0.2 else rng.randrange(400) if roll < 0.95 else rng.randrange(16000)
        t = state.clock + delta
        if rng.random() < 0.05:
            state.advance_to(t)
            game.events.append({"clock": t})
            continue
        state.advance_to(t)
        seat = rng.randrange(seats)
        request: Request | None = None
        if rng.random() >= illegal_share:
            request = legal_request(state, rng, seat, stop_weight)
        if request is None:
            request = random_request(state, rng, seat, t)
        before = state.copy() if on_step is not None else state
        error = None
        try:
            state.apply(request)
        except IllegalAction as exc:
            error = exc
        if error is None:
            game.events.append(request.to_json())
        elif not game.events or _time(game.events[-1]) < t:
            game.events.append({"clock": t})  # the timers fired before the rejection
        if on_step is not None:
            on_step(Step(request, before, error is None, error), state)
    return game
