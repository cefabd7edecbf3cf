"""Stop & Go bots: legal choices only, the heuristic's plan, and heuristic beats random."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stoptable.bots.base import bot_names, make_bot
from stoptable.bots.stopandgo import MapPlan, map_of, plan_for, use_map
from stoptable.games.stopandgo import Move, StopGoState, load_default_map, load_map, new_game
from stoptable.sim.stopandgo import simulate, summarize
from tests.games.stopandgo.test_svg import fixture_map


def test_both_bots_are_registered() -> None:
    assert {"random", "heuristic"} <= set(bot_names("stopandgo"))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(["random", "heuristic"]))
def test_bots_only_return_legal_moves(seed: int, name: str) -> None:
    state = new_game(seats=3, seed=seed)
    bots = [make_bot("stopandgo", name, seat, seed + seat) for seat in range(3)]
    for _ in range(40):
        seat = state.turn
        state.roll()
        legal = state.legal_actions(seat)
        move = bots[seat].act(state.view(seat), legal)
        assert move in legal
        state.apply(move)
        if state.over:
            break


def position_state(cars: list[dict[str, Any]], active: int, roll: int) -> StopGoState:
    game_map = load_default_map()
    position = {"map": "default", "cars": cars, "active": active, "deck": [], "roll": roll}
    return StopGoState.from_position(None, len(cars), position, game_map)


def test_heuristic_collects_when_it_can() -> None:
    game_map = load_default_map()
    target = game_map.destination_space[5]
    ids = game_map.ids
    for a, b in ((x, y) for y in game_map.neighbours[target] for x in game_map.neighbours[y]):
        if a == target:
            continue
        cars = [{"pos": ids[b], "prev": ids[a]}, {"pos": ids[game_map.market]}]
        state = position_state(cars, 5, 6)
        legal = state.legal_actions(0)
        if any(m.path[-1] == ids[target] for m in legal):
            move = make_bot("stopandgo", "heuristic", 0, 1).act(state.view(0), legal)
            assert move.path[-1] == ids[target]
            return
    pytest.fail("no position next to destination 5 from which it can be entered")


def test_heuristic_drives_off_a_destination_it_stands_on() -> None:
    """G-18: standing on the newly active destination does not collect it; it must leave."""
    game_map = load_default_map()
    target = game_map.destination_space[12]
    prev = game_map.neighbours[target][0]
    ids = game_map.ids
    cars = [{"pos": ids[target], "prev": ids[prev]}, {"pos": ids[game_map.market]}]
    state = position_state(cars, 12, 4)
    legal = state.legal_actions(0)
    assert len(legal) > 1
    move = make_bot("stopandgo", "heuristic", 0, 1).act(state.view(0), legal)
    assert len(move.path) > 1


def test_plan_costs_fall_along_a_route_and_lights_cost_a_wait() -> None:
    game_map = load_default_map()
    plan = MapPlan(game_map)
    target = game_map.destination_space[1]
    table = plan.table(target, 0)
    # Every state with a finite cost has a step to a state that costs at least 1 less.
    for (q, a), cost in table.items():
        if a == target:
            assert cost == 0
            continue
        best = min(
            plan.step_cost(stop, open_at, 0, False) + table.get((a, b), float("inf"))
            for b, stop, open_at in plan.steps[(q, a)]
        )
        assert best == pytest.approx(cost)
    closed_now = [
        (b, stop, open_at)
        for outs in plan.steps.values()
        for b, stop, open_at in outs
        if 0 not in open_at
    ]
    assert closed_now  # the dial closes some approaches at position 0
    _, stop, open_at = closed_now[0]
    assert plan.step_cost(stop, open_at, 0, True) > plan.step_cost(
        stop, open_at, min(open_at), True
    )
    assert plan_for(game_map) is plan_for(game_map)


def test_map_of_needs_an_unknown_map_to_be_registered() -> None:
    with pytest.raises(ValueError, match="use_map"):
        map_of({"map": "nowhere-town"})
    fixture = load_map(fixture_map())
    use_map(fixture)
    assert map_of({"map": fixture.name}) is fixture


def test_bots_play_on_a_fixture_map() -> None:
    fixture = load_map(fixture_map())
    results = simulate(["heuristic", "random"], 4, seed=3, game_map=fixture)
    assert all(r.turns > 0 for r in results)


def test_heuristic_beats_random_in_a_seeded_run() -> None:
    bots = ["heuristic", "random", "random"]
    results = simulate(bots, 12, seed=11, options={"destination_count": 4})
    report = summarize(bots, results)
    heuristic, random_bot = report.bots
    assert report.unfinished == 0
    assert heuristic.win_share > 0.6
    assert heuristic.score.mean > 2 * random_bot.score.mean


def test_random_bot_is_reproducible_from_its_seed() -> None:
    state = new_game(seats=2, seed=5)
    state.roll()
    legal = state.legal_actions(0)
    picks = [make_bot("stopandgo", "random", 0, 9).act(state.view(0), legal) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    assert isinstance(picks[0], Move)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_heuristic_chooses_alike_from_plain_and_fast_forms(seed: int) -> None:
    """The simulator's SeatView and LegalMoves lead the bot to the move it picks from the
    plain view dict and a list of Moves (its Rng drawn alike)."""
    state = new_game(seats=4, seed=seed, options={"destination_count": 6})
    plain, fast = (make_bot("stopandgo", "heuristic", s, seed) for s in (0, 0))
    for _ in range(120):
        if state.over:
            break
        seat = state.turn
        state.roll()
        legal = state.legal_moves(seat)
        moves = [Move(seat, p) for p in state.legal_paths(seat, distinct_ends=True)]
        plain.seat = fast.seat = seat
        chosen = fast.act(state.seat_view(seat), legal)
        assert chosen == plain.act(state.view(seat), moves)
        assert chosen in moves
        state.apply(chosen)
