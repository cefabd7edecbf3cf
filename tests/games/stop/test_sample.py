"""The Stop determinization entry point (``sample_state`` is checked in test_properties)."""

from __future__ import annotations

import pytest

from stoptable.core.rng import Rng
from stoptable.games.stop.sample import determinize
from stoptable.games.stop.state import new_game


def test_determinize_keeps_the_view_and_refuses_another_seats_view() -> None:
    state = new_game("abacus-en", 4, 2, {})
    view = state.view(1)
    sampled = determinize(view, 1, Rng(3))
    mine = sampled.view(1)
    keys = [k for k in view if k not in ("log", "last_reveal")]
    assert {k: mine[k] for k in keys} == {k: view[k] for k in keys}
    assert sampled.legal_actions(1) == state.legal_actions(1)
    assert sampled.hands[0] != state.hands[0] or sampled.hands[2] != state.hands[2]
    with pytest.raises(ValueError, match="not seat 2"):
        determinize(view, 2, Rng(3))
