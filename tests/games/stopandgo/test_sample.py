"""The Stop & Go determinization: the sample shows the seat the same view, and is legal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.core.rng import Rng
from stoptable.games.stopandgo import SeatView, new_game
from stoptable.games.stopandgo.sample import determinize


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 4), turns=st.integers(0, 120))
def test_sampled_state_shows_the_same_view(seed: int, seats: int, turns: int) -> None:
    state = new_game(seats=seats, seed=seed)
    rng = Rng(seed)
    for _ in range(turns):
        if state.over:
            break
        step = state.next_step()
        if step is not None:
            state.run_step(step)
        legal = state.legal_moves(state.turn)
        state.apply(legal[rng.below(len(legal))])
    if state.over:
        with pytest.raises(ValueError):
            determinize(state.view(0), 0, rng)
        return
    seat = rng.below(seats)
    view = state.view(seat)
    sampled = determinize(view, seat, Rng(seed + 1))
    assert sampled.view(seat) == view
    assert sorted(sampled.deck) == sorted(state.deck)
    # The same public state in a SeatView samples alike, and the sample plays on legally.
    assert determinize(SeatView(state, seat), seat, Rng(seed + 1)).deck == sampled.deck
    step = sampled.next_step()
    if step is not None:
        sampled.run_step(step)
    moves = sampled.legal_moves(sampled.turn)
    sampled.apply(moves[0])
