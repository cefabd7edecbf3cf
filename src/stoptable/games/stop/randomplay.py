"""A seeded random driver for synchronous play (S-61), used by tests, golden records and
the speed measurement. It is a driver, not a bot: it sees the whole state.

Each step first makes the S-61 offers (interjections, or cancels in a cancel window) and
lets an offered seat take one with probability ``take``; otherwise the seat to act picks
uniformly among its legal actions. With ``drop_calls`` > 0 it sometimes omits the calls of
a chosen action, so that penalties and the ja windows are exercised too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from stoptable.core.rng import Rng
from stoptable.games.stop.actions import (
    CallAchtung,
    CallStop,
    Cancel,
    Interject,
    StopAction,
)
from stoptable.games.stop.state import StopState

Sink = Callable[[dict[str, object]], None]


def _strip(action: StopAction, rng: Rng, drop: float) -> StopAction:
    calls = getattr(action, "calls", None)
    if calls and drop > 0 and rng.random() < drop:
        return replace(action, calls=frozenset())  # type: ignore[arg-type]
    return action


def step(st: StopState, rng: Rng, take: float = 0.3, drop_calls: float = 0.0) -> StopAction | None:
    """Choose and apply one action (None if the cancel window was just closed instead)."""
    p = st.pending
    for seat in st.offers():
        if rng.random() < take:
            kind = Cancel if p is not None and p.kind == "exchange" else Interject
            choices = [a for a in st.legal_actions(seat) if type(a) is kind]
            if choices:
                action = _strip(choices[rng.below(len(choices))], rng, drop_calls)
                st.apply(action)
                return action
    if p is not None and p.kind == "exchange":
        st.close_cancel_window()
        return None
    for ob in st.obligations:
        if rng.random() < 0.5:
            call: StopAction = CallAchtung(ob.seat) if ob.kind == "achtung" else CallStop(ob.seat)
            st.apply(call)
            return call
    mover = st.turn
    assert mover is not None, "a round in play always has a seat to act"
    legal = [a for a in st.legal_actions(mover) if type(a) not in (Interject, Cancel)]
    legal = [a for a in legal if type(a) not in (CallAchtung, CallStop)] or legal
    action = _strip(legal[rng.below(len(legal))], rng, drop_calls)
    st.apply(action)
    return action


def play_round(
    st: StopState, rng: Rng, sink: Sink | None = None, take: float = 0.3, drop: float = 0.0
) -> int:
    """Play until the round ends; returns the number of actions applied."""
    count = 0
    while st.phase in ("playing", "closing"):
        action = step(st, rng, take, drop)
        if action is not None:
            count += 1
            if sink is not None:
                sink(action.to_json())
    return count


def play_game(
    st: StopState,
    rng: Rng,
    sink: Sink | None = None,
    max_rounds: int = 1000,
    take: float = 0.3,
    drop: float = 0.0,
) -> int:
    """Play whole rounds (seeded next-round shuffles) until game over or ``max_rounds``."""
    count = play_round(st, rng, sink, take, drop)
    rounds = 1
    while st.phase == "round_over" and rounds < max_rounds:
        st.start_next_round()
        if sink is not None:
            sink({"chance": "shuffle"})
        count += play_round(st, rng, sink, take, drop)
        rounds += 1
    return count
