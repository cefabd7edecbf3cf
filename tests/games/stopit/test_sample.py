"""The Stop it! determinization: same view for the seat, a legal state, hidden parts vary."""

from __future__ import annotations

import pytest

from stoptable.bots.stopit import make_stopit_bot
from stoptable.core.rng import Rng
from stoptable.games.stopit.ruleset import sim_ruleset
from stoptable.games.stopit.sample import determinize
from stoptable.games.stopit.spec import SPEC as STOPIT
from stoptable.games.stopit.state import StopItState
from stoptable.live.virtual import VirtualTable

PUBLIC = ("tops", "stack_sizes", "hand_sizes", "hand_kinds", "held_cards", "hand", "held",
          "supply", "minus_cards", "extra_points", "scores", "phase", "clock", "seat")  # fmt: skip


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sampled_states_show_the_seat_its_view(seed: int) -> None:
    ruleset = sim_ruleset()
    state = StopItState.new_game(ruleset, 4, seed)
    table = VirtualTable(
        STOPIT, state, {k: make_stopit_bot("heuristic", k, seed * 16 + k) for k in range(4)}
    )
    table.start()
    checked = 0
    rng = Rng(seed)
    for n in range(3000):
        if not table.step():
            break
        if n % 25 or state.phase != "running":
            continue
        seat = rng.below(4)
        view = state.view(seat)
        sampled = determinize(view, seat, rng, ruleset)
        mine = sampled.view(seat)
        assert {k: mine[k] for k in PUBLIC} == {k: view[k] for k in PUBLIC}
        assert sampled.stack_total == state.stack_total
        for other in range(4):
            if other != seat:
                assert sorted(sampled.hands[other]) != [] or not state.hands[other]
        sampled.legal_actions(seat)  # a state the engine works on
        checked += 1
    assert checked > 5


def test_only_running_views_of_the_own_seat_are_sampled() -> None:
    state = StopItState.new_game(sim_ruleset(), 3, 1)
    with pytest.raises(ValueError, match="not seat 1"):
        determinize(state.view(0), 1, Rng(1))
