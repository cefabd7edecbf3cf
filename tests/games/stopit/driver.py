"""A simple seeded random request driver for Stop it! property tests.

It is deliberately naive (not the simulator): at each step it moves the time forward by a
random amount, taking every timer due by then as a protocol step (``next_step`` /
``run_step``, writing the clock line each one carries), then sends either one of the
seat's legal requests or a random, often illegal one (stale ids, bad positions, wrong
phases). Every request is reported to a callback, and the accepted requests and clock
lines form a record that replays to the same state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
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
class Attempt:
    """One request the driver sent, and the state it met: every timer due by its ``t``
    fired and the clock at ``t`` (``apply`` moves it there, accepted or not)."""

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


def run_timers(state: StopItState, t: int, events: list[dict[str, Any]]) -> None:
    """Take every timer step due at or before ``t``, writing the clock line of each."""
    step = state.next_step()
    while step is not None and step.at is not None and step.at <= t:
        for event in state.run_step(step):
            if event.line is not None:
                events.append(dict(event.line))
        step = state.next_step()


def play(
    seed: int,
    seats: int = 4,
    options: dict[str, Any] | None = None,
    max_steps: int = 4000,
    illegal_share: float = 0.25,
    stop_weight: float = 0.3,
    on_step: Callable[[Attempt, StopItState], None] | None = None,
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
        run_timers(state, t, game.events)
        if rng.random() < 0.05:
            continue  # a quiet spell: only the timers ran
        seat = rng.randrange(seats)
        request: Request | None = None
        if rng.random() >= illegal_share:
            request = legal_request(state, rng, seat, stop_weight)
        if request is None:
            request = random_request(state, rng, seat, t)
        elif request.t != t:
            request = replace(request, t=t)  # legal_actions stamps the state's clock
        before = state
        if on_step is not None:
            before = state.copy()
            before.clock = t
        error = None
        try:
            state.apply(request)
        except IllegalAction as exc:
            error = exc
        if error is None:
            game.events.append(request.to_json())
        elif not game.events or _time(game.events[-1]) < t:
            game.events.append({"clock": t})  # the rejection still moved the clock to t
        if on_step is not None:
            on_step(Attempt(request, before, error is None, error), state)
    return game
